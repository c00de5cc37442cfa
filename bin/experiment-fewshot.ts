// In-process few-shot experiments (issue 23, item 6): teaches label counts straight from sketches, with the same
// split as `npm run eval:learning` (every 5th data line of banking77-train.csv held out), so a trial takes seconds.
//   node --import tsx bin/experiment-fewshot.ts [--test] [--scorer=name,...] [--features=name,...]
// Without --test it tunes on a split of the teaching pool only (every 5th pool line is the dev set, the rest teaches);
// --test measures on the held-out 2,000 once. It also measures specificity in-process (the eval's set-up: 19 intents
// taught from one domain's senders, 798 signals of other corpora sent from that domain). No text is printed.
import { banking77Rows, categoryName, jsonl as jsonlRecords } from './data-splits';
import { halfSipKey } from '../lambdas/domain/learning/half-siphash';
import { type WorkspaceModel, countSketch, labelCounts } from '../lambdas/domain/learning/model';
import { predictField } from '../lambdas/domain/learning/predict';
import { type Sketch, sketchSignal } from '../lambdas/domain/learning/sketch';
import { BASE_FEATURES, BASE_SCORE, predictWith, sketcherWith } from './experiment-fewshot-variants';
import { mulberry32 as seededRandom } from './seeded-random';

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const TEST = process.argv.includes('--test');
const CURVE = [1, 2, 5, 10, 20, Infinity];

interface Example {
  text: string;
  category: string;
  sender?: string;
}

type Sketcher = (s: { subject?: string; body?: string; sender?: string }) => Sketch;
type Predict = (model: WorkspaceModel, sketch: Sketch) => string | undefined;

export function banking(): { teach: Example[]; evaluate: Example[] } {
  const rows = banking77Rows();
  const all = rows
    .filter((r) => r.length === 2 && r[0].trim())
    .map(([text, c]) => ({ text, category: categoryName(c) }));
  const heldOut = all.filter((_, i) => (i + 1) % 5 === 0);
  const pool = all.filter((_, i) => (i + 1) % 5 !== 0);
  if (TEST) return { teach: pool, evaluate: heldOut };
  return { teach: pool.filter((_, i) => (i + 1) % 5 !== 0), evaluate: pool.filter((_, i) => (i + 1) % 5 === 0) };
}

export const firstPer = (set: Example[], k: number) => {
  const n = new Map<string, number>();
  return set.filter((e) => {
    const c = n.get(e.category) ?? 0;
    n.set(e.category, c + 1);
    return c < k;
  });
};

export function teachModel(sketcher: Sketcher, set: Example[]): WorkspaceModel {
  const model: WorkspaceModel = { version: 0, labels: [] };
  const byLabel = new Map<string, ReturnType<typeof labelCounts>>();
  for (const e of set) {
    let counts = byLabel.get(e.category);
    if (!counts) {
      counts = labelCounts('category', e.category);
      byLabel.set(e.category, counts);
      model.labels.push(counts);
    }
    countSketch(counts, sketcher({ body: e.text, sender: e.sender }), 1);
    model.version++;
  }
  return model;
}

const jsonl = (file: string, n: number) => jsonlRecords(file).slice(0, n) as Record<string, string | null>[];

function otherCorpora(): { subject?: string; body: string }[] {
  return [
    ...jsonl('enron-berkeley.jsonl', 300).map((m) => ({ subject: m.subject ?? undefined, body: String(m.body ?? '') })),
    ...jsonl('alert-rules-dev.jsonl', 300).map((a) => ({
      subject: String(a.summary ?? a.name),
      body: String(a.description ?? ''),
    })),
    ...jsonl('bug-reports-dev.jsonl', 300).map((b) => ({
      subject: String(b.summary),
      body: String(b.description ?? ''),
    })),
  ].map((s) => ({ ...s, body: s.body.slice(0, 20_000) || '(empty)' }));
}

export interface Trial {
  name: string;
  sketcher: (key: ReturnType<typeof halfSipKey>) => Sketcher;
  predict: Predict;
}

export const baselineSketcher =
  (key: ReturnType<typeof halfSipKey>): Sketcher =>
  (s) =>
    sketchSignal(key, s);
export const baselinePredict: Predict = (model, sketch) => predictField(model, 'category', sketch)?.label;

export function runTrial(trial: Trial, seeds = 2): { curve: number[]; spillover: number; features: number } {
  const { teach, evaluate } = banking();
  const others = otherCorpora();
  const curve = CURVE.map(() => 0);
  let spill = 0;
  let features = 0;
  for (let seed = 1; seed <= seeds; seed++) {
    const random = seededRandom(seed * 7919);
    const key = halfSipKey(Uint8Array.from({ length: 8 }, () => Math.floor(random() * 256)));
    const sketcher = trial.sketcher(key);
    const evalSketches = evaluate.map((e) => sketcher({ body: e.text }));
    features += evalSketches.reduce((sum, s) => sum + s.t.length, 0) / evalSketches.length / seeds;
    CURVE.forEach((k, ci) => {
      const model = teachModel(sketcher, k === Infinity ? teach : firstPer(teach, k));
      let right = 0;
      evalSketches.forEach((s, i) => {
        if (trial.predict(model, s) === evaluate[i].category) right++;
      });
      curve[ci] += right / evaluate.length / seeds;
    });
    // Specificity: every 4th intent of the sorted names, from senders of one domain.
    const names = [...new Set(teach.map((e) => e.category))].sort();
    const taught = new Set(names.filter((_, i) => i % 4 === 0));
    const set = teach
      .filter((e) => taught.has(e.category))
      .map((e, i) => ({ ...e, sender: `customer${i % 50}@bank.example` }));
    const model = teachModel(sketcher, set);
    others.forEach((s, i) => {
      if (trial.predict(model, sketcher({ ...s, sender: `customer${i % 50}@bank.example` })) !== undefined) spill++;
    });
  }
  return { curve, spillover: spill / others.length / seeds, features };
}

export function report(name: string, r: { curve: number[]; spillover: number; features: number }): void {
  console.log(
    `${name.padEnd(34)} ${r.curve.map((a) => a.toFixed(3)).join(' / ')}   spill ${(100 * r.spillover).toFixed(2)}%   features ${r.features.toFixed(1)}`,
  );
}

if (require.main === module) {
  const trials: Record<string, Trial> = {
    baseline: { name: 'baseline', sketcher: baselineSketcher, predict: baselinePredict },
    format2: {
      name: 'format2',
      sketcher: (key) => (s) => sketchSignal({ ...key, format: 2 }, s),
      predict: baselinePredict,
    },
  };
  const extra = arg('json');
  if (extra) {
    // --json='[{"name":..,"features":{..},"score":{..}}]': variants over the base options.
    for (const v of JSON.parse(extra) as { name: string; features?: object; score?: object }[])
      trials[v.name] = {
        name: v.name,
        sketcher: sketcherWith({ ...BASE_FEATURES, ...v.features }),
        predict: predictWith({ ...BASE_SCORE, ...v.score }),
      };
  }
  for (const name of arg('only')?.split(',') ?? Object.keys(trials)) {
    const t0 = Date.now();
    report(`${name} (${TEST ? 'test' : 'dev'})`, runTrial(trials[name]));
    console.error(`  ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
}
