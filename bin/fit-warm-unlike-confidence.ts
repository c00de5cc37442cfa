// Chooses UNLIKE_RATE_WEIGHT (lambdas/domain/learning/learned-priority.ts): how much a workspace's own rate of a
// priority weighs in the confidence of a signal unlike its history, which keeps the global priority. On the inner
// splits of the TAUGHT halves only (bin/fit-warm-priority.ts's recipe), each decision judged as the warm eval judges
// it (right: the exact taught priority). The rule: no kind's worst-source ECE or AUROC (>= 30 wrong) worse than with
// the global confidence kept (weight 0); then the lowest mean of the kinds' worst ECE, the lowest pooled ECE, the
// highest pooled AUROC. docs/decision-engine.md, "Warm", has the figures.
//   npx tsx bin/fit-warm-unlike-confidence.ts              the weights on the inner splits and the choice
//   npx tsx bin/fit-warm-unlike-confidence.ts --held-out   and the chosen weight and 0 on the tested halves (reading only)
import type { Priority } from '../lambdas/domain/decision';
import { compilePolicy, EMPTY_POLICY } from '../lambdas/domain/policy';
import type { WorkspaceModel } from '../lambdas/domain/learning/model';
import { sketchSignal } from '../lambdas/domain/learning/sketch';
import { applyWorkspace } from '../lambdas/domain/learning/workspace-layer';
import { learnedPriority, unlikeConfidence } from '../lambdas/domain/learning/learned-priority';
import type { SeverityKind } from './severity-data';
import { decisionsByFold, type RankedDecision } from './severity-folds';
import { foldCalibrated } from './eval/fold-confidence';
import { evalSketchKey, taughtModel, taughtPriority, warmHalves } from './eval/warm-sources';
import { innerSplits } from './fit-warm-priority';
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
  const all = foldCalibrated(decisionsByFold());
  const out: Source[] = [];
  for (const kind of ['alert', 'bug'] as const) {
    const mine = all.filter((d) => d.kind === kind);
    for (const group of [...new Set(mine.map((d) => d.group))]) {
      const { taught, tested } = warmHalves(mine.filter((d) => d.group === group));
      const pairs: [RankedDecision[], RankedDecision[]][] = heldOut ? [[taught, tested]] : innerSplits(taught);
      const key = evalSketchKey(heldOut ? group : `inner:${group}`);
      const rows: Row[] = [];
      for (const [teach, decide] of pairs) {
        const model = taughtModel(key, teach);
        for (const d of decide) {
          const sketch = sketchSignal(key, d.signal);
          const w = applyWorkspace(d.assessment, d.signal, POLICY, model, sketch);
          const spoke = learnedPriority(model, sketch, d.signal) !== undefined;
          rows.push({
            spoken: spoke ? w.confidence : undefined,
            model,
            priority: w.priority,
            global: d.assessment.confidence,
            right: w.priority === taughtPriority(d),
          });
        }
      }
      out.push({ kind, name: group, rows });
    }
  }
  return out;
}

interface Figures {
  worstEce: Record<SeverityKind, number>;
  worstAuroc: Record<SeverityKind, number>;
  pooledEce: Record<SeverityKind, number>;
  pooledAuroc: Record<SeverityKind, number>;
}

function judge(list: readonly Source[], weight: number): Figures {
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
        confidence: r.spoken ?? unlikeConfidence(r.model, r.priority, r.global, weight) ?? r.global,
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

/** No worst row worse than the global confidence's; then the rule's order (file comment). */
function choose(list: readonly Source[], print: boolean): number {
  const base = judge(list, 0);
  let best: { weight: number; f: Figures } | undefined;
  for (let i = 0; i <= 10; i++) {
    const weight = i / 10;
    const f = judge(list, weight);
    const allowed = (['alert', 'bug'] as const).every(
      (k) => f.worstEce[k] <= base.worstEce[k] && f.worstAuroc[k] >= base.worstAuroc[k],
    );
    if (print) console.log(`  weight ${weight.toFixed(1)}${allowed ? ' ' : '*'} ${show(f)}`);
    if (!allowed) continue;
    const key = [mean(f.worstEce), mean(f.pooledEce), -mean(f.pooledAuroc)];
    const had = best && [mean(best.f.worstEce), mean(best.f.pooledEce), -mean(best.f.pooledAuroc)];
    if (!had || key[0] < had[0] || (key[0] === had[0] && (key[1] < had[1] || (key[1] === had[1] && key[2] < had[2]))))
      best = { weight, f };
  }
  return best!.weight;
}

function main() {
  console.log('Inner splits of the taught halves (* : a worst row worse than the global confidence kept)');
  const weight = choose(sources(false), true);
  console.log(`chosen: ${weight}`);
  if (process.argv.includes('--held-out')) {
    const tested = sources(true);
    console.log('Tested halves (reading only, never choosing):');
    for (const w of [0, weight]) console.log(`  weight ${w.toFixed(1)}  ${show(judge(tested, w))}`);
  }
}

if (require.main === module) main();
