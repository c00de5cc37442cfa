// The held-out labeled cases (bin/data-splits.ts) as signals, each with what "right" means for it (issue 22, item 5):
//   spamassassin     TEST split (the later 30% by message number) as email: right = archived exactly when spam
//   web-form spam    the same TEST spam sent as support_message (subject and body, no sender): right = archived
//   sms              TEST split (every 5th line) as support_message: right = archived exactly when spam
//   enron            TEST split (40% by id hash) as email: right = not archived
//   banking77        all of it as support_message: right = not archived (the intent is the learning eval's part)
//   alerts           each source as internal (subject = name, or summary without one; body = description), scored by the model
//                    trained without that source: right = the priority band fits the author's severity
//   bugs             the test projects as task (subject = summary, body = description): right = the priority band
//                    fits the tracker's priority
// No message text is ever printed.
import type { Assessment, Priority } from '../../lambdas/domain/decision';
import { scoreSignal } from '../../lambdas/domain/engine';
import type { Signal } from '../../lambdas/domain/signal';
import { enronDev } from '../spam-examples';
import {
  ALERT_FOLDS,
  BUG_LEVEL,
  loadAlerts,
  loadBanking77,
  loadBugs,
  loadEnron,
  loadSms,
  loadSpamAssassin,
  type AlertRow,
  type BugRow,
  type MailRow,
  type SmsRow,
} from '../data-splits';

/** A fixed analysis time for sets without timestamps, so runs are comparable. */
export const FIXED_NOW = new Date('2026-01-15T12:00:00Z');

export type Corpus = 'spamassassin' | 'web-form spam' | 'sms' | 'enron' | 'banking77' | 'alerts' | 'bugs';

export interface Case {
  corpus: Corpus;
  label: string;
  /** Ordinal severity (alerts 3..1, bugs 5..1), for rank correlation. */
  level?: number;
  /** Alerts: the source held out. */
  group?: string;
  /** Alerts and bugs: the row's id in its data file. */
  id?: string;
  signal: Signal;
  now: Date;
}

export interface Scored extends Case {
  assessment: Assessment;
  right: boolean;
}

export function mailSignal(row: MailRow, receivedAt: string): Signal {
  const signal: Signal = { workspace_id: 'eval', source: 'email', received_at: receivedAt };
  if (row.subject) signal.subject = row.subject;
  if (row.body) signal.body = row.body;
  if (row.sender) signal.sender = row.sender;
  return signal;
}

export function alertSignal(r: AlertRow): Signal {
  return {
    workspace_id: 'eval',
    source: 'internal',
    received_at: FIXED_NOW.toISOString(),
    subject: r.name || r.summary,
    body: r.description,
  };
}
export function bugSignal(r: BugRow): Signal {
  return {
    workspace_id: 'eval',
    source: 'task',
    received_at: FIXED_NOW.toISOString(),
    subject: r.summary,
    body: r.description,
  };
}

export const ALERT_LEVEL = { critical: 3, warning: 2, info: 1 } as const;
const ALERT_BANDS: Record<string, readonly Priority[]> = {
  critical: ['critical', 'high'],
  warning: ['high', 'medium'],
  info: ['medium', 'low'],
};
/** Bugs: the top two priorities high/critical, the bottom two low/medium, the middle one medium. */
const BUG_BANDS: Record<number, readonly Priority[]> = {
  5: ['critical', 'high'],
  4: ['critical', 'high'],
  3: ['medium'],
  2: ['medium', 'low'],
  1: ['medium', 'low'],
};

const archived = (a: Assessment) => a.recommended_action === 'archive';

export function isRight(c: Case, a: Assessment): boolean {
  switch (c.corpus) {
    case 'spamassassin':
    case 'sms':
      return archived(a) === (c.label === 'spam');
    case 'web-form spam':
      return archived(a);
    case 'enron':
    case 'banking77':
      return !archived(a);
    case 'alerts':
      return ALERT_BANDS[c.label].includes(a.priority);
    case 'bugs':
      return BUG_BANDS[c.level!].includes(a.priority);
  }
}

/**
 * `npm run eval -- --dev` reads SpamAssassin's, SMS's and Enron's DEV side instead, the one to tune thresholds on, and
 * nothing held out.
 */
export const EVAL_SPLIT = process.argv.includes('--dev') ? 'dev' : 'test';

const AT = FIXED_NOW.toISOString();
export const spamAssassinCase = (row: MailRow): Case => ({
  corpus: 'spamassassin',
  label: row.label,
  signal: mailSignal(row, AT),
  now: FIXED_NOW,
});
/** SpamAssassin's spam as a web form sends it: support_message, subject and body, no sender. */
export function webFormCase(row: MailRow): Case {
  const signal: Signal = { workspace_id: 'eval', source: 'support_message', received_at: AT, body: row.body };
  if (row.subject) signal.subject = row.subject;
  return { corpus: 'web-form spam', label: 'spam', signal, now: FIXED_NOW };
}
export const smsCase = (row: SmsRow): Case => ({
  corpus: 'sms',
  label: row.spam ? 'spam' : 'ham',
  signal: { workspace_id: 'eval', source: 'support_message', body: row.text, received_at: AT },
  now: FIXED_NOW,
});
export function enronCase(row: MailRow): Case {
  const received = row.received_at ?? '2001-06-01T12:00:00Z';
  return {
    corpus: 'enron',
    label: row.label.split(' ')[0],
    signal: mailSignal(row, received),
    now: new Date(Date.parse(received) + 5 * 60_000),
  };
}
/** Alerts and bugs: the author's label, its rank, and the source or project. */
const rankedCase = (corpus: Corpus, label: string, level: number, group: string, signal: Signal, id: string): Case => ({
  corpus,
  label,
  level,
  group,
  id,
  signal,
  now: FIXED_NOW,
});
export const alertCase = (r: AlertRow) =>
  rankedCase('alerts', r.severity, ALERT_LEVEL[r.severity], r.source, alertSignal(r), r.id);
export const bugCase = (r: BugRow) =>
  rankedCase('bugs', r.priority, BUG_LEVEL[r.priority], r.project, bugSignal(r), r.id);

/** Every held-out case, in a fixed order. */
export function heldOutCases(): Case[] {
  const tested: string[] = ALERT_FOLDS.map((f) => f.test);
  return [
    ...loadSpamAssassin()
      .filter((r) => r.split === EVAL_SPLIT)
      .flatMap((r) => (r.label === 'spam' ? [spamAssassinCase(r), webFormCase(r)] : [spamAssassinCase(r)])),
    ...loadSms()
      .filter((r) => r.split === EVAL_SPLIT)
      .map(smsCase),
    ...loadEnron()
      .filter((r) => (EVAL_SPLIT === 'dev' ? r.split === 'train' && enronDev(r.id) : r.split === 'test'))
      .map(enronCase),
    // BANKING77, the alert rules and the bug trackers have no DEV side: `--dev` leaves them out.
    ...(EVAL_SPLIT === 'dev' ? [] : heldOutBusinessCases(tested)),
  ];
}

/** BANKING77, the held-out alert sources and the bug trackers' test projects. */
function heldOutBusinessCases(tested: string[]): Case[] {
  return [
    ...loadBanking77().map((row): Case => ({
      corpus: 'banking77',
      label: row.intent,
      signal: { workspace_id: 'eval', source: 'support_message', body: row.text, received_at: AT },
      now: FIXED_NOW,
    })),
    ...loadAlerts()
      .filter((r) => tested.includes(r.source))
      .map(alertCase),
    ...loadBugs()
      .filter((r) => r.split === 'test')
      .map(bugCase),
  ];
}

/** Scores the cases; `score` lets the eval use a fold's model (default: the shipped engine). */
export function scoreCases(
  cases: Case[],
  score: (c: Case) => Assessment = (c) => scoreSignal(c.signal, c.now),
): Scored[] {
  return cases.map((c) => {
    const assessment = score(c);
    return { ...c, assessment, right: isRight(c, assessment) };
  });
}
