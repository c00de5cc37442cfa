// Rebuilds lambdas/domain/engine/severity-model.json: small logistic regressions (alerts, bug reports) over the
// rule reasons' codes and the hashed words of the text (lambdas/domain/engine/severity-model.ts):
//   alert model   every rated alert rule of every development source, words and codes (bin/severity-alert-pooled.ts;
//                 the eval measures fold models fitted without the source it tests): orders alerts inside their band
//   alert band    every alert rule of alert-rules-dev.jsonl, rule codes only (the eval measures fold models trained
//                 without the source it tests: kube-prometheus -> VictoriaMetrics and back): decides an alert's band
//   bug model     TIMOB's reports only (the eval tests ALOY, MOD, DAEMON and SeaMonkey)
//   npx tsx bin/train-severity-model.ts
// Deterministic: same data, same file.
import './lexicon-index-check';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { severityFeatures } from '../lambdas/domain/engine';
import { REASON_CODES } from '../lambdas/domain/engine/reason-codes';
import {
  RULE_POINTS_UNIT,
  SEVERITY_MODEL_FORMAT,
  SEVERITY_WORD_BITS,
  modelFromFile,
  type SeverityModel,
  type SeverityModelEntry,
  type SeverityModelFile,
} from '../lambdas/domain/engine/severity-model';
import type { Signal } from '../lambdas/domain/signal';
import { BUG_LEVEL, loadAlerts, loadBugs, type AlertRow, type BugRow } from './data-splits';
import { alertSignal, bugSignal } from './eval/labeled';
import { ALERT_FIT, fitPooledAlertModel, pooledAlertRows, type AlertFit } from './severity-alert-pooled';

const OUT = path.resolve(__dirname, '../lambdas/domain/engine/severity-model.json');
const SCALE = 20;
const KEEP_WORDS = 1500;
const EPOCHS = 200;
const STEP = 0.3;
/** L2 penalties, chosen by 2-fold cross-validation inside the training side (TIMOB for bugs). */
const ALERT_BAND_L2 = 2;
const BUG_L2 = 60;
const NOW = new Date('2026-01-15T12:00:00Z');

/** Soft targets: the authors' severity as a share of the scale. */
const ALERT_TARGET: Record<string, number> = { critical: 1, warning: 0.35, info: 0 };
const bugTarget = (priority: string) => ((BUG_LEVEL[priority] ?? 3) - 1) / 4;

interface SeverityExample {
  words: number[];
  codes: string[];
  /** The rule reasons' points the model may re-weigh (its `rules` feature reads them per RULE_POINTS_UNIT). */
  points: number;
  /** The points of stated serious problems: they pass through. */
  kept: number;
  target: number;
}

/** The features the engine reads for a signal: word buckets, the codes and points of the rules' reasons (no model). */
function severityExample(signal: Signal, target: number): SeverityExample {
  return { ...severityFeatures(signal, NOW), target };
}

export const alertExample = (r: AlertRow) => severityExample(alertSignal(r), ALERT_TARGET[r.severity]);
export const bugExample = (r: BugRow) => severityExample(bugSignal(r), bugTarget(r.priority));

interface FitOptions {
  l2: number;
  /** Read the words at all (else the rule codes alone). */
  useWords: boolean;
  /**
   * How the model meets the rules' points: `independent` is fitted without them and adds its log-odds to them,
   * `additive` is fitted with them as a fixed offset (weight RULE_POINTS_UNIT / perLogit) and adds to them,
   * `learned` weighs them as one more feature, `none` replaces them.
   */
  rules: 'independent' | 'additive' | 'learned' | 'none';
  perLogit: number;
  max: number;
  /** Points added to every text's say (SeverityModel.offset); 0 unless given. */
  offset?: number;
  /**
   * `learned` only: the rules' points keep at least this share of their pass-through weight (RULE_POINTS_UNIT /
   * perLogit), so the words can re-order texts the rules rate alike but cannot undo what the rules say.
   */
  rulesAtLeast?: number;
}

/** Full-batch Adagrad on the cross-entropy with soft targets plus L2; keeps the KEEP_WORDS strongest words. */
function fitSeverity(rows: readonly SeverityExample[], trainedOn: string, o: FitOptions): SeverityModelEntry {
  const WORDS = 1 << SEVERITY_WORD_BITS;
  const RULES = WORDS;
  const codeIds = new Map<string, number>();
  for (const r of rows) for (const c of r.codes) if (!codeIds.has(c)) codeIds.set(c, WORDS + 1 + codeIds.size);
  const n = WORDS + 1 + codeIds.size;
  const feats = rows.map((r) => [...(o.useWords ? r.words : []), ...r.codes.map((c) => codeIds.get(c)!)]);
  const xr = rows.map((r) => (o.rules === 'none' || o.rules === 'independent' ? 0 : r.points / RULE_POINTS_UNIT));
  const w = new Float64Array(n);
  const g = new Float64Array(n);
  const g2 = new Float64Array(n).fill(1e-8);
  let b = 0;
  let gb2 = 1e-8;
  if (o.rules === 'additive' || o.rules === 'independent') w[RULES] = RULE_POINTS_UNIT / o.perLogit;
  const used = new Set<number>();
  for (const f of feats) for (const x of f) used.add(x);
  if (o.rules === 'learned') used.add(RULES);
  const usedList = [...used].sort((x, y) => x - y);
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    g.fill(0);
    let gb = 0;
    for (let i = 0; i < rows.length; i++) {
      let z = b + w[RULES] * xr[i];
      for (const x of feats[i]) z += w[x];
      const d = (1 / (1 + Math.exp(-z)) - rows[i].target) / rows.length;
      gb += d;
      g[RULES] += d * xr[i];
      for (const x of feats[i]) g[x] += d;
    }
    for (const x of usedList) {
      // The rules' points are not penalized: they are the prior the words and codes correct.
      const gi = g[x] + (x === RULES ? 0 : (o.l2 * w[x]) / rows.length);
      g2[x] += gi * gi;
      w[x] -= (STEP * gi) / Math.sqrt(g2[x]);
    }
    if (o.rulesAtLeast !== undefined) w[RULES] = Math.max(w[RULES], (o.rulesAtLeast * RULE_POINTS_UNIT) / o.perLogit);
    gb2 += gb * gb;
    b -= (STEP * gb) / Math.sqrt(gb2);
  }
  const words = usedList
    .filter((x) => x < WORDS)
    .sort((x, y) => Math.abs(w[y]) - Math.abs(w[x]) || x - y)
    .slice(0, KEEP_WORDS)
    .filter((x) => q(w[x]) !== 0)
    .sort((x, y) => x - y);
  let previous = 0;
  const buckets = words.map((x) => {
    const d = x - previous;
    previous = x;
    return d;
  });
  const codes: Record<string, number> = {};
  for (const [c, id] of [...codeIds].sort((x, y) => (x[0] < y[0] ? -1 : 1))) if (q(w[id]) !== 0) codes[c] = q(w[id]);
  return {
    trained_on: trainedOn,
    per_logit: o.perLogit,
    max: o.max,
    offset: o.offset ?? 0,
    bias: q(b),
    rules: q(w[RULES]),
    buckets,
    weights: words.map((x) => q(w[x])),
    codes,
  };
}
const q = (v: number) => Math.round(v * SCALE);

/**
 * The options of the alert band model and the bug model: see docs/decision-engine-severity.md, "The severity model", for
 * how they were chosen.
 */
const ALERT_BAND_OPTIONS: FitOptions = {
  l2: ALERT_BAND_L2,
  useWords: false,
  rules: 'independent',
  perLogit: 20,
  max: 40,
};
const BUG_OPTIONS: FitOptions = {
  l2: BUG_L2,
  useWords: true,
  rules: 'learned',
  perLogit: 50,
  max: 60,
  rulesAtLeast: 1,
  // Where tickets fall against the shared bands (docs/decision-engine-experiments.md: a ticket mapping for band fit).
  offset: 0,
};

export const fitAlertBandModel = (rows: readonly SeverityExample[], trainedOn: string) =>
  fitSeverity(rows, trainedOn, ALERT_BAND_OPTIONS);
/** The alert band model fitted without the rules of `sources` (the eval's folds). */
export const alertBandModelWithout = (sources: readonly string[]): SeverityModel =>
  severityModelOf(
    fitAlertBandModel(
      loadAlerts()
        .filter((r) => !sources.includes(r.source))
        .map(alertExample),
      `all but ${sources.join(', ')}`,
    ),
  );
export const fitBugModel = (rows: readonly SeverityExample[], trainedOn: string) =>
  fitSeverity(rows, trainedOn, BUG_OPTIONS);

export const severityModelOf = (m: SeverityModelEntry): SeverityModel => modelFromFile(m, SCALE);

if (require.main === module) {
  const at = process.argv.indexOf('--alert');
  const alertOptions = at > 0 ? process.argv[at + 1] : undefined;
  const alerts = pooledAlertRows();
  const sources = new Set(alerts.map((r) => r.group)).size;
  const bandRules = loadAlerts().map(alertExample);
  const bugs = loadBugs()
    .filter((r) => r.split === 'train')
    .map(bugExample);
  const file: SeverityModelFile = {
    format: SEVERITY_MODEL_FORMAT,
    note: 'Hashed words and rule codes (see lambdas/domain/engine/severity-model.ts); rebuild with npx tsx bin/train-severity-model.ts',
    reason_codes: Object.keys(REASON_CODES).sort(),
    scale: SCALE,
    models: {
      alert: fitPooledAlertModel(
        [],
        `alert-rules-dev.jsonl and alert-rules-more.jsonl, all ${alerts.length} rated rules of ${sources} sources`,
        // `--alert '{...}'`: other options (bin/severity-behaviour-sweep.sh tries them against the behaviour tests).
        alertOptions ? { ...ALERT_FIT, ...(JSON.parse(alertOptions) as Partial<AlertFit>) } : ALERT_FIT,
      ),
      alert_band: fitAlertBandModel(
        bandRules,
        `alert-rules-dev.jsonl, all ${bandRules.length} rules (rule codes only)`,
      ),
      bug: fitBugModel(bugs, `bug-reports-dev.jsonl, TIMOB's ${bugs.length} reports (train split)`),
    },
  };
  writeFileSync(OUT, `${JSON.stringify(file)}\n`);
  console.log(`wrote ${OUT}: ${JSON.stringify(file).length} bytes`);
}
