// Learning's confidence (lambdas/domain/learning/confidence.ts) against a sketch format's predictions, in-process:
// teaches 10 per category and the whole teaching pool (the split of bin/experiment-fewshot.ts: the pool's own dev
// split without --test, the held-out 2,000 with it), prints the expected calibration error of today's constants and
// refits them (logistic regression of "right" on logit(share) and ln(corrections + 1)).
//   node --import tsx bin/experiment-fewshot-calibration.ts [--test] [--format=1|2]
import { halfSipKey } from '../lambdas/domain/learning/half-siphash';
import { learnedConfidence } from '../lambdas/domain/learning/confidence';
import { predictField } from '../lambdas/domain/learning/predict';
import { type SketchFormat, sketchSignal } from '../lambdas/domain/learning/sketch';
import { banking, firstPer, teachModel } from './experiment-fewshot';

const format = Number(process.argv.find((a) => a.startsWith('--format='))?.slice(9) ?? 2) as SketchFormat;
const key = { ...halfSipKey(Uint8Array.from([7, 1, 8, 2, 8, 1, 8, 2])), format };
const sketcher = (s: { body?: string; sender?: string }) => sketchSignal(key, s);
const { teach, evaluate } = banking();
interface Row {
  share: number;
  docs: number;
  right: number;
}
const sets: Row[][] = [];
for (const set of [firstPer(teach, 10), teach]) {
  const model = teachModel(sketcher, set);
  const rows: Row[] = [];
  for (const e of evaluate) {
    const p = predictField(model, 'category', sketcher({ body: e.text }));
    if (p) rows.push({ share: p.probability, docs: p.docs, right: p.label === e.category ? 1 : 0 });
  }
  sets.push(rows);
}

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
const features = (r: Row) => {
  const s = clamp(r.share, 0.001, 0.999);
  return [1, Math.log(s / (1 - s)), Math.log(r.docs + 1)];
};
function confidenceWith(w: number[], r: Row): number {
  const z = features(r).reduce((sum, x, i) => sum + x * w[i], 0);
  const c = Math.min(1 / (1 + Math.exp(-z)), r.docs / (r.docs + 1));
  return Math.round(clamp(c, 0.05, 0.99) * 100) / 100;
}
function ece(rows: Row[], conf: (r: Row) => number): number {
  const bins = Array.from({ length: 10 }, () => ({ n: 0, c: 0, a: 0 }));
  for (const r of rows) {
    const c = conf(r);
    const b = bins[Math.min(9, Math.floor(c * 10))];
    b.n++;
    b.c += c;
    b.a += r.right;
  }
  return bins.reduce((sum, b) => sum + (b.n ? Math.abs(b.c - b.a) : 0), 0) / rows.length;
}

// Both workspaces weigh the same, as the constants were first fitted.
const all = sets.flatMap((rows) => rows.map((r) => ({ r, w: 1 / rows.length })));
const w = [0, 0, 0];
// Newton's method: three weights, a 3 x 3 system per step.
for (let step = 0; step < 25; step++) {
  const g = [0, 0, 0];
  const h = [
    [1e-6, 0, 0],
    [0, 1e-6, 0],
    [0, 0, 1e-6],
  ];
  for (const { r, w: weight } of all) {
    const x = features(r);
    const p = 1 / (1 + Math.exp(-x.reduce((s, v, i) => s + v * w[i], 0)));
    for (let i = 0; i < 3; i++) {
      g[i] += weight * (p - r.right) * x[i];
      for (let j = 0; j < 3; j++) h[i][j] += weight * p * (1 - p) * x[i] * x[j];
    }
  }
  const d = solve3(h, g);
  for (let i = 0; i < 3; i++) w[i] -= d[i];
}
function solve3(a: number[][], b: number[]): number[] {
  const m = a.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < 3; c++) {
    const p = m[c][c];
    for (let r = 0; r < 3; r++) {
      if (r === c) continue;
      const f = m[r][c] / p;
      for (let k = c; k < 4; k++) m[r][k] -= f * m[c][k];
    }
  }
  return m.map((row, i) => row[3] / m[i][i]);
}
console.log(
  `format ${format}, refit: intercept ${w[0].toFixed(2)}, share ${w[1].toFixed(2)}, corrections ${w[2].toFixed(2)}`,
);
['10 per category', 'whole pool'].forEach((name, i) => {
  const rows = sets[i];
  const accuracy = rows.reduce((s, r) => s + r.right, 0) / rows.length;
  console.log(
    `${name}: ${rows.length} learned, accuracy ${accuracy.toFixed(3)}; ECE today ${ece(rows, (r) => learnedConfidence({ probability: r.share, docs: r.docs, format })).toFixed(3)}, refit ${ece(rows, (r) => confidenceWith(w, r)).toFixed(3)}`,
  );
});
