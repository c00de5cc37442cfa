// Measures the scorer on labeled real data and prints figures (not a test: nothing here fails).
//   npm run eval                  human-readable report
//   npm run --silent eval -- --json   exactly one JSON object on stdout
// Data: ../shared/data relative to the repository, or $SAS_DATA_DIR.
//  1. SMS Spam Collection, held-out split only (every 5th message; the spam model never saw it):
//     spam must be archived, ham must not. Each SMS is scored as a `support_message` with body = text.
//  2. Enron/Berkeley business e-mails: distribution of priorities, actions and categories overall
//     and per Berkeley genre label. Used as test input only; no message text is ever printed.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PRIORITIES, ACTIONS, type Assessment } from '../lambdas/domain/decision';
import { scoreSignal, MODEL_VERSION } from '../lambdas/domain/engine';
import type { Signal, Source } from '../lambdas/domain/signal';

const DATA_DIR = process.env.SAS_DATA_DIR ?? path.resolve(__dirname, '../../shared/data');
const JSON_OUT = process.argv.includes('--json');
/** A fixed analysis time for the SMS set (it has no timestamps), so runs are comparable. */
const SMS_NOW = new Date('2026-01-15T12:00:00Z');
/** The held-out split (the same rule is in bin/train-spam-model.ts): every 5th message, 1-based. */
const isTestLine = (index: number) => (index + 1) % 5 === 0;

interface ClassFigures {
  precision: number;
  recall: number;
  f1: number;
  support: number;
}

const round = (x: number, d = 4) => Math.round(x * 10 ** d) / 10 ** d;

function figures(tp: number, fp: number, fn: number): ClassFigures {
  const precision = tp + fp === 0 ? 0 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 0 : tp / (tp + fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision: round(precision), recall: round(recall), f1: round(f1), support: tp + fn };
}

function evalSms(source: Source) {
  const lines = readFileSync(path.join(DATA_DIR, 'sms-spam-collection.tsv'), 'utf8').split('\n').slice(1);
  let tp = 0; // spam archived
  let fp = 0; // ham archived
  let fn = 0; // spam not archived
  let tn = 0; // ham not archived
  let index = 0;
  const hamActions: Record<string, number> = {};
  for (const line of lines) {
    if (line.trim() === '') continue;
    const i = index++;
    if (!isTestLine(i)) continue;
    const tab = line.indexOf('\t');
    const spam = line.slice(0, tab) === 'spam';
    const body = line.slice(tab + 1);
    const signal: Signal =
      source === 'email'
        ? { workspace_id: 'eval', source, body, sender: 'someone@example.net', received_at: SMS_NOW.toISOString() }
        : { workspace_id: 'eval', source, body, received_at: SMS_NOW.toISOString() };
    const a = scoreSignal(signal, SMS_NOW);
    const archived = a.recommended_action === 'archive';
    if (spam && archived) tp++;
    else if (spam) fn++;
    else if (archived) fp++;
    else tn++;
    if (!spam) hamActions[a.recommended_action] = (hamActions[a.recommended_action] ?? 0) + 1;
  }
  const spamClass = figures(tp, fp, fn);
  const hamClass = figures(tn, fn, fp);
  return {
    source,
    test_messages: tp + fp + fn + tn,
    confusion: { spam_archived: tp, spam_kept: fn, ham_archived: fp, ham_kept: tn },
    spam_archive: spamClass,
    ham_not_archive: hamClass,
    macro_f1: round((spamClass.f1 + hamClass.f1) / 2),
    ham_actions: hamActions,
  };
}

interface EnronRow {
  id: string;
  subject: string | null;
  sender: string | null;
  received_at: string | null;
  body: string | null;
  label: string;
}

type Counts = Record<string, number>;
const inc = (c: Counts, k: string) => {
  c[k] = (c[k] ?? 0) + 1;
};

function evalEnron() {
  const rows = readFileSync(path.join(DATA_DIR, 'enron-berkeley.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as EnronRow);
  const overall = { priority: {} as Counts, action: {} as Counts, category: {} as Counts, queue: {} as Counts };
  const byLabel: Record<string, { n: number; priority: Counts; action: Counts; category: Counts }> = {};
  const reasonFreq: Counts = {};
  const scoreHist: Counts = {};
  let personalEscalated = 0;
  const inputs = rows.map((row) => {
    // Analysed five minutes after receipt: the archive's age says nothing about urgency.
    const received = row.received_at ?? '2001-06-01T12:00:00Z';
    const signal: Signal = { workspace_id: 'eval', source: 'email', received_at: received };
    if (row.subject) signal.subject = row.subject;
    if (row.body) signal.body = row.body;
    if (row.sender) signal.sender = row.sender;
    return { signal, now: new Date(Date.parse(received) + 5 * 60_000) };
  });
  const assessments: Assessment[] = inputs.map(({ signal, now }) => scoreSignal(signal, now));
  // Throughput on real bodies: a second, timed pass (the first one warmed up the JIT).
  const started = process.hrtime.bigint();
  for (const { signal, now } of inputs) scoreSignal(signal, now);
  const elapsedS = Number(process.hrtime.bigint() - started) / 1e9;
  const bodyChars = inputs.reduce((sum, { signal }) => sum + (signal.body?.length ?? 0), 0);
  rows.forEach((row, i) => {
    const a = assessments[i];
    const label = row.label.split(' ')[0];
    inc(overall.priority, a.priority);
    inc(overall.action, a.recommended_action);
    inc(overall.category, a.category);
    inc(overall.queue, a.queue);
    inc(scoreHist, `${Math.floor(a.score / 10) * 10}`);
    byLabel[label] ??= { n: 0, priority: {}, action: {}, category: {} };
    const b = byLabel[label];
    b.n++;
    inc(b.priority, a.priority);
    inc(b.action, a.recommended_action);
    inc(b.category, a.category);
    if ((label === '1.2' || label === '1.3') && a.recommended_action === 'escalate') personalEscalated++;
    for (const r of a.reasons) inc(reasonFreq, r.code);
  });
  return {
    messages: rows.length,
    archive_rate: round((overall.action.archive ?? 0) / rows.length),
    critical_rate: round((overall.priority.critical ?? 0) / rows.length),
    personal_escalated: personalEscalated,
    priority: overall.priority,
    action: overall.action,
    category: overall.category,
    queue: overall.queue,
    score_histogram: scoreHist,
    by_label: byLabel,
    reason_frequency: Object.fromEntries(Object.entries(reasonFreq).sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))),
    signals_per_second: Math.round(rows.length / elapsedS),
    avg_body_chars: Math.round(bodyChars / rows.length),
  };
}

const pct = (n: number, total: number) => `${((100 * n) / total).toFixed(1)}%`;

function fmtCounts(c: Counts, order: readonly string[] | null, total: number): string {
  const keys = order ? order.filter((k) => c[k]) : Object.keys(c).sort((a, b) => c[b] - c[a] || (a < b ? -1 : 1));
  return keys.map((k) => `${k} ${c[k]} (${pct(c[k], total)})`).join(', ');
}

function main() {
  const sms = evalSms('support_message');
  const smsAsEmail = evalSms('email');
  const enron = evalEnron();
  const result = {
    model_version: MODEL_VERSION,
    spam_archive_macro_f1: sms.macro_f1,
    spam_archive: sms.spam_archive,
    ham_not_archive: sms.ham_not_archive,
    sms_confusion: sms.confusion,
    sms_test_messages: sms.test_messages,
    sms_as_email_macro_f1: smsAsEmail.macro_f1,
    enron_messages: enron.messages,
    enron_archive_rate: enron.archive_rate,
    enron_critical_rate: enron.critical_rate,
    enron_personal_escalated: enron.personal_escalated,
    enron_priority_distribution: enron.priority,
    enron_action_distribution: enron.action,
    enron_category_distribution: enron.category,
    enron_queue_distribution: enron.queue,
    enron_score_histogram: enron.score_histogram,
    enron_by_label: enron.by_label,
    enron_reason_frequency: enron.reason_frequency,
    enron_signals_per_second: enron.signals_per_second,
    enron_avg_body_chars: enron.avg_body_chars,
  };
  if (JSON_OUT) {
    process.stdout.write(JSON.stringify(result) + '\n');
    return;
  }
  const line = (s = '') => console.log(s);
  line(`Scorer ${MODEL_VERSION}: evaluation on labeled data (${DATA_DIR})`);
  line();
  line(`SMS Spam Collection, held-out split (every 5th message): ${sms.test_messages} messages as support_message`);
  line('  class              precision  recall   F1      support');
  const row = (name: string, f: ClassFigures) =>
    line(`  ${name.padEnd(18)} ${f.precision.toFixed(4).padEnd(10)} ${f.recall.toFixed(4).padEnd(8)} ${f.f1.toFixed(4).padEnd(7)} ${f.support}`);
  row('spam -> archive', sms.spam_archive);
  row('ham -> not archive', sms.ham_not_archive);
  line(`  macro-F1 ${sms.macro_f1.toFixed(4)}   (goal >= 0.95)   confusion ${JSON.stringify(sms.confusion)}`);
  line(`  same split scored as source=email: macro-F1 ${smsAsEmail.macro_f1.toFixed(4)}`);
  line(`  actions on ham: ${fmtCounts(sms.ham_actions, ACTIONS, sms.confusion.ham_archived + sms.confusion.ham_kept)}`);
  line();
  line(`Enron/Berkeley business e-mail: ${enron.messages} messages as source=email (analysed 5 min after receipt)`);
  line(`  archive rate ${pct(enron.action.archive ?? 0, enron.messages)} (goal < 5%)   critical ${pct(enron.priority.critical ?? 0, enron.messages)}   personal (1.2/1.3) escalated: ${enron.personal_escalated}`);
  line(`  priority: ${fmtCounts(enron.priority, PRIORITIES, enron.messages)}`);
  line(`  action:   ${fmtCounts(enron.action, ACTIONS, enron.messages)}`);
  line(`  category: ${fmtCounts(enron.category, null, enron.messages)}`);
  line(`  queue:    ${fmtCounts(enron.queue, null, enron.messages)}`);
  line('  per Berkeley label:');
  for (const label of Object.keys(enron.by_label).sort()) {
    const b = enron.by_label[label];
    line(`    ${label} (${b.n}) priority: ${fmtCounts(b.priority, PRIORITIES, b.n)}`);
    line(`    ${' '.repeat(label.length + String(b.n).length + 3)} action:   ${fmtCounts(b.action, ACTIONS, b.n)}`);
    line(`    ${' '.repeat(label.length + String(b.n).length + 3)} category: ${fmtCounts(b.category, null, b.n)}`);
  }
  line(`  most frequent reasons: ${Object.entries(enron.reason_frequency).slice(0, 12).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  line(`  throughput on these real bodies (average ${enron.avg_body_chars.toLocaleString('en-US')} characters): ${enron.signals_per_second.toLocaleString('en-US')} signals/s`);
}

main();
