// The one fixed split of the labeled data, shared by the trainers and the eval: leave one corpus out, and for the
// SpamAssassin development file a later collection. Fixed before any tuning:
//   spamassassin-dev.jsonl   within each folder (spam-1, easy-ham-1, hard-ham-1), by message number: the first 55%
//                            train, the next 15% dev, the last 30% test (approximates a later collection).
//   sms-spam-collection.tsv  every 5th line (1-based) test; of the rest every 4th dev.
//   enron-berkeley.jsonl     FNV-1a hash of the id modulo 10: 0-5 train, 6-9 test. Held out whole, the spam model
//                            (SpamAssassin 2002 + SMS) archived 31% of it: business mail must be in its training
//                            data, so Enron is split by message rather than left out.
//   alert-rules-dev.jsonl    by source, both ways: kube-prometheus -> VictoriaMetrics and VictoriaMetrics ->
//                            kube-prometheus (the other sources train only). The shipped severity model trains on all.
//   bug-reports-dev.jsonl    train on TIMOB; test on ALOY, MOD, DAEMON and SeaMonkey.
//   banking77-train.csv      test only, as source support_message: real people asking for something, none is spam.
//   sms-thai.jsonl           (issue 31, fixed before any tuning) FNV-1a hash of the id modulo 5: 0 test, 1 dev, else
//                            train; the 645 rows flagged near_duplicate (one template, other codes) all train. Rows
//                            not flagged can still share a template with them: 36 test rows do (digits masked; the
//                            Thai figures are the same without them).
// SpamAssassin's own held-out part (spam-2, easy-ham-2, the rest of hard-ham-1) is not here and is never read.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { csvRecords } from '../lib/csv';
import { parseToolSettings } from '../lambdas/contract/settings';

export type Split = 'train' | 'dev' | 'test';

/** The shared data sets' folder, read from the environment when asked (importing this module reads nothing). */
export const dataDir = () => path.resolve(__dirname, '..', parseToolSettings(process.env).dataDir);

/** 32-bit FNV-1a over the UTF-16 code units: stable across machines and Node versions. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** 0-based index of a message among the SMS file's data lines. */
function splitOfSmsLine(index: number): Split {
  if ((index + 1) % 5 === 0) return 'test';
  return index % 4 === 3 ? 'dev' : 'train';
}

/** Position `rank` (0-based, by message number) of `total` messages in one SpamAssassin folder. */
function splitOfLaterPart(rank: number, total: number): Split {
  const share = rank / total;
  return share < 0.55 ? 'train' : share < 0.7 ? 'dev' : 'test';
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

export function jsonl(file: string): Record<string, unknown>[] {
  return readFileSync(path.join(dataDir(), file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const mailRow = (r: Record<string, unknown>, split: Split): MailRow => ({
  id: String(r.id),
  label: String(r.label),
  subject: str(r.subject),
  sender: str(r.sender),
  body: str(r.body) ?? '',
  received_at: str(r.received_at),
  split,
});

export function loadSpamAssassin(): MailRow[] {
  const rows = jsonl('spamassassin-dev.jsonl');
  const folderOf = (id: string) => id.slice(0, id.indexOf('/'));
  const numberOf = (id: string) => Number(id.slice(id.indexOf('/') + 1));
  const byFolder = new Map<string, number[]>();
  for (const r of rows) {
    const id = String(r.id);
    (byFolder.get(folderOf(id)) ?? byFolder.set(folderOf(id), []).get(folderOf(id))!).push(numberOf(id));
  }
  for (const list of byFolder.values()) list.sort((a, b) => a - b);
  return rows.map((r) => {
    const id = String(r.id);
    const list = byFolder.get(folderOf(id))!;
    return mailRow(r, splitOfLaterPart(list.indexOf(numberOf(id)), list.length));
  });
}

export const loadEnron = (): MailRow[] =>
  jsonl('enron-berkeley.jsonl').map((r) => mailRow(r, fnv1a(String(r.id)) % 10 < 6 ? 'train' : 'test'));

export interface SmsRow {
  spam: boolean;
  text: string;
  split: Split;
}

export function loadSms(): SmsRow[] {
  const out: SmsRow[] = [];
  let index = 0;
  for (const line of readFileSync(path.join(dataDir(), 'sms-spam-collection.tsv'), 'utf8').split('\n').slice(1)) {
    if (line.trim() === '') continue;
    const tab = line.indexOf('\t');
    out.push({ spam: line.slice(0, tab) === 'spam', text: line.slice(tab + 1), split: splitOfSmsLine(index++) });
  }
  return out;
}

interface ThaiRow {
  id: string;
  spam: boolean;
  text: string;
  split: Split;
}

function splitOfThai(id: string, nearDuplicate: boolean): Split {
  if (nearDuplicate) return 'train';
  const k = fnv1a(id) % 5;
  return k === 0 ? 'test' : k === 1 ? 'dev' : 'train';
}

export const loadThaiSms = (): ThaiRow[] =>
  jsonl('sms-thai.jsonl').map((r) => ({
    id: String(r.id),
    spam: r.label === 'spam',
    text: str(r.body) ?? '',
    split: splitOfThai(String(r.id), r.near_duplicate === true),
  }));

type AlertSeverity = 'critical' | 'warning' | 'info';
export interface AlertRow {
  id: string;
  name: string;
  summary: string;
  description: string;
  severity: AlertSeverity;
  /** Repository, without the commit: the unit the alert folds hold out. */
  source: string;
}
/** The two alert folds: train on one source, test on the other. */
export const ALERT_FOLDS = [
  { train: 'prometheus-operator/kube-prometheus', test: 'VictoriaMetrics/VictoriaMetrics' },
  { train: 'VictoriaMetrics/VictoriaMetrics', test: 'prometheus-operator/kube-prometheus' },
] as const;

export const loadAlerts = (): AlertRow[] =>
  jsonl('alert-rules-dev.jsonl').map((r) => ({
    id: String(r.id),
    name: str(r.name) ?? '',
    summary: str(r.summary) ?? '',
    description: str(r.description) ?? '',
    severity: String(r.severity) as AlertSeverity,
    source: String(r.source).split('@')[0],
  }));

export interface BugRow {
  id: string;
  project: string;
  priority: string;
  summary: string;
  description: string;
  split: Split;
}
export const BUG_TRAIN_PROJECT = 'TIMOB';
/** Tracker priority, 5 the most urgent: Jira's five names, Bugzilla's P1-P5. */
export const BUG_LEVEL: Record<string, number> = {
  Critical: 5,
  High: 4,
  Medium: 3,
  Low: 2,
  Trivial: 1,
  P1: 5,
  P2: 4,
  P3: 3,
  P4: 2,
  P5: 1,
};

export const loadBugs = (): BugRow[] =>
  jsonl('bug-reports-dev.jsonl').map((r) => ({
    id: String(r.id),
    project: String(r.project),
    priority: String(r.priority),
    summary: str(r.summary) ?? '',
    description: str(r.description) ?? '',
    split: r.project === BUG_TRAIN_PROJECT ? 'train' : 'test',
  }));

interface SupportRow {
  text: string;
  intent: string;
}
/** banking77-train.csv's data lines as [text, intent]. */
export const banking77Rows = (): string[][] =>
  csvRecords(readFileSync(path.join(dataDir(), 'banking77-train.csv'), 'utf8'));
export const loadBanking77 = (): SupportRow[] => banking77Rows().map(([text, intent]) => ({ text, intent }));

/** As the data README says a partner would: lower-case, drop what the name pattern does not allow. */
export const categoryName = (raw: string) => raw.toLowerCase().replace(/[^a-z0-9_]/g, '');

/** The splits, counted: printed by `npm run eval` and by running this file. */
export function describeSplits(): string[] {
  const count = <T>(rows: T[], key: (r: T) => string) => {
    const t: Record<string, number> = {};
    for (const r of rows) t[key(r)] = (t[key(r)] ?? 0) + 1;
    return Object.entries(t)
      .sort()
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
  };
  const alerts = loadAlerts();
  return [
    `SpamAssassin dev (later 30% by message number held out): ${count(loadSpamAssassin(), (r) => `${r.label}/${r.split}`)}`,
    `SMS (every 5th line test): ${count(loadSms(), (r) => `${r.spam ? 'spam' : 'ham'}/${r.split}`)}`,
    `Enron (by id hash): ${count(loadEnron(), (r) => r.split)}`,
    `Alerts (by source, both ways): ${count(alerts, (r) => r.source.split('/')[1])}`,
    `Bugs (train ${BUG_TRAIN_PROJECT}, test the others): ${count(loadBugs(), (r) => `${r.project}/${r.split}`)}`,
    `BANKING77 (all test, as support_message): ${loadBanking77().length}`,
    `Thai SMS (id hash, near-duplicates train): ${count(loadThaiSms(), (r) => `${r.spam ? 'spam' : 'ham'}/${r.split}`)}`,
  ];
}

if (require.main === module) for (const line of describeSplits()) console.log(line);
