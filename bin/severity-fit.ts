// The severity model's fitter (bin/train-severity-model.ts, `npm run eval`'s folds): logistic regression with soft
// targets (the rank inside the source's vocabulary, 0 the least severe, 1 the most) over hashed word buckets and the
// rule reasons' codes, each source weighing the same (a row 1 / sqrt(its source's size), so a large tracker does not
// teach its habits alone). Full-batch Adagrad, deterministic.
import { SEVERITY_WORD_BITS } from '../lambdas/domain/engine/severity-model';
import type { CachedRow } from './severity-features-cache';

export interface Fitted {
  bias: number;
  words: Map<number, number>;
  codes: Map<string, number>;
}

export interface SevFitOptions {
  l2: number;
  epochs: number;
  step: number;
  useWords: boolean;
  /** Exponent of the source-size weight (0: every row alike; 1: every source alike). */
  sourcePower: number;
  /**
   * One intercept per source, fitted and then dropped: the words learn what orders rules inside a source, not which
   * source rates everything higher.
   */
  sourceBias: boolean;
  /** Hash bits of the word buckets (default SEVERITY_WORD_BITS). */
  bits?: number;
}

const target = (r: Pick<CachedRow, 'level' | 'levels'>) => (r.level - 1) / Math.max(1, r.levels - 1);

/** What the fitter reads of a row. */
export type FitRow = Pick<CachedRow, 'group' | 'level' | 'levels' | 'words' | 'codes'>;

export function fitRows(rows: readonly FitRow[], o: SevFitOptions): Fitted {
  const WORDS = 1 << (o.bits ?? SEVERITY_WORD_BITS);
  const codeIds = new Map<string, number>();
  for (const r of rows) for (const c of r.codes) if (!codeIds.has(c)) codeIds.set(c, WORDS + codeIds.size);
  const groupIds = new Map<string, number>();
  if (o.sourceBias)
    for (const r of rows) if (!groupIds.has(r.group)) groupIds.set(r.group, WORDS + codeIds.size + groupIds.size);
  const n = WORDS + codeIds.size + groupIds.size;
  const size = new Map<string, number>();
  for (const r of rows) size.set(r.group, (size.get(r.group) ?? 0) + 1);
  const weight = new Float64Array(rows.length);
  let wsum = 0;
  rows.forEach((r, i) => {
    weight[i] = Math.pow(size.get(r.group)!, -o.sourcePower);
    wsum += weight[i];
  });
  const start = new Int32Array(rows.length + 1);
  const flat: number[] = [];
  rows.forEach((r, i) => {
    start[i] = flat.length;
    if (o.useWords) for (const x of r.words) flat.push(x);
    for (const c of r.codes) flat.push(codeIds.get(c)!);
    if (o.sourceBias) flat.push(groupIds.get(r.group)!);
  });
  start[rows.length] = flat.length;
  const F = Int32Array.from(flat);
  const y = Float64Array.from(rows, target);
  const w = new Float64Array(n);
  const g = new Float64Array(n);
  const g2 = new Float64Array(n).fill(1e-8);
  const used = new Uint8Array(n);
  for (const x of F) used[x] = 1;
  const usedList = Int32Array.from([...used.keys()].filter((x) => used[x] === 1));
  let b = 0;
  let gb2 = 1e-8;
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    g.fill(0);
    let gb = 0;
    for (let i = 0; i < rows.length; i++) {
      let z = b;
      for (let j = start[i]; j < start[i + 1]; j++) z += w[F[j]];
      const d = ((1 / (1 + Math.exp(-z)) - y[i]) * weight[i]) / wsum;
      gb += d;
      for (let j = start[i]; j < start[i + 1]; j++) g[F[j]] += d;
    }
    for (const x of usedList) {
      const gi = g[x] + (x >= WORDS + codeIds.size ? 0 : (o.l2 * w[x]) / rows.length);
      g2[x] += gi * gi;
      w[x] -= (o.step * gi) / Math.sqrt(g2[x]);
    }
    gb2 += gb * gb;
    b -= (o.step * gb) / Math.sqrt(gb2);
  }
  const words = new Map<number, number>();
  for (const x of usedList) if (x < WORDS && w[x] !== 0) words.set(x, w[x]);
  const codes = new Map<string, number>();
  for (const [c, id] of codeIds) if (w[id] !== 0) codes.set(c, w[id]);
  return { bias: b, words, codes };
}

/** The model's log-odds for a row, minus its bias. */
export function logitOf(m: Fitted, r: Pick<CachedRow, 'words' | 'codes'>, useWords = true): number {
  let z = 0;
  if (useWords) for (const x of r.words) z += m.words.get(x) ?? 0;
  for (const c of r.codes) z += m.codes.get(c) ?? 0;
  return z;
}
