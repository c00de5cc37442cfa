// Fits the learned priority's constants (lambdas/domain/learning/learned-priority.ts, PRIORITY_FIT) on the TAUGHT
// halves only of the development alert sources and trackers (bin/eval/warm-sources.ts's seeded, label-stratified
// halves): each taught half is split again in two by the same recipe (seeds `inner` and `inner2`), one part teaching
// and the other decided, then back. No tested half is read, so `npm run eval`'s warm figures stay held out. A workspace holds
// only counts, never its examples, so it cannot fit these itself: they are constants, and this prints how stable they
// are when each source is left out of the choice (leave one source out).
//   npx tsx bin/fit-warm-priority.ts            the grid's best, the leave-one-source-out check
//   npx tsx bin/fit-warm-priority.ts --grid     and every point of the grid
import './lexicon-index-check';
import type { Priority } from '../lambdas/domain/decision';
import { backgroundPerFeature } from '../lambdas/domain/learning/background';
import { labelScores } from '../lambdas/domain/learning/predict';
import type { WorkspaceModel } from '../lambdas/domain/learning/model';
import { type SketchKey, sketchSignal } from '../lambdas/domain/learning/sketch';
import {
  PRIORITY_FIT,
  PRIORITY_LIKE_HISTORY,
  decidePriority,
  overridesGlobal,
  type PriorityFit,
} from '../lambdas/domain/learning/learned-priority';
import type { SeverityKind } from './severity-data';
import { decisionsByFold, type RankedDecision } from './severity-folds';
import { fnv1a } from './data-splits';
import { evalSketchKey, taughtModel, taughtPriority, warmHalves } from './eval/warm-sources';
import { auroc } from './eval/report';

/** One decided signal of an inner split: its taught priorities' scores (undefined: unlike what was taught). */
interface Inner {
  scores?: { label: string; text: number; docs: number }[];
  truth: Priority;
  global: Priority;
  common: Priority;
}

interface Source {
  name: string;
  rows: Inner[];
}

/** Two inner splits, each both ways: four decisions of every taught signal, so a choice rests on more than one split. */
const SEEDS = ['inner', 'inner2'];

/** The inner halves of a taught half: inside each label, by hash of `inner:` + id, every other one. */
function innerHalves<T extends { id: string; label: string }>(rows: readonly T[], seed: string): [T[], T[]] {
  const byLabel = new Map<string, T[]>();
  for (const r of rows) byLabel.set(r.label, [...(byLabel.get(r.label) ?? []), r]);
  const a: T[] = [];
  const b: T[] = [];
  for (const label of [...byLabel.keys()].sort())
    byLabel
      .get(label)!
      .sort((x, y) => fnv1a(`${seed}:${x.id}`) - fnv1a(`${seed}:${y.id}`) || (x.id < y.id ? -1 : 1))
      .forEach((r, i) => (i % 2 === 0 ? a : b).push(r));
  return [a, b];
}

/** Every inner split of a taught half as (teaching, decided) pairs: each seed's two halves, both ways. */
export const innerSplits = <T extends { id: string; label: string }>(taught: readonly T[]): [T[], T[]][] =>
  SEEDS.flatMap((seed): [T[], T[]][] => {
    const [a, b] = innerHalves(taught, seed);
    return [
      [a, b],
      [b, a],
    ];
  });

export const commonOf = (rows: readonly Pick<RankedDecision, 'level' | 'levels'>[]): Priority => {
  const counts = new Map<Priority, number>();
  for (const d of rows) counts.set(taughtPriority(d), (counts.get(taughtPriority(d)) ?? 0) + 1);
  return [...counts].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))[0][0];
};

/** One split of a development source: the model taught on one part, as the import route builds it, and the part decided. */
interface WarmSplit {
  key: SketchKey;
  model: WorkspaceModel;
  teach: RankedDecision[];
  decide: RankedDecision[];
}

/**
 * Per development source (alerts, then trackers), its splits: the inner splits of its taught half (keyed `inner:` +
 * source), or with `tested` its taught half against its tested half (the eval's split and key). `all` as
 * decisionsByFold gives the decisions, its confidence fold-calibrated or not.
 */
export function warmSplits(
  all: readonly RankedDecision[],
  tested: boolean,
): { kind: SeverityKind; group: string; splits: WarmSplit[] }[] {
  const out: { kind: SeverityKind; group: string; splits: WarmSplit[] }[] = [];
  for (const kind of ['alert', 'bug'] as const) {
    const mine = all.filter((d) => d.kind === kind);
    for (const group of [...new Set(mine.map((d) => d.group))]) {
      const halves = warmHalves(mine.filter((d) => d.group === group));
      const pairs: [RankedDecision[], RankedDecision[]][] = tested
        ? [[halves.taught, halves.tested]]
        : innerSplits(halves.taught);
      const key = evalSketchKey(tested ? group : `inner:${group}`);
      out.push({
        kind,
        group,
        splits: pairs.map(([teach, decide]) => ({ key, model: taughtModel(key, teach), teach, decide })),
      });
    }
  }
  return out;
}

function innerSources(): Source[] {
  return warmSplits(decisionsByFold(), false).map(({ kind, group, splits }) => ({
    name: `${kind} ${group}`,
    rows: splits.flatMap(({ key, model, teach, decide }) => {
      const common = commonOf(teach);
      return decide.map((d) => {
        const scores = labelScores(model, 'priority', sketchSignal(key, d.signal), PRIORITY_LIKE_HISTORY, () =>
          backgroundPerFeature(d.signal),
        );
        return {
          scores: scores?.map((x) => ({ label: x.label, text: x.text, docs: x.docs })),
          truth: taughtPriority(d),
          global: d.assessment.priority,
          common,
        };
      });
    }),
  }));
}

interface Score {
  /** Per source: exact minus always-the-most-common, over the inner signals the learned priority spoke on. */
  margins: number[];
  worst: number;
  below: number;
  mean: number;
  /** Log loss of the taught priority's chance, and AUROC of the decided one's chance, right vs wrong (pooled). */
  logLoss: number;
  auroc: number;
}

/**
 * What the learned priority decides on each inner signal like what was taught, against the inner constant answer.
 * Signals unlike it keep the global priority whatever the constants (docs/partners.md, "Importing your history, and
 * forgetting it"): left out, they would only add the same figure to every point of the grid.
 */
function judge(sources: readonly Source[], fit: PriorityFit): Score {
  const margins: number[] = [];
  let loss = 0;
  let spoken = 0;
  const judged: { confidence: number; right: boolean }[] = [];
  for (const s of sources) {
    let right = 0;
    let constant = 0;
    for (const r of s.rows) {
      const lp = r.scores && decidePriority(r.scores, fit);
      if (!lp) continue;
      const decided = overridesGlobal(lp, r.global) ? lp.label : r.global;
      if (decided === r.truth) right++;
      if (r.common === r.truth) constant++;
      loss -= Math.log(Math.max(1e-6, lp.chances[r.truth]));
      spoken++;
      judged.push({ confidence: lp.chances[decided], right: decided === r.truth });
    }
    margins.push((right - constant) / s.rows.length);
  }
  return {
    margins,
    worst: Math.min(...margins),
    below: margins.filter((m) => m < -1e-9).length,
    mean: margins.reduce((x, y) => x + y, 0) / margins.length,
    logLoss: loss / Math.max(1, spoken),
    auroc: auroc(judged),
  };
}

const TEMPERS = [0.005, 0.01, 0.02, 0.03, 0.05, 0.07, 0.1];
const HALVES = [0, 30, 100, 300, 1000, 3000];
const MARGINS = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1, 1.5, 2, 3, 4, 6];
const MARGIN_HALVES = [100, 300, 1000, 3000, Infinity];

/** Fewest sources below the constant answer, then the best worst margin, then the best mean. */
const better = (a: Score, b: Score) =>
  a.below !== b.below ? a.below < b.below : a.worst !== b.worst ? a.worst > b.worst : a.mean > b.mean;

/**
 * Two steps: the chances first (temper and half-say by the log loss of the taught priority: calibrated, and the
 * confidence), then the margin the decision needs over the most common priority and how fast it shrinks with the teaching (fewest sources below the constant
 * answer, then the worst, then the mean gain).
 */
function fitOn(sources: readonly Source[], print = false): { fit: PriorityFit; score: Score } {
  let chances: { fit: PriorityFit; loss: number } | undefined;
  for (const temper of TEMPERS)
    for (const teachingHalf of HALVES) {
      const fit = { temper, teachingHalf, margin: 0, marginHalf: Infinity };
      const loss = judge(sources, fit).logLoss;
      if (print) console.log(`  temper ${temper}, half-say at ${teachingHalf}: log loss ${r3(loss)}`);
      if (!chances || loss < chances.loss) chances = { fit, loss };
    }
  let top: { fit: PriorityFit; score: Score } | undefined;
  for (const marginHalf of MARGIN_HALVES)
    for (const margin of MARGINS) {
      const fit = { ...chances!.fit, margin, marginHalf };
      const score = judge(sources, fit);
      if (print) console.log(`  ${show(fit)}: ${describe(score)}`);
      if (!top || better(score, top.score)) top = { fit, score };
    }
  return top!;
}

const r3 = (x: number) => x.toFixed(3);
const show = (f: PriorityFit) =>
  `temper ${f.temper}, half-say at ${f.teachingHalf}, margin ${f.margin} halved at ${f.marginHalf}`;
const describe = (s: Score) =>
  `below the constant on ${s.below}, worst ${r3(s.worst)}, mean ${r3(s.mean)}, log loss ${r3(s.logLoss)}, AUROC ${r3(s.auroc)}`;

function main() {
  const sources = innerSources();
  const grid = process.argv.includes('--grid');
  console.log(`Inner splits of the taught halves, ${sources.length} sources${grid ? ': the grid' : ''}`);
  const { fit, score } = fitOn(sources, grid);
  console.log(`chosen: ${show(fit)}: ${describe(score)}`);
  const now = judge(sources, PRIORITY_FIT);
  console.log(`shipped (${show(PRIORITY_FIT)}): ${describe(now)}`);
  console.log('Leave one source out: the constants the other sources choose, and the left-out source with them');
  for (const [i, s] of sources.entries()) {
    const others = fitOn(sources.filter((_, j) => j !== i)).fit;
    const m = judge([s], others).margins[0];
    console.log(`  ${s.name.padEnd(46)} ${show(others).padEnd(44)} ${r3(m)} (shipped ${r3(now.margins[i])})`);
  }
}

if (require.main === module) main();
