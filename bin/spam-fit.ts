// The spam model's fit (bin/train-spam-model.ts): L2-regularized logistic regression by full-batch Adagrad over the
// examples of bin/spam-examples.ts, and its Platt calibration on log-odds the weights were not fitted on.
import { FEATURE_COUNT, WORD_BITS } from '../lambdas/domain/engine/spam-features';
import { SHIPPED, type Example, type FitOptions } from './spam-examples';

/** Word buckets seen in fewer training messages are not fitted. */
const MIN_DOCS = 2;
const EPOCHS = 300;
const STEP = 0.5;
export const SCALE = 20;
export const WORD_BUCKETS = 1 << WORD_BITS;

export interface Fitted {
  weights: Float64Array; // by feature id
  bias: number;
}

/** Full-batch Adagrad on the weighted log loss plus L2, over the features `allowed` marks. */
function fitOn(rows: Example[], allowed: Uint8Array, l2: number): Fitted {
  const w = new Float64Array(FEATURE_COUNT);
  const g2 = new Float64Array(FEATURE_COUNT).fill(1e-8);
  const g = new Float64Array(FEATURE_COUNT);
  let b = 0;
  let gb2 = 1e-8;
  const total = rows.reduce((s, e) => s + e.weight, 0);
  const used: number[] = [];
  for (let f = 0; f < FEATURE_COUNT; f++) if (allowed[f]) used.push(f);
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    g.fill(0);
    let gb = 0;
    for (const e of rows) {
      let z = b;
      for (const f of e.features) if (allowed[f]) z += w[f];
      const d = ((1 / (1 + Math.exp(-z)) - (e.spam ? 1 : 0)) * e.weight) / total;
      gb += d;
      for (const f of e.features) if (allowed[f]) g[f] += d;
    }
    for (const f of used) {
      const gi = g[f] + (l2 * w[f]) / total;
      g2[f] += gi * gi;
      w[f] -= (STEP * gi) / Math.sqrt(g2[f]);
    }
    gb2 += gb * gb;
    b -= (STEP * gb) / Math.sqrt(gb2);
  }
  return { weights: w, bias: b };
}

/** Fits on all features seen in MIN_DOCS messages, keeps the KEEP_WORDS strongest word buckets, refits on those. */
export function fit(rows: Example[], options: FitOptions = SHIPPED): Fitted {
  const docs = new Uint32Array(FEATURE_COUNT);
  for (const e of rows) for (const f of e.features) docs[f]++;
  const allowed = new Uint8Array(FEATURE_COUNT);
  for (let f = 0; f < FEATURE_COUNT; f++) if (docs[f] >= MIN_DOCS || f >= WORD_BUCKETS) allowed[f] = 1;
  const first = fitOn(rows, allowed, options.l2);
  const words: number[] = [];
  for (let f = 0; f < WORD_BUCKETS; f++) if (allowed[f]) words.push(f);
  words.sort((x, y) => Math.abs(first.weights[y]) - Math.abs(first.weights[x]) || x - y);
  const kept = new Uint8Array(FEATURE_COUNT);
  for (const f of words.slice(0, options.keepWords)) kept[f] = 1;
  for (let f = WORD_BUCKETS; f < FEATURE_COUNT; f++) kept[f] = 1;
  const second = fitOn(rows, kept, options.l2);
  // Quantized as shipped, so calibration and figures see the weights the service uses.
  for (let f = 0; f < FEATURE_COUNT; f++)
    second.weights[f] = kept[f] ? Math.round(second.weights[f] * SCALE) / SCALE : 0;
  second.bias = Math.round(second.bias * SCALE) / SCALE;
  return second;
}

export const logitOf = (m: Fitted, features: Int32Array) => {
  let z = m.bias;
  for (const f of features) z += m.weights[f];
  return z;
};
export const logit = (m: Fitted, e: Example) => logitOf(m, e.features);

/** Platt scaling by Newton's method on (a, b), with the usual smoothed targets. */
export function platt(zs: number[], labels: boolean[]): { a: number; b: number } {
  const pos = labels.filter(Boolean).length;
  const neg = labels.length - pos;
  const tPos = (pos + 1) / (pos + 2);
  const tNeg = 1 / (neg + 2);
  let a = 1;
  let b = 0;
  for (let it = 0; it < 100; it++) {
    let gA = 0,
      gB = 0,
      hAA = 1e-9,
      hAB = 0,
      hBB = 1e-9;
    for (let i = 0; i < zs.length; i++) {
      const p = 1 / (1 + Math.exp(-(a * zs[i] + b)));
      const d = p - (labels[i] ? tPos : tNeg);
      const s = p * (1 - p);
      gA += d * zs[i];
      gB += d;
      hAA += s * zs[i] * zs[i];
      hAB += s * zs[i];
      hBB += s;
    }
    const det = hAA * hBB - hAB * hAB;
    const dA = (hBB * gA - hAB * gB) / det;
    const dB = (hAA * gB - hAB * gA) / det;
    a -= dA;
    b -= dB;
    if (Math.abs(dA) + Math.abs(dB) < 1e-9) break;
  }
  return { a: Math.round(a * 1e5) / 1e5, b: Math.round(b * 1e4) / 1e4 };
}

/** Platt scaling on out-of-fold log-odds: each message scored by a model fitted without it (random folds). */
export function outOfFoldCalibration(
  rows: Example[],
  options: FitOptions,
  folds = 5,
): { a: number; b: number; scored: { e: Example; z: number }[] } {
  const scored: { e: Example; z: number }[] = [];
  for (let k = 0; k < folds; k++) {
    const m = fit(
      rows.filter((_, i) => i % folds !== k),
      options,
    );
    rows.forEach((e, i) => {
      if (i % folds === k) scored.push({ e, z: logit(m, e) });
    });
  }
  return {
    ...platt(
      scored.map((r) => r.z),
      scored.map((r) => r.e.spam),
    ),
    scored,
  };
}

/**
 * Platt scaling on later mail: a model fitted on the SpamAssassin messages before `from` (by message number) and
 * four fifths of the other corpora scores the SpamAssassin messages from `from` on and the other fifth. The log-odds
 * of mail later than a model's training mail are less sure than random folds make them look.
 */
export function laterMailCalibration(rows: Example[], from: number, options: FitOptions): { a: number; b: number } {
  const later = (e: Example, i: number) => (e.corpus === 'sa' ? e.order >= from : i % 5 === 0);
  const m = fit(
    rows.filter((e, i) => !later(e, i)),
    options,
  );
  const held = rows.filter(later);
  return platt(
    held.map((e) => logit(m, e)),
    held.map((e) => e.spam),
  );
}

export const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
