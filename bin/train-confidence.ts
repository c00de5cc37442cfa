// Rebuilds lambdas/domain/engine/confidence-model.json: logistic regression of "a careful reviewer keeps this
// decision" on the features of lambdas/domain/engine/confidence.ts, over the training side of bin/data-splits.ts only:
//   SpamAssassin train + dev (email) and SMS train + dev (support_message): kept = archived exactly when spam
//   SpamAssassin train + dev spam as a web form sends it (support_message): kept = archived
//   Enron train (email): kept = not archived
//   TIMOB bug reports (task): kept = the priority band fits the tracker priority (as bin/eval/labeled.ts defines it),
//     each half scored by a bug model fitted on the other half (as other projects meet the shipped model)
//   alert rules (internal): kept = the priority band fits the author's severity, each half scored by an alert model
//     fitted on the other half; `npm run eval` fits one per alert fold without the source it tests. Each corpus weighs
//     the same in total.
//   npx tsx bin/train-confidence.ts
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { lastConfidenceInput, scoreSignal, type EngineModels } from '../lambdas/domain/engine';
import { CONFIDENCE_FEATURES, confidenceFeatures, useConfidenceWeights } from '../lambdas/domain/engine/confidence';
import type { Signal } from '../lambdas/domain/signal';
import {
  BUG_LEVEL,
  fnv1a,
  loadAlerts,
  loadBugs,
  loadEnron,
  loadSms,
  loadSpamAssassin,
  type AlertRow,
} from './data-splits';
import { shippedSeverityModels } from '../lambdas/domain/engine/severity-model';
import { alertExample, bugExample, fitAlertModel, fitBugModel, severityModelOf } from './train-severity-model';
import { ALERT_LEVEL, FIXED_NOW, alertSignal, bugSignal, isRight, mailSignal, type Case } from './eval/labeled';

const OUT = path.resolve(__dirname, '../lambdas/domain/engine/confidence-model.json');
const EPOCHS = 3000;
const STEP = 0.1;
const L2 = 1e-3;
const MONOTONE: ReadonlySet<string> = new Set(['margin', 'spam_certainty', 'strongest', 'reasons', 'band_distance']);

interface Row {
  x: number[];
  y: number;
  w: number;
}

function rowsOf(cases: Case[], models: EngineModels = {}): Row[] {
  const out: Row[] = [];
  for (const c of cases) {
    const a = scoreSignal(c.signal, c.now, models);
    out.push({ x: confidenceFeatures(lastConfidenceInput()), y: isRight(c, a) ? 1 : 0, w: 1 / cases.length });
  }
  return out;
}

export function trainingRows(): Row[] {
  const at = FIXED_NOW.toISOString();
  const sa: Case[] = loadSpamAssassin()
    .filter((r) => r.split !== 'test')
    .map((r) => ({ corpus: 'spamassassin', label: r.label, signal: mailSignal(r, at), now: FIXED_NOW }));
  // The same training spam as a web form sends it (support_message, subject and body, no sender), as the eval does.
  const webForm: Case[] = loadSpamAssassin()
    .filter((r) => r.split !== 'test' && r.label === 'spam')
    .map((r) => {
      const signal: Signal = { workspace_id: 'train', source: 'support_message', received_at: at, body: r.body };
      if (r.subject) signal.subject = r.subject;
      return { corpus: 'web-form spam', label: 'spam', signal, now: FIXED_NOW };
    });
  const sms: Case[] = loadSms()
    .filter((r) => r.split !== 'test')
    .map((r) => ({
      corpus: 'sms',
      label: r.spam ? 'spam' : 'ham',
      signal: { workspace_id: 'train', source: 'support_message', body: r.text, received_at: at },
      now: FIXED_NOW,
    }));
  const enron: Case[] = loadEnron()
    .filter((r) => r.split === 'train')
    .map((r) => {
      const received = r.received_at ?? '2001-06-01T12:00:00Z';
      return {
        corpus: 'enron',
        label: r.label,
        signal: mailSignal(r, received),
        now: new Date(Date.parse(received) + 5 * 60_000),
      };
    });
  // TIMOB's reports scored as the eval scores other projects: by a bug model not fitted on them (2 folds by id hash).
  const timob = loadBugs().filter((r) => r.split === 'train');
  const bugRows: Row[] = [];
  for (const k of [0, 1]) {
    const inFold = (id: string) => fnv1a(id) % 2 === k;
    const bug = severityModelOf(fitBugModel(timob.filter((r) => !inFold(r.id)).map(bugExample), 'fold'));
    const cases: Case[] = timob
      .filter((r) => inFold(r.id))
      .map((r) => ({
        corpus: 'bugs',
        label: r.priority,
        level: BUG_LEVEL[r.priority],
        signal: bugSignal(r),
        now: FIXED_NOW,
      }));
    bugRows.push(
      ...rowsOf(cases, { severity: { alert: shippedSeverityModels().alert, bug } }).map((row) => ({
        ...row,
        w: row.w / 2,
      })),
    );
  }
  return [...rowsOf(sa), ...rowsOf(webForm), ...rowsOf(sms), ...rowsOf(enron), ...bugRows];
}

/** Alert rules as training rows, scored with `models` (the fold's severity model in the eval). */
export const alertRows = (alerts: readonly AlertRow[], models: EngineModels = {}): Row[] =>
  rowsOf(
    alerts.map((r) => ({
      corpus: 'alerts',
      label: r.severity,
      level: ALERT_LEVEL[r.severity],
      signal: alertSignal(r),
      now: FIXED_NOW,
    })),
    models,
  );

/**
 * Alert rules as training rows, each half (by id hash) scored by an alert model fitted on the other half: as a source
 * the eval holds out meets a model that never saw it, not the in-sample fit a model has on its own rules.
 */
export function crossFittedAlertRows(alerts: readonly AlertRow[]): Row[] {
  const out: Row[] = [];
  for (const k of [0, 1]) {
    const inFold = (r: AlertRow) => fnv1a(r.id) % 2 === k;
    const alert = severityModelOf(fitAlertModel(alerts.filter((r) => !inFold(r)).map(alertExample), 'fold'));
    out.push(
      ...alertRows(alerts.filter(inFold), { severity: { alert, bug: shippedSeverityModels().bug } }).map((row) => ({
        ...row,
        w: row.w / 2,
      })),
    );
  }
  return out;
}

/** Full-batch Adagrad on the weighted log loss plus a little L2. */
export function fitConfidence(rows: readonly Row[]): number[] {
  // Corpora weigh the same: a corpus's rows carry 1/size each (alert rows too).
  const n = CONFIDENCE_FEATURES.length;
  const w = new Array<number>(n).fill(0);
  const g2 = new Array<number>(n).fill(1e-8);
  const total = rows.reduce((s, r) => s + r.w, 0);
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    const g = new Array<number>(n).fill(0);
    for (const r of rows) {
      let z = 0;
      for (let i = 0; i < n; i++) z += w[i] * r.x[i];
      const d = ((1 / (1 + Math.exp(-z)) - r.y) * r.w) / total;
      for (let i = 0; i < n; i++) g[i] += d * r.x[i];
    }
    for (let i = 0; i < n; i++) {
      const gi = g[i] + (i === 0 ? 0 : L2 * w[i]);
      g2[i] += gi * gi;
      w[i] -= (STEP * gi) / Math.sqrt(g2[i]);
      // More evidence never lowers confidence: these weights are kept at or above 0.
      if (MONOTONE.has(CONFIDENCE_FEATURES[i]) && w[i] < 0) w[i] = 0;
    }
  }
  return w.map((v) => Math.round(v * 1000) / 1000);
}

if (require.main === module) {
  // The rows are read from the engine's decisions, which state a confidence: any weights do while the file is rebuilt.
  useConfidenceWeights(CONFIDENCE_FEATURES.map(() => 0));
  const rows = [...trainingRows(), ...crossFittedAlertRows(loadAlerts())];
  const weights = fitConfidence(rows);
  const file = {
    features: [...CONFIDENCE_FEATURES],
    weights,
    trained_on:
      'training side of bin/data-splits.ts: SpamAssassin train+dev (and its spam as support_message), SMS train+dev, Enron train, TIMOB, all alert rules (each corpus weighs the same)',
  };
  writeFileSync(OUT, `${JSON.stringify(file)}\n`);
  console.log(
    `wrote ${OUT} from ${rows.length} decisions: ${CONFIDENCE_FEATURES.map((f, i) => `${f}=${weights[i]}`).join(' ')}`,
  );
}
