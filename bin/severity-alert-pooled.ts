// The alert severity model (docs/decision-engine-severity.md, "Severity across sources: a pooled alert model with
// words"): logistic regression over the hashed words (negated words read apart, template placeholders left out) and the
// rule reasons' codes of every rated alert rule of the development data (bin/severity-data.ts), each source weighing
// the same, one intercept per source while fitting (dropped after). bin/train-severity-model.ts ships it fitted on
// every source; the eval (bin/severity-folds.ts) and the confidence trainer fit it without the sources they test.
import { severityFeatures } from '../lambdas/domain/engine';
import {
  RULE_POINTS_UNIT,
  modelFromFile,
  type SeverityModel,
  type SeverityModelEntry,
  type WordReading,
} from '../lambdas/domain/engine/severity-model';
import { ALERT_NOW, loadRankedAlerts, rankedSignal } from './severity-data';
import { fitRows, type FitRow } from './severity-fit';

/** Chosen by bin/severity-words-check.ts (each held-out source's option chosen without it; the shipped one on all). */
export interface AlertFit {
  reading: WordReading;
  l2: number;
  perLogit: number;
  max: number;
  serious: 'none' | 'floor' | 'frozen';
  needsReason: boolean;
}
export const ALERT_FIT: AlertFit = {
  reading: { negated: 'drop', placeholders: 'drop' },
  l2: 480,
  perLogit: 60,
  max: 60,
  serious: 'frozen',
  needsReason: true,
};
/** At most this many words are kept, the strongest (the file's size; 1,825 as shipped: the rest round to 0). */
const KEEP_WORDS = 3000;
/** Weights per unit of log-odds in the file: a word's weight is small (L2 480), 1/20 would round most of them away. */
const SCALE = 400;
const q = (v: number) => Math.round(v * SCALE);

const rows = new Map<string, FitRow[]>();
/** Every rated alert rule as the model reads it (about 4 s: the engine scores each once). */
export function pooledAlertRows(reading: WordReading = ALERT_FIT.reading): readonly FitRow[] {
  const key = JSON.stringify(reading);
  if (!rows.has(key)) {
    const now = new Date(ALERT_NOW);
    rows.set(
      key,
      loadRankedAlerts().map((r) => ({
        group: r.group,
        level: r.level,
        levels: r.levels,
        ...severityFeatures(rankedSignal(r), now, reading),
      })),
    );
  }
  return rows.get(key)!;
}

/** The alert model fitted on every rated rule but those of the `without` sources (bin/severity-data.ts groups). */
export function fitPooledAlertModel(
  without: readonly string[],
  trainedOn: string,
  o: AlertFit = ALERT_FIT,
): SeverityModelEntry {
  const train = pooledAlertRows(o.reading).filter((r) => !without.includes(r.group));
  const m = fitRows(train, { l2: o.l2, epochs: 200, step: 0.3, useWords: true, sourcePower: 1, sourceBias: true });
  const kept = [...m.words]
    .filter(([, w]) => q(w) !== 0)
    .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]) || a[0] - b[0])
    .slice(0, KEEP_WORDS)
    .sort((a, b) => a[0] - b[0]);
  let previous = 0;
  const buckets = kept.map(([x]) => {
    const d = x - previous;
    previous = x;
    return d;
  });
  const codes: Record<string, number> = {};
  for (const [c, w] of [...m.codes].sort((a, b) => (a[0] < b[0] ? -1 : 1))) if (q(w) !== 0) codes[c] = q(w);
  return {
    trained_on: trainedOn,
    per_logit: o.perLogit,
    max: o.max,
    offset: 0,
    bias: q(m.bias),
    // Independent of the rules' points: they pass through, the model adds its own say.
    rules: q(RULE_POINTS_UNIT / o.perLogit),
    buckets,
    weights: kept.map(([, w]) => q(w)),
    codes,
    scale: SCALE,
    reading: o.reading,
    serious: o.serious,
    needs_reason: o.needsReason,
  };
}

const fitted = new Map<string, SeverityModel>();
/** The alert model without the `without` sources, fitted once per run. */
export function pooledAlertModelWithout(without: readonly string[]): SeverityModel {
  const key = [...without].sort().join('\n');
  if (!fitted.has(key)) fitted.set(key, modelFromFile(fitPooledAlertModel(without, `all but ${key}`), SCALE));
  return fitted.get(key)!;
}
