// Fits where a learned priority puts the score inside its band (lambdas/domain/learning/learned-priority.ts,
// PRIORITY_ORDER), on the TAUGHT halves only (bin/fit-warm-priority.ts's inner splits, each both ways): the band is
// decided as before, so exact priority and confidence do not move; only the order of signals inside a band does, which
// is what rho reads. Each candidate is judged by the mean over the sources of rho(score, author's level) on the inner
// splits, the worst source beside it; the tested halves are printed after the choice, never used for it.
//   npx tsx bin/fit-warm-order.ts
import './lexicon-index-check';
import type { Priority } from '../lambdas/domain/decision';
import {
  type BandOrder,
  type LearnedPriority,
  PRIORITY_ORDER,
  learnedPriority,
  scoreInBand,
} from '../lambdas/domain/learning/learned-priority';
import { sketchSignal } from '../lambdas/domain/learning/sketch';
import { EMPTY_POLICY, bandOf, compilePolicy, priorityFor } from '../lambdas/domain/policy';
import { decisionsByFold } from './severity-folds';
import { warmSplits } from './fit-warm-priority';
import { spearman } from './eval/report';

const T = compilePolicy(EMPTY_POLICY).thresholds;
const RANK: Record<Priority, number> = { low: 0, medium: 1, high: 2, critical: 3 };

/** A placement: the warm score from the learned priority (undefined: unlike the history) and the global score. */
type Placement = (lp: LearnedPriority | undefined, global: number) => number;

/** Version 4's first placement (kept here to compare): only a signal moved to another band, by its expected rank. */
const movedByRank: Placement = (lp, g) => {
  if (!lp || lp.label === priorityFor(g, T)) return g;
  const [lo, hi] = bandOf(lp.label, T);
  return Math.round(lo + Math.max(0, Math.min(1, lp.rank - RANK[lp.label] + 0.5)) * (hi - lo));
};
const placed =
  (order: BandOrder): Placement =>
  (lp, g) =>
    lp ? scoreInBand(lp, bandOf(lp.label, T), g, order) : g;

/** One decided signal of a split: its learned priority (decided once), global score and author's level. */
interface Decided {
  lp: LearnedPriority | undefined;
  global: number;
  level: number;
}
interface Source {
  name: string;
  splits: Decided[][];
}

/** Per source, the mean rho of its splits under a placement. */
function rhoOf(s: Source, place: Placement): number {
  let sum = 0;
  for (const split of s.splits)
    sum += spearman(
      split.map((d) => place(d.lp, d.global)),
      split.map((d) => d.level),
    );
  return sum / s.splits.length;
}

function sources(tested: boolean): Source[] {
  return warmSplits(decisionsByFold(), tested).map(({ kind, group, splits }) => ({
    name: `${kind} ${group}`,
    splits: splits.map(({ key, model, decide }) =>
      decide.map((d) => ({
        lp: learnedPriority(model, sketchSignal(key, d.signal), d.signal),
        global: d.assessment.score,
        level: d.level,
      })),
    ),
  }));
}

const summary = (rhos: readonly number[]) =>
  `mean ${(rhos.reduce((a, b) => a + b, 0) / rhos.length).toFixed(3)}, worst ${Math.min(...rhos).toFixed(3)}`;

function main() {
  const inner = sources(false);
  const candidates: [string, Placement, BandOrder?][] = [['moved signals, by expected rank (v4 first)', movedByRank]];
  for (const slope of [0.5, 1, 2, 4])
    for (const globalWeight of [0, 0.25, 0.5, 1, 2, 4])
      candidates.push([
        `slope ${slope}, global weight ${globalWeight}`,
        placed({ slope, globalWeight }),
        { slope, globalWeight },
      ]);
  console.log(`Inner splits of the taught halves, ${inner.length} sources: rho of the warm score`);
  let best: { name: string; mean: number } | undefined;
  for (const [name, place, order] of candidates) {
    const rhos = inner.map((s) => rhoOf(s, place));
    const mean = rhos.reduce((a, b) => a + b, 0) / rhos.length;
    console.log(`  ${name.padEnd(44)} ${summary(rhos)}`);
    if (order && (!best || mean > best.mean)) best = { name, mean };
  }
  console.log(
    `chosen (best mean): ${best!.name}; shipped: slope ${PRIORITY_ORDER.slope}, global weight ${PRIORITY_ORDER.globalWeight}`,
  );
  const tested = sources(true);
  console.log('Tested halves (npm run eval warm rho), per source: v4 first placement -> shipped');
  const before = tested.map((s) => rhoOf(s, movedByRank));
  const after = tested.map((s) => rhoOf(s, placed(PRIORITY_ORDER)));
  tested.forEach((s, i) => console.log(`  ${s.name.padEnd(50)} ${before[i].toFixed(3)} -> ${after[i].toFixed(3)}`));
  for (const kind of ['alert', 'bug']) {
    const mine = (v: number[]) => v.filter((_, i) => tested[i].name.startsWith(kind));
    console.log(`  ${kind}s: ${summary(mine(before))} -> ${summary(mine(after))}`);
  }
}

if (require.main === module) main();
