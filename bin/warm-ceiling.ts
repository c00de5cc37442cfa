// What a learner of a source's own labels could reach on the eval's warm split (issue 31): a measure of the data, not a
// model the service runs (docs/decision-engine-experiments.md, "Warm and cold: what any learner of the text reaches").
// Per development source, a multinomial logistic regression (L2) is fitted on the eval's taught half, its weight chosen
// on the inner splits of that half (bin/fit-warm-priority.ts), and decides the tested half: exact priority and rho
// beside the constant answer. The features are more than a workspace keeps: every word and word pair of the first
// 4,000 characters, unhashed, the subject's words marked. `--features=sketch` gives it the sketch's own 96 features
// (unhashed) instead; `--counts` adds naive Bayes over the same features, which counts alone allow; `--cold` scores
// each source by the regression fitted on the other sources of its kind (leave one source out).
//   npx tsx bin/warm-ceiling.ts [--features=words|sketch|sketch-all] [--counts] [--cold]
import './lexicon-index-check';
import type { Priority } from '../lambdas/domain/decision';
import { MAX_SKETCH_FEATURES, TEXT_BUCKETS } from '../lambdas/domain/learning/sketch';
import { commonOf, innerSplits } from './fit-warm-priority';
import { type RankedRow, loadRankedAlerts, loadRankedBugs } from './severity-data';
import { taughtPriority, warmHalves } from './eval/warm-sources';
import { spearman } from './eval/report';

const RANK: Record<Priority, number> = { low: 0, medium: 1, high: 2, critical: 3 };
const K = 4;
const WORD = /[\p{L}\p{N}_]+/gu;
const SKETCH_TOKEN = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

/** Every word and word pair of the first 4,000 characters, and the subject's words marked as such. */
function words(r: RankedRow): string[] {
  const w = `${r.subject}\n${r.body}`.toLowerCase().slice(0, 4_000).match(WORD) ?? [];
  const out = new Set<string>();
  w.forEach((x, i) => {
    out.add(x);
    if (i + 1 < w.length) out.add(`${x} ${w[i + 1]}`);
  });
  for (const x of r.subject.toLowerCase().match(WORD) ?? []) out.add(`S:${x}`);
  return [...out];
}

/** The sketch's features as lambdas/domain/learning/sketch.ts defines them (format 2), unhashed: the first `max`. */
function sketchFeatures(r: RankedRow, max: number): string[] {
  const text = [r.subject, r.body].filter((x) => x !== '').join('\n');
  const tokens = [...text.slice(0, 1_200).toLowerCase().matchAll(SKETCH_TOKEN)].map((m) => m[0].replace(/['’]/g, ''));
  const out = new Set<string>();
  const full = (f: string) => out.add(f).size >= max;
  for (let i = 0; i < tokens.length; i++) {
    const w = tokens[i];
    if (full(`w ${w}`) || (w.length > 4 && full(`p ${w.slice(0, 4)}`)) || (i > 0 && full(`b ${tokens[i - 1]} ${w}`)))
      break;
    const marked = [...`#${w}#`];
    let stop = false;
    for (let j = 0; j + 4 <= marked.length && !stop; j++) stop = full(`c ${marked.slice(j, j + 4).join('')}`);
    if (stop) break;
  }
  return [...out];
}

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const FEATURES = arg('features') ?? 'words';
const featuresOf: (r: RankedRow) => string[] =
  FEATURES === 'sketch'
    ? (r) => sketchFeatures(r, MAX_SKETCH_FEATURES)
    : FEATURES === 'sketch-all'
      ? (r) => sketchFeatures(r, Infinity)
      : words;

interface Example {
  f: number[];
  y: number;
}
const classOf = (r: RankedRow) => RANK[taughtPriority(r)];

function encode(rows: readonly RankedRow[], vocab: Map<string, number>, grow: boolean): Example[] {
  return rows.map((r) => {
    const f: number[] = [];
    for (const w of featuresOf(r)) {
      let id = vocab.get(w);
      if (id === undefined && grow) vocab.set(w, (id = vocab.size));
      if (id !== undefined) f.push(id);
    }
    return { f, y: classOf(r) };
  });
}

/** Class chances of a weight vector (per feature K weights, then K biases); classes never taught get none. */
function chances(W: Float64Array, dim: number, e: Example, taught: readonly boolean[]): number[] {
  const z = Array.from({ length: K }, (_, k) => {
    let s = W[dim * K + k];
    for (const j of e.f) s += W[j * K + k];
    return taught[k] ? s : -Infinity;
  });
  const top = Math.max(...z);
  const p = z.map((v) => Math.exp(v - top));
  const sum = p.reduce((a, b) => a + b, 0);
  return p.map((v) => v / sum);
}

/** Multinomial logistic regression with an L2 weight, full-batch AdaGrad (deterministic). */
function fitLogistic(ex: readonly Example[], dim: number, l2: number, taught: readonly boolean[]): Float64Array {
  const W = new Float64Array((dim + 1) * K);
  const G = new Float64Array(W.length).fill(1e-8);
  const grad = new Float64Array(W.length);
  for (let it = 0; it < 150; it++) {
    grad.fill(0);
    for (const e of ex) {
      const p = chances(W, dim, e, taught);
      for (let k = 0; k < K; k++) {
        const g = (p[k] - (e.y === k ? 1 : 0)) / ex.length;
        grad[dim * K + k] += g;
        for (const j of e.f) grad[j * K + k] += g;
      }
    }
    for (let i = 0; i < dim * K; i++) grad[i] += l2 * W[i];
    for (let i = 0; i < W.length; i++) {
      G[i] += grad[i] * grad[i];
      W[i] -= (0.5 * grad[i]) / Math.sqrt(G[i]);
    }
  }
  return W;
}

function logistic(train: readonly RankedRow[], test: readonly RankedRow[], l2: number): number[][] {
  const vocab = new Map<string, number>();
  const tr = encode(train, vocab, true);
  const taught = Array.from({ length: K }, (_, k) => tr.some((e) => e.y === k));
  const W = fitLogistic(tr, vocab.size, l2, taught);
  return encode(test, vocab, false).map((e) => chances(W, vocab.size, e, taught));
}

/**
 * Naive Bayes from counts only (what a workspace may keep): each class's log share of the teaching plus `temper` times
 * the mean log-likelihood per feature (smoothed by 0.1 over as many buckets as a sketch has); backs off to the most
 * common class unless another beats it by `margin` nats.
 */
function naiveBayes(train: readonly RankedRow[], test: readonly RankedRow[], temper: number, margin: number): number[] {
  const docs = [0, 0, 0, 0];
  const total = [0, 0, 0, 0];
  const counts = new Map<string, number[]>();
  for (const r of train) {
    const y = classOf(r);
    docs[y]++;
    for (const f of featuresOf(r)) {
      const c = counts.get(f) ?? [0, 0, 0, 0];
      counts.set(f, c);
      c[y]++;
      total[y]++;
    }
  }
  const live = [0, 1, 2, 3].filter((k) => docs[k] > 0);
  const common = RANK[commonOf(train)];
  return test.map((r) => {
    const f = featuresOf(r);
    const z = [-Infinity, -Infinity, -Infinity, -Infinity];
    for (const k of live) {
      let t = 0;
      for (const x of f) t += Math.log(((counts.get(x)?.[k] ?? 0) + 0.1) / (total[k] + 0.1 * TEXT_BUCKETS));
      z[k] = (temper * t) / Math.max(1, f.length) + Math.log((docs[k] + 0.5) / (train.length + 0.5 * live.length));
    }
    const best = live.reduce((a, k) => (z[k] > z[a] ? k : a), common);
    return z[best] - z[common] > margin ? best : common;
  });
}

const argmax = (p: readonly number[]) => p.reduce((b, v, i) => (v > p[b] ? i : b), 0);
const expectedRank = (p: readonly number[]) => p.reduce((s, v, k) => s + v * k, 0);
const L2 = [1e-2, 3e-3, 1e-3, 3e-4, 1e-4];
const NB = [
  { name: 'nb t5 m0', temper: 5, margin: 0 },
  { name: 'nb t3 m0.8', temper: 3, margin: 0.8 },
];
const fixed = (v: number) => (v >= 0 ? '+' : '') + v.toFixed(3);
const rows = [...loadRankedAlerts(), ...loadRankedBugs()];

function warm(): void {
  console.log(`Warm: learners of the taught half, on the tested half (features: ${FEATURES})`);
  const gains: Record<string, number[]> = { lr: [] };
  for (const kind of ['alert', 'bug'] as const) {
    const mine = rows.filter((r) => r.kind === kind);
    for (const group of [...new Set(mine.map((r) => r.group))]) {
      const { taught, tested } = warmHalves(mine.filter((r) => r.group === group));
      const truth = tested.map(classOf);
      const share = (pred: readonly number[]) => pred.filter((p, i) => p === truth[i]).length / truth.length;
      const common = RANK[commonOf(taught)];
      const constant = share(truth.map(() => common));
      // The weight that decides the inner splits best (their decisions pooled), never the tested half.
      let l2 = L2[0];
      let bestInner = -1;
      const pairs = innerSplits(taught);
      for (const w of L2) {
        const right = pairs.reduce(
          (n, [teach, decide]) =>
            n + logistic(teach, decide, w).filter((p, i) => argmax(p) === classOf(decide[i])).length,
          0,
        );
        if (right > bestInner) [bestInner, l2] = [right, w];
      }
      const p = logistic(taught, tested, l2);
      const exact = share(p.map(argmax));
      const rho = spearman(
        p.map(expectedRank),
        tested.map((r) => r.level),
      );
      gains.lr.push(exact - constant);
      let line = `  ${kind.padEnd(5)} ${group.padEnd(40)} taught ${String(taught.length).padStart(4)}  constant ${constant.toFixed(3)}  logistic exact ${exact.toFixed(3)} (${fixed(exact - constant)}) rho ${rho.toFixed(3)} (l2 ${l2})`;
      if (process.argv.includes('--counts'))
        for (const nb of NB) {
          const e = share(naiveBayes(taught, tested, nb.temper, nb.margin));
          (gains[nb.name] ??= []).push(e - constant);
          line += `  ${nb.name} ${e.toFixed(3)} (${fixed(e - constant)})`;
        }
      console.log(line);
    }
  }
  for (const [name, g] of Object.entries(gains))
    console.log(
      `  ${name}: exact minus the constant, mean ${fixed(g.reduce((a, b) => a + b, 0) / g.length)}, worst ${fixed(Math.min(...g))}, sources below ${g.filter((v) => v < 0).length} of ${g.length}`,
    );
}

function cold(): void {
  console.log(`Cold: the logistic regression fitted on the other sources of the kind (features: ${FEATURES}, l2 1e-3)`);
  for (const kind of ['alert', 'bug'] as const) {
    const mine = rows.filter((r) => r.kind === kind);
    for (const group of [...new Set(mine.map((r) => r.group))]) {
      const test = mine.filter((r) => r.group === group);
      const p = logistic(
        mine.filter((r) => r.group !== group),
        test,
        1e-3,
      );
      const rho = spearman(
        p.map(expectedRank),
        test.map((r) => r.level),
      );
      console.log(
        `  ${kind.padEnd(5)} ${group.padEnd(40)} n ${String(test.length).padStart(5)}  rho ${rho.toFixed(3)}`,
      );
    }
  }
}

if (process.argv.includes('--cold')) cold();
else warm();
