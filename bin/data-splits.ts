// The one fixed split of the labeled data into train / dev / test, shared by the trainer and the eval.
// Fixed before any tuning and never changed since: changing it would leak test messages into training.
//   spamassassin-dev.jsonl and enron-berkeley.jsonl: FNV-1a hash of the message's `id` modulo 10:
//     0-5 train (60%), 6-7 dev (20%, thresholds and calibration), 8-9 test (20%, only `npm run eval` reads it).
//   sms-spam-collection.tsv (no ids): every 5th line (1-based) is test, as since version 1; of the rest every 4th
//     is dev, the others train.
// SpamAssassin's own held-out part (spam-2, easy-ham-2, the rest of hard-ham-1) is not here and is never read.
import { readFileSync } from 'node:fs';
import path from 'node:path';

export type Split = 'train' | 'dev' | 'test';

export const DATA_DIR = process.env.SAS_DATA_DIR ?? path.resolve(__dirname, '../../shared/data');

/** 32-bit FNV-1a over the UTF-16 code units: stable across machines and Node versions. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function splitOfId(id: string): Split {
  const bucket = fnv1a(id) % 10;
  return bucket < 6 ? 'train' : bucket < 8 ? 'dev' : 'test';
}

/** 0-based index of a message among the SMS file's data lines. */
export function splitOfSmsLine(index: number): Split {
  if ((index + 1) % 5 === 0) return 'test';
  return index % 4 === 3 ? 'dev' : 'train';
}

export interface MailRow {
  id: string;
  label: string;
  subject: string | null;
  sender: string | null;
  body: string;
  received_at?: string | null;
  split: Split;
}

function jsonl(file: string): Record<string, unknown>[] {
  return readFileSync(path.join(DATA_DIR, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

const mailRow = (r: Record<string, unknown>): MailRow => ({
  id: String(r.id),
  label: String(r.label),
  subject: typeof r.subject === 'string' ? r.subject : null,
  sender: typeof r.sender === 'string' ? r.sender : null,
  body: typeof r.body === 'string' ? r.body : '',
  received_at: typeof r.received_at === 'string' ? r.received_at : null,
  split: splitOfId(String(r.id)),
});

export const loadSpamAssassin = (): MailRow[] => jsonl('spamassassin-dev.jsonl').map(mailRow);
export const loadEnron = (): MailRow[] => jsonl('enron-berkeley.jsonl').map(mailRow);

export interface SmsRow {
  spam: boolean;
  text: string;
  split: Split;
}

export function loadSms(): SmsRow[] {
  const out: SmsRow[] = [];
  let index = 0;
  for (const line of readFileSync(path.join(DATA_DIR, 'sms-spam-collection.tsv'), 'utf8').split('\n').slice(1)) {
    if (line.trim() === '') continue;
    const tab = line.indexOf('\t');
    out.push({ spam: line.slice(0, tab) === 'spam', text: line.slice(tab + 1), split: splitOfSmsLine(index++) });
  }
  return out;
}

if (require.main === module) {
  const count = <R extends { split: Split }>(rows: R[], pick: (r: R) => string) => {
    const t: Record<string, Record<Split, number>> = {};
    for (const r of rows) (t[pick(r)] ??= { train: 0, dev: 0, test: 0 })[r.split]++;
    return t;
  };
  console.log('spamassassin-dev', count(loadSpamAssassin(), (r) => r.label));
  console.log('enron-berkeley', count(loadEnron(), () => 'all'));
  console.log('sms', count(loadSms(), (r) => (r.spam ? 'spam' : 'ham')));
}
