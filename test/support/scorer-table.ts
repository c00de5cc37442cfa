// The table of realistic hand-written signals (none taken from the evaluation data sets), each with the decision it
// must get; its rows live in one file per theme so that each can be read whole, and keep the order they had.
import { EMAIL_TOPIC_ROWS } from './scorer-table-email-topics';
import { EMAIL_LOW_PRIORITY_ROWS } from './scorer-table-email-low-priority';
import { EMAIL_LANGUAGE_ROWS } from './scorer-table-email-languages';
import { OTHER_SOURCE_ROWS } from './scorer-table-other-sources';
import type { Row } from './scorer-signals';

export const TABLE: Row[] = [
  ...EMAIL_TOPIC_ROWS,
  ...EMAIL_LOW_PRIORITY_ROWS,
  ...EMAIL_LANGUAGE_ROWS,
  ...OTHER_SOURCE_ROWS,
];
