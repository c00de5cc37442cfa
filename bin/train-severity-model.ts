// Rebuilds lambdas/domain/engine/severity-model.json: two small logistic regressions (alerts, bug reports) over the
// rule reasons' codes and the hashed words of the text (lambdas/domain/engine/severity-model.ts), on the training side
// of bin/data-splits.ts only:
//   alert model   every alert rule of alert-rules-dev.jsonl (the eval measures fold models trained without the
//                 source it tests: kube-prometheus -> VictoriaMetrics and back)
//   bug model     TIMOB's reports only (the eval tests ALOY, MOD, DAEMON and SeaMonkey)
//   npx tsx bin/train-severity-model.ts
// Deterministic: same data, same file.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { severityFeatures } from '../lambdas/domain/engine';
import {
  SEVERITY_MODEL_FORMAT,
  SEVERITY_WORD_BITS,
  modelFromFile,
  type SeverityModel,
  type SeverityModelFile,
} from '../lambdas/domain/engine/severity-model';
import type { Signal } from '../lambdas/domain/signal';
import { BUG_LEVEL, loadAlerts, loadBugs, type AlertRow, type BugRow } from './data-splits';
import { alertSignal, bugSignal } from './eval/labeled';

const OUT = path.resolve(__dirname, '../lambdas/domain/engine/severity-model.json');
const SCALE = 20;
const KEEP_WORDS = 1500;
const EPOCHS = 200;
const STEP = 0.3;
/** L2 penalties, chosen by 2-fold cross-validation inside the training side (TIMOB for bugs). */
const L2 = 2;
const BUG_L2 = 20;
const NOW = new Date('2026-01-15T12:00:00Z');

/** Soft targets: the authors' severity as a share of the scale. */
export const ALERT_TARGET: Record<string, number> = { critical: 1, warning: 0.35, info: 0 };
export const bugTarget = (priority: string) => ((BUG_LEVEL[priority] ?? 3) - 1) / 4;

export interface SeverityExample {
  words: number[];
  codes: string[];
  target: number;
}

/** The features the engine reads for a signal: word buckets and the codes of the rules' reasons (no model). */
export function severityExample(signal: Signal, target: number): SeverityExample {
  return { ...severityFeatures(signal, NOW), target };
}

export const alertExample = (r: AlertRow) => severityExample(alertSignal(r), ALERT_TARGET[r.severity]);
export const bugExample = (r: BugRow) => severityExample(bugSignal(r), bugTarget(r.priority));

/** Full-batch Adagrad on the cross-entropy with soft targets plus L2; keeps the KEEP_WORDS strongest words. */
export function fitSeverity(
  rows: readonly SeverityExample[],
  trainedOn: string,
  l2 = L2,
  useWords = true,
): SeverityModelFile['models']['alert'] {
  const WORDS = 1 << SEVERITY_WORD_BITS;
  const codeIds = new Map<string, number>();
  for (const r of rows) for (const c of r.codes) if (!codeIds.has(c)) codeIds.set(c, WORDS + codeIds.size);
  const n = WORDS + codeIds.size;
  const feats = rows.map((r) => [...(useWords ? r.words : []), ...r.codes.map((c) => codeIds.get(c)!)]);
  const w = new Float64Array(n);
  const g = new Float64Array(n);
  const g2 = new Float64Array(n).fill(1e-8);
  let b = 0;
  let gb2 = 1e-8;
  const used = new Set<number>();
  for (const f of feats) for (const x of f) used.add(x);
  const usedList = [...used].sort((x, y) => x - y);
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    g.fill(0);
    let gb = 0;
    for (let i = 0; i < rows.length; i++) {
      let z = b;
      for (const x of feats[i]) z += w[x];
      const d = (1 / (1 + Math.exp(-z)) - rows[i].target) / rows.length;
      gb += d;
      for (const x of feats[i]) g[x] += d;
    }
    for (const x of usedList) {
      const gi = g[x] + (l2 * w[x]) / rows.length;
      g2[x] += gi * gi;
      w[x] -= (STEP * gi) / Math.sqrt(g2[x]);
    }
    gb2 += gb * gb;
    b -= (STEP * gb) / Math.sqrt(gb2);
  }
  const words = usedList
    .filter((x) => x < WORDS)
    .sort((x, y) => Math.abs(w[y]) - Math.abs(w[x]) || x - y)
    .slice(0, KEEP_WORDS)
    .sort((x, y) => x - y);
  const q = (v: number) => Math.round(v * SCALE);
  let previous = 0;
  const buckets = words.map((x) => {
    const d = x - previous;
    previous = x;
    return d;
  });
  const codes: Record<string, number> = {};
  for (const [c, id] of [...codeIds].sort((x, y) => (x[0] < y[0] ? -1 : 1))) if (q(w[id]) !== 0) codes[c] = q(w[id]);
  return { trained_on: trainedOn, bias: q(b), buckets, weights: words.map((x) => q(w[x])), codes };
}

/**
 * The alert model reads the rule reasons only: with about a hundred rules per source, word weights learned on one
 * source ordered the other's alerts no better than chance (fold rho about 0 against 0.2 for the codes), so they are
 * left out. The bug model reads words and codes (TIMOB's 4,049 reports; L2 chosen inside TIMOB).
 */
export const fitAlertModel = (rows: readonly SeverityExample[], trainedOn: string) =>
  fitSeverity(rows, trainedOn, L2, false);
export const fitBugModel = (rows: readonly SeverityExample[], trainedOn: string) =>
  fitSeverity(rows, trainedOn, BUG_L2, true);

export const severityModelOf = (m: SeverityModelFile['models']['alert']): SeverityModel => modelFromFile(m, SCALE);

if (require.main === module) {
  const alerts = loadAlerts().map(alertExample);
  const bugs = loadBugs()
    .filter((r) => r.split === 'train')
    .map(bugExample);
  const file: SeverityModelFile = {
    format: SEVERITY_MODEL_FORMAT,
    note: 'Hashed words and rule codes (see lambdas/domain/engine/severity-model.ts); rebuild with npx tsx bin/train-severity-model.ts',
    scale: SCALE,
    models: {
      alert: fitAlertModel(alerts, `alert-rules-dev.jsonl, all ${alerts.length} rules (rule codes only)`),
      bug: fitBugModel(bugs, `bug-reports-dev.jsonl, TIMOB's ${bugs.length} reports (train split)`),
    },
  };
  writeFileSync(OUT, `${JSON.stringify(file)}\n`);
  console.log(`wrote ${OUT}: ${JSON.stringify(file).length} bytes`);
}
