// Chooses UNLIKE_RATE (lambdas/domain/learning/learned-priority.ts): how much a workspace's own rate of a priority
// weighs in the confidence of a signal unlike its history, which keeps the global priority, and how fast that grows
// with the teaching. On the inner splits of the TAUGHT halves only (bin/fit-warm-priority.ts's recipe), each decision
// judged as the warm eval judges it (right: the exact taught priority). The rule: no kind's worst-source ECE or AUROC
// (>= 30 wrong) worse than with the global confidence kept (weight 0); then the lowest mean of the kinds' worst ECE,
// the lowest pooled ECE, the highest pooled AUROC; a tie keeps the earlier point of the grid (smaller half, then
// smaller weight), and with no point allowed the global confidence stays. docs/decision-engine-warm.md, "Warm", has the
// figures.
//   npx tsx bin/fit-warm-unlike-confidence.ts              the grid on the inner splits and the choice
//   npx tsx bin/fit-warm-unlike-confidence.ts --held-out   and the choice and weight 0 on the tested halves (reading only)
import './lexicon-index-check';
import type { Priority } from '../lambdas/domain/decision';
import { compilePolicy, EMPTY_POLICY } from '../lambdas/domain/policy';
import type { WorkspaceModel } from '../lambdas/domain/learning/model';
import { sketchSignal } from '../lambdas/domain/learning/sketch';
import { applyWorkspace } from '../lambdas/domain/learning/workspace-layer';
import { learnedPriority, unlikeConfidence, type UnlikeRate } from '../lambdas/domain/learning/learned-priority';
import type { SeverityKind } from './severity-data';
import { decisionsByFold } from './severity-folds';
import { foldCalibrated } from './eval/fold-confidence';
import { taughtPriority } from './eval/warm-sources';
import { warmSplits } from './fit-warm-priority';
import { TEN_BINS, auroc, reliabilityTable } from './eval/report';

interface Row {
  /** The warm decision's confidence where the learned priority spoke; undefined for a signal unlike the history. */
  spoken?: number;
  model: WorkspaceModel;
  priority: Priority;
  global: number;
  right: boolean;
}
interface Source {
  kind: SeverityKind;
  name: string;
  rows: Row[];
}

const POLICY = compilePolicy(EMPTY_POLICY);

function sources(heldOut: boolean): Source[] {
  return warmSplits(foldCalibrated(decisionsByFold()), heldOut).map(({ kind, group, splits }) => ({
    kind,
    name: group,
    rows: splits.flatMap(({ key, model, decide }) =>
      decide.map((d) => {
        const sketch = sketchSignal(key, d.signal);
        const w = applyWorkspace(d.assessment, d.signal, POLICY, model, sketch);
        const spoke = learnedPriority(model, sketch, d.signal) !== undefined;
        return {
          spoken: spoke ? w.confidence : undefined,
          model,
          priority: w.priority,
          global: d.assessment.confidence,
          right: w.priority === taughtPriority(d),
        };
      }),
    ),
  }));
}

interface Figures {
  worstEce: Record<SeverityKind, number>;
  worstAuroc: Record<SeverityKind, number>;
  pooledEce: Record<SeverityKind, number>;
  pooledAuroc: Record<SeverityKind, number>;
}

function judge(list: readonly Source[], fit: UnlikeRate): Figures {
  const f: Figures = {
    worstEce: { alert: 0, bug: 0 },
    worstAuroc: { alert: 1, bug: 1 },
    pooledEce: { alert: 0, bug: 0 },
    pooledAuroc: { alert: 0, bug: 0 },
  };
  for (const kind of ['alert', 'bug'] as const) {
    const pooled: { confidence: number; right: boolean }[] = [];
    for (const s of list.filter((x) => x.kind === kind)) {
      const judged = s.rows.map((r) => ({
        confidence: r.spoken ?? unlikeConfidence(r.model, r.priority, r.global, fit) ?? r.global,
        right: r.right,
      }));
      pooled.push(...judged);
      f.worstEce[kind] = Math.max(f.worstEce[kind], reliabilityTable(judged, TEN_BINS).ece);
      const wrong = judged.filter((j) => !j.right).length;
      if (wrong >= 30 && wrong < judged.length) f.worstAuroc[kind] = Math.min(f.worstAuroc[kind], auroc(judged));
    }
    f.pooledEce[kind] = reliabilityTable(pooled, TEN_BINS).ece;
    f.pooledAuroc[kind] = auroc(pooled);
  }
  return f;
}

const mean = (r: Record<SeverityKind, number>) => (r.alert + r.bug) / 2;
const show = (f: Figures) =>
  (['alert', 'bug'] as const)
    .map(
      (k) =>
        `${k}s: ECE worst ${f.worstEce[k].toFixed(3)} pooled ${f.pooledEce[k].toFixed(3)}, AUROC worst ${f.worstAuroc[k].toFixed(4)} pooled ${f.pooledAuroc[k].toFixed(3)}`,
    )
    .join(' | ');

const WEIGHTS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];
const HALVES = [0, 3, 10, 30, 100, 300];
const KEEP: UnlikeRate = { weight: 0, teachingHalf: 0 };

/** No worst row worse than the global confidence's; then the rule's order (file comment). */
function choose(list: readonly Source[], print: boolean): UnlikeRate {
  const base = judge(list, KEEP);
  if (print) console.log(`  weight 0 (kept)      ${show(base)}`);
  let best: { fit: UnlikeRate; key: number[] } | undefined;
  for (const teachingHalf of HALVES)
    for (const weight of WEIGHTS) {
      const fit = { weight, teachingHalf };
      const f = judge(list, fit);
      const allowed = (['alert', 'bug'] as const).every(
        (k) => f.worstEce[k] <= base.worstEce[k] && f.worstAuroc[k] >= base.worstAuroc[k],
      );
      if (print) console.log(`  ${showFit(fit).padEnd(20)}${allowed ? ' ' : '*'}${show(f)}`);
      const key = [mean(f.worstEce), mean(f.pooledEce), -mean(f.pooledAuroc)];
      const first = key.findIndex((v, i) => v !== best?.key[i]);
      if (allowed && (!best || (first >= 0 && key[first] < best.key[first]))) best = { fit, key };
    }
  return best?.fit ?? KEEP;
}

const showFit = (f: UnlikeRate) => `weight ${f.weight}, half ${f.teachingHalf}`;

function main() {
  console.log('Inner splits of the taught halves (* : a worst row worse than the global confidence kept)');
  const fit = choose(sources(false), true);
  console.log(`chosen: ${showFit(fit)}`);
  if (process.argv.includes('--held-out')) {
    const tested = sources(true);
    console.log('Tested halves (reading only, never choosing):');
    for (const f of [KEEP, fit]) console.log(`  ${showFit(f).padEnd(20)} ${show(judge(tested, f))}`);
  }
}

if (require.main === module) main();
