// Small helpers shared by the eval sections: rounding, a figure printed beside its goal, calibration and rank figures.
import { mulberry32 } from '../seeded-random';

export const round = (x: number, d = 4) => Math.round(x * 10 ** d) / 10 ** d;

export interface Figure {
  name: string;
  value: number;
  goal: string;
  /** PASS/MISS; absent for context figures. */
  pass?: boolean;
}

/** A figure beside its goal; the goal's text ("0", "<= 0.01", ">= 0.95", "< 0") is also the check it passes. */
export function figure(name: string, value: number, goal: string): Figure {
  const [, op, bound] = /^(<=|>=|<)? ?(-?[\d.]+)$/.exec(goal) ?? [];
  const b = Number(bound);
  const checks: Record<string, boolean> = { '<=': value <= b, '>=': value >= b, '<': value < b, '=': value === b };
  return { name, value: round(value), goal, pass: bound === undefined ? undefined : checks[op ?? '='] };
}

export function printFigures(title: string, figures: Figure[]): void {
  console.log(title);
  for (const f of figures) {
    const verdict = f.pass === undefined ? '' : f.pass ? 'PASS' : 'MISS';
    console.log(`  ${f.name.padEnd(52)} ${String(f.value).padStart(8)}   ${f.goal.padEnd(26)} ${verdict}`);
  }
}

/** A decision's stated confidence, and whether the labels agree with it. */
export interface Judged {
  confidence: number;
  right: boolean;
}

/**
 * Reliability table: per confidence bucket (`lowerEdges` ascending from 0; the last bucket runs to 1), the decisions,
 * their mean confidence and the share the labels agree with; and the expected calibration error (the
 * decision-weighted mean gap between the two).
 */
export function reliabilityTable(judged: readonly Judged[], lowerEdges: readonly number[]) {
  const edges = [...lowerEdges, 1.0001];
  let gap = 0;
  const rows = lowerEdges.map((lo, i) => {
    const inBucket = judged.filter((j) => j.confidence >= lo && j.confidence < edges[i + 1]);
    const n = inBucket.length;
    const mean = inBucket.reduce((sum, j) => sum + j.confidence, 0) / Math.max(n, 1);
    const agree = inBucket.filter((j) => j.right).length / Math.max(n, 1);
    gap += n * Math.abs(mean - agree);
    return {
      bucket: `${lo.toFixed(1)}-${Math.min(edges[i + 1], 1).toFixed(1)}`,
      n,
      mean_confidence: round(mean, 3),
      agreement: round(agree, 3),
    };
  });
  return { rows, ece: round(gap / Math.max(judged.length, 1), 3) };
}

/**
 * The ECE a perfectly calibrated confidence shows on these decisions by chance alone: in seeded draws, each decision is
 * right with the probability it states, and the draws' ECE is read as `reliabilityTable` reads it (same bins). On a
 * few dozen decisions it is far above 0.08, so a source's ECE is judged beside it: above the 95th percentile, the
 * confidence is miscalibrated there beyond what its size explains. Deterministic.
 */
export function eceByChance(
  judged: readonly Judged[],
  lowerEdges: readonly number[],
  draws = 1000,
): { mean: number; p95: number } {
  const n = judged.length;
  if (n === 0) return { mean: 0, p95: 0 };
  const bin = judged.map((j) => {
    let b = 0;
    while (b + 1 < lowerEdges.length && j.confidence >= lowerEdges[b + 1]) b++;
    return b;
  });
  const stated = new Float64Array(lowerEdges.length);
  const size = new Float64Array(lowerEdges.length);
  judged.forEach((j, i) => {
    stated[bin[i]] += j.confidence;
    size[bin[i]] += 1;
  });
  const random = mulberry32(n);
  const eces: number[] = [];
  const right = new Float64Array(lowerEdges.length);
  for (let d = 0; d < draws; d++) {
    right.fill(0);
    for (let i = 0; i < n; i++) if (random() < judged[i].confidence) right[bin[i]] += 1;
    let gap = 0;
    for (let b = 0; b < lowerEdges.length; b++) gap += Math.abs(stated[b] - right[b]);
    eces.push(gap / n);
  }
  eces.sort((a, b) => a - b);
  return {
    mean: round(eces.reduce((s, e) => s + e, 0) / draws, 3),
    p95: round(eces[Math.floor(0.95 * draws)], 3),
  };
}

/** Ten equal confidence bins (0-0.1, ..., 0.9-1): the reliability table and ECE the issue asks for. */
export const TEN_BINS = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9] as const;

/** Area under the ROC curve of confidence separating right from wrong decisions (ties count half). */
export function auroc(judged: readonly Judged[]): number {
  const right = judged
    .filter((j) => j.right)
    .map((j) => j.confidence)
    .sort((a, b) => a - b);
  const wrong = judged
    .filter((j) => !j.right)
    .map((j) => j.confidence)
    .sort((a, b) => a - b);
  if (right.length === 0 || wrong.length === 0) return NaN;
  let wins = 0;
  let lo = 0;
  let hi = 0;
  for (const r of right) {
    while (lo < wrong.length && wrong[lo] < r) lo++;
    while (hi < wrong.length && wrong[hi] <= r) hi++;
    wins += lo + (hi - lo) / 2;
  }
  return wins / (right.length * wrong.length);
}

/** Spearman rank correlation (ties get their mean rank). */
export function spearman(xs: readonly number[], ys: readonly number[]): number {
  const ranks = (v: readonly number[]) => {
    const order = v.map((x, i) => [x, i] as const).sort((a, b) => a[0] - b[0]);
    const r = new Array<number>(v.length);
    for (let i = 0; i < order.length;) {
      let j = i;
      while (j + 1 < order.length && order[j + 1][0] === order[i][0]) j++;
      for (let k = i; k <= j; k++) r[order[k][1]] = (i + j) / 2 + 1;
      i = j + 1;
    }
    return r;
  };
  const rx = ranks(xs);
  const ry = ranks(ys);
  const n = xs.length;
  const mean = (n + 1) / 2;
  let sxy = 0,
    sxx = 0,
    syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (rx[i] - mean) * (ry[i] - mean);
    sxx += (rx[i] - mean) ** 2;
    syy += (ry[i] - mean) ** 2;
  }
  return sxx === 0 || syy === 0 ? 0 : sxy / Math.sqrt(sxx * syy);
}
