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
// First one ordinal model per ranked kind (alerts, tickets) of the author's label on the rules' and the severity
// model's points, from the same rows; then the logistic, which reads a ticket's chance of a fitting label from it.
// Last `ranked_task`, the confidence of a ticket the engine ranked: the share of ranked tickets whose band fits their
// priority on each development tracker (bin/severity-folds.ts: every tracker scored by a bug model that never saw it),
// averaged with each tracker weighing the same; `npm run eval` refits it without each tracker it reports.
// The file records the fingerprint of the engine's decisions it was fitted on (`fitted_with`,
// bin/confidence-fingerprint.ts); test/unit/confidence-model-fitted.test.ts fails when the engine's decisions move
// and the file is not refitted with them: the file is what this trainer writes, never edited by hand.
//   npx tsx bin/train-confidence.ts                 the whole refit (writes the file with fitted_with)
//   npx tsx bin/train-confidence.ts --ranked-task   ranked_task alone, the rest as checked in
//   npx tsx bin/train-confidence.ts --check         the whole refit compared with the file, nothing written (exit 1 if
//                                                   it differs)
import './lexicon-index-check';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { decisionFingerprint } from './confidence-fingerprint';
import { lastConfidenceInput, scoreSignal, type EngineModels } from '../lambdas/domain/engine';
import {
  CONFIDENCE_FEATURES,
  RANK_LEVELS,
  confidenceFeatures,
  rankedKind,
  rankedPoints,
  useConfidenceModel,
  type ConfidenceInput,
  type ConfidenceModel,
  type OrdinalModel,
  type RankedKind,
} from '../lambdas/domain/engine/confidence';
import {
  fnv1a,
  loadAlerts,
  loadBugs,
  loadEnron,
  loadSms,
  loadSpamAssassin,
  type AlertRow,
  type Split,
} from './data-splits';
import { shippedSeverityModels } from '../lambdas/domain/engine/severity-model';
import { decisionsByFold } from './severity-folds';
import { alertExample, bugExample, fitAlertBandModel, fitBugModel, severityModelOf } from './train-severity-model';
import {
  alertCase,
  bugCase,
  enronCase,
  isRight,
  smsCase,
  spamAssassinCase,
  webFormCase,
  type Case,
} from './eval/labeled';

const OUT = path.resolve(__dirname, '../lambdas/domain/engine/confidence-model.json');
const EPOCHS = 3000;
const STEP = 0.1;
const L2 = 1e-3;
const MONOTONE: ReadonlySet<string> = new Set(['margin', 'spam_certainty', 'strongest', 'reasons', 'band_distance']);

export interface Row {
  input: ConfidenceInput;
  y: number;
  w: number;
  /** The author's label as a rank (alerts 1-3, tickets 1-5). */
  level?: number;
}

function rowsOf(cases: Case[], models: EngineModels = {}): Row[] {
  const out: Row[] = [];
  for (const c of cases) {
    const a = scoreSignal(c.signal, c.now, models);
    out.push({ input: lastConfidenceInput(), y: isRight(c, a) ? 1 : 0, w: 1 / cases.length, level: c.level });
  }
  return out;
}

/**
 * Rows of each half (by id hash) scored with the models fitted on the other half: as a source or project the eval holds
 * out meets a model that never saw it, not the in-sample fit a model has on its own rows.
 */
function crossFitted<T extends { id: string }>(
  rows: readonly T[],
  toCase: (r: T) => Case,
  fit: (train: T[]) => EngineModels,
): Row[] {
  const out: Row[] = [];
  for (const k of [0, 1]) {
    const inFold = (r: T) => fnv1a(r.id) % 2 === k;
    const models = fit(rows.filter((r) => !inFold(r)));
    out.push(...rowsOf(rows.filter(inFold).map(toCase), models).map((row) => ({ ...row, w: row.w / 2 })));
  }
  return out;
}

/** Everything but the test split (Enron's and the bugs' other split is `train`). */
const trainingSide = <T extends { split: Split }>(rows: T[]) => rows.filter((r) => r.split !== 'test');

export function trainingRows(): Row[] {
  const spamAssassin = trainingSide(loadSpamAssassin());
  return [
    ...rowsOf(spamAssassin.map(spamAssassinCase)),
    ...rowsOf(spamAssassin.filter((r) => r.label === 'spam').map(webFormCase)),
    ...rowsOf(trainingSide(loadSms()).map(smsCase)),
    ...rowsOf(trainingSide(loadEnron()).map(enronCase)),
    // TIMOB's reports scored as the eval scores other projects: by a bug model not fitted on them.
    ...crossFitted(trainingSide(loadBugs()), bugCase, (train) => ({
      severity: {
        alert: shippedSeverityModels().alert,
        bug: severityModelOf(fitBugModel(train.map(bugExample), 'fold')),
      },
    })),
  ];
}

/**
 * Alert rules as training rows, cross-fitted (the eval fits one set per alert fold, without the source it tests),
 * scored by the alert band model alone: the confidence reads the evidence an alert's band was decided with, and the
 * words model only orders alerts inside it (lambdas/domain/engine/severity.ts, SeverityCall).
 */
export const crossFittedAlertRows = (alerts: readonly AlertRow[]): Row[] =>
  crossFitted(alerts, alertCase, (train) => ({
    severity: {
      alert: severityModelOf(fitAlertBandModel(train.map(alertExample), 'fold')),
      bug: shippedSeverityModels().bug,
    },
  }));

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));
const ORDINAL_L2 = 1e-3;

/**
 * Cumulative-logit regression of the author's label (1..k) on the rules' and the severity model's points, weighted
 * as the rows are: full-batch Adagrad on the log loss, thresholds kept in order.
 */
export function fitOrdinal(rows: readonly Row[], kind: RankedKind): OrdinalModel {
  const k = RANK_LEVELS[kind];
  const data = rows
    .filter((r) => r.level !== undefined && rankedKind(r.input) === kind)
    .map((r) => ({ ...rankedPoints(r.input.reasons), level: r.level!, w: r.w }));
  const total = data.reduce((s, r) => s + r.w, 0);
  // p = [rules, model, thresholds...]
  const p = [0, 0, ...Array.from({ length: k - 1 }, (_, i) => -1 + (2 * i) / Math.max(k - 2, 1))];
  const g2 = p.map(() => 1e-8);
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    const g = p.map(() => 0);
    for (const r of data) {
      const eta = p[0] * r.rules + p[1] * r.model;
      const hi = r.level < k ? sigmoid(p[1 + r.level] - eta) : 1;
      const lo = r.level > 1 ? sigmoid(p[r.level] - eta) : 0;
      const prob = Math.max(hi - lo, 1e-9);
      const fHi = r.level < k ? hi * (1 - hi) : 0;
      const fLo = r.level > 1 ? lo * (1 - lo) : 0;
      const d = r.w / total / prob; // d(-log prob) = -d(prob) / prob
      if (r.level < k) g[1 + r.level] -= d * fHi;
      if (r.level > 1) g[r.level] += d * fLo;
      const dEta = d * (fHi - fLo);
      g[0] += dEta * r.rules;
      g[1] += dEta * r.model;
    }
    g[0] += ORDINAL_L2 * p[0];
    g[1] += ORDINAL_L2 * p[1];
    for (let i = 0; i < p.length; i++) {
      g2[i] += g[i] * g[i];
      p[i] -= (STEP * g[i]) / Math.sqrt(g2[i]);
    }
    for (let i = 3; i < p.length; i++) p[i] = Math.max(p[i], p[i - 1] + 1e-3);
  }
  const r3 = (v: number) => Math.round(v * 1000) / 1000;
  return { rules: r3(p[0]), model: r3(p[1]), thresholds: p.slice(2).map(r3) };
}

/**
 * A ranked ticket's confidence: per tracker the share of its ranked tickets whose band fits the priority, averaged
 * over the trackers (but `except`, the one held out), each weighing the same: what a tracker not seen gets on average.
 */
export function unseenTrackerRate(
  decisions: readonly { kind: string; group: string; right: boolean; input: ConfidenceInput }[],
  except?: string,
): number {
  const byTracker = new Map<string, { right: number; n: number }>();
  for (const d of decisions) {
    if (d.kind !== 'bug' || d.group === except || rankedKind(d.input) !== 'task') continue;
    const t = byTracker.get(d.group) ?? { right: 0, n: 0 };
    t.n++;
    if (d.right) t.right++;
    byTracker.set(d.group, t);
  }
  let sum = 0;
  for (const t of byTracker.values()) sum += t.right / t.n;
  return Math.round((sum / byTracker.size) * 1000) / 1000;
}

/** The ordinal models, then full-batch Adagrad on the logistic's weighted log loss plus a little L2. */
export function fitConfidence(rows: readonly Row[], rankedTask: number): ConfidenceModel {
  const ordinal = { internal: fitOrdinal(rows, 'internal'), task: fitOrdinal(rows, 'task') };
  const xs = rows.map((r) => confidenceFeatures(r.input, ordinal));
  // Corpora weigh the same: a corpus's rows carry 1/size each (alert rows too).
  const n = CONFIDENCE_FEATURES.length;
  const w = new Array<number>(n).fill(0);
  const g2 = new Array<number>(n).fill(1e-8);
  const total = rows.reduce((s, r) => s + r.w, 0);
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    const g = new Array<number>(n).fill(0);
    for (let j = 0; j < rows.length; j++) {
      const x = xs[j];
      let z = 0;
      for (let i = 0; i < n; i++) z += w[i] * x[i];
      const d = ((sigmoid(z) - rows[j].y) * rows[j].w) / total;
      for (let i = 0; i < n; i++) g[i] += d * x[i];
    }
    for (let i = 0; i < n; i++) {
      const gi = g[i] + (i === 0 ? 0 : L2 * w[i]);
      g2[i] += gi * gi;
      w[i] -= (STEP * gi) / Math.sqrt(g2[i]);
      // More evidence never lowers confidence: these weights are kept at or above 0.
      if (MONOTONE.has(CONFIDENCE_FEATURES[i]) && w[i] < 0) w[i] = 0;
    }
  }
  return { weights: w.map((v) => Math.round(v * 1000) / 1000), ordinal, ranked_task: rankedTask };
}

const TRAINED_ON =
  'training side of bin/data-splits.ts: SpamAssassin train+dev (and its spam as support_message), SMS train+dev, Enron train, TIMOB, all alert rules (each corpus weighs the same); ranked_task: every development tracker (bin/severity-folds.ts), each weighing the same';

/** Which decisions the logistic was fitted on (the fingerprint of bin/confidence-fingerprint.ts). */
export interface Provenance {
  fitted_with: { decisions: string };
}

interface ModelFile extends ConfidenceModel, Provenance {
  features: string[];
  trained_on: string;
}

function write(m: ConfidenceModel, provenance: Provenance): void {
  const file: ModelFile = { features: [...CONFIDENCE_FEATURES], ...m, trained_on: TRAINED_ON, ...provenance };
  writeFileSync(OUT, `${JSON.stringify(file)}\n`);
}

/** The whole refit: the rows are the engine's decisions on the training side, scored as the eval scores them. */
function refit(): { rows: number; model: ConfidenceModel } {
  // The rows are read from the engine's decisions, which state a confidence: any weights do while the file is rebuilt.
  useConfidenceModel({
    weights: CONFIDENCE_FEATURES.map(() => 0),
    ordinal: {
      internal: { rules: 0, model: 0, thresholds: [0, 0] },
      task: { rules: 0, model: 0, thresholds: [0, 0, 0, 0] },
    },
    ranked_task: 0,
  });
  const rows = [...trainingRows(), ...crossFittedAlertRows(loadAlerts())];
  return { rows: rows.length, model: fitConfidence(rows, unseenTrackerRate(decisionsByFold())) };
}

const summary = (m: ConfidenceModel) =>
  `${CONFIDENCE_FEATURES.map((f, i) => `${f}=${m.weights[i]}`).join(' ')} ordinal ${JSON.stringify(m.ordinal)} ranked_task ${m.ranked_task}`;

if (require.main === module) {
  const shipped = JSON.parse(readFileSync(OUT, 'utf8')) as ModelFile;
  if (process.argv.includes('--ranked-task')) {
    // Refits ranked_task alone, keeping the logistic and the ordinal models of the checked-in file, and what it records
    // of the decisions they were fitted on (docs/decision-engine-confidence.md, "Confidence: reproducing the model").
    const { weights, ordinal, fitted_with } = shipped;
    // Whether a band fits does not read the confidence: any ranked_task does while it is refitted.
    useConfidenceModel({ weights, ordinal, ranked_task: 0 });
    const ranked_task = unseenTrackerRate(decisionsByFold());
    write({ weights, ordinal, ranked_task }, { fitted_with });
    console.log(`wrote ${OUT}: ranked_task ${ranked_task}, the rest as checked in`);
  } else if (process.argv.includes('--check')) {
    const { rows, model } = refit();
    const today = decisionFingerprint();
    const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
    const moved = (['weights', 'ordinal', 'ranked_task'] as const).filter((k) => !same(model[k], shipped[k]));
    console.log(`refit from ${rows} decisions: ${summary(model)}`);
    console.log(`decisions today ${today}; the file was fitted on ${shipped.fitted_with.decisions}`);
    if (moved.length === 0) console.log(`${OUT} reproduces`);
    else {
      console.log(`${OUT} does not reproduce: ${moved.join(', ')} differ`);
      process.exitCode = 1;
    }
  } else {
    const { rows, model } = refit();
    write(model, { fitted_with: { decisions: decisionFingerprint() } });
    console.log(`wrote ${OUT} from ${rows} decisions: ${summary(model)}`);
  }
}
