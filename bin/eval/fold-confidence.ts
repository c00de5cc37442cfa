// A ranked ticket's confidence measured as a tracker the engine never saw meets it (docs/decision-engine-confidence.md,
// "Confidence of a ranked ticket"): `ranked_task` refitted without the tracker (bin/train-confidence.ts's recipe on
// the other trackers), and the decision's confidence stated again with it. Alerts and every other decision keep the
// confidence they were scored with.
import { confidenceOf, currentConfidenceModel, useConfidenceModel } from '../../lambdas/domain/engine/confidence';
import type { RankedDecision } from '../severity-folds';
import { unseenTrackerRate } from '../train-confidence';

/** Runs `f` with the shipped confidence model but `ranked_task` replaced. */
export function withRankedTask<T>(rankedTask: number, f: () => T): T {
  const shipped = currentConfidenceModel();
  useConfidenceModel({ ...shipped, ranked_task: rankedTask });
  try {
    return f();
  } finally {
    useConfidenceModel(null);
  }
}

const memo = new WeakMap<readonly RankedDecision[], RankedDecision[]>();
/** Every decision of bin/severity-folds.ts, each bug report's confidence from `ranked_task` fitted without its tracker. */
export function foldCalibrated(decisions: readonly RankedDecision[]): RankedDecision[] {
  const known = memo.get(decisions);
  if (known !== undefined) return known;
  const byTracker = new Map<string, number>();
  const out = decisions.map((d) => {
    if (d.kind !== 'bug') return d;
    if (!byTracker.has(d.group)) byTracker.set(d.group, unseenTrackerRate(decisions, d.group));
    const confidence = withRankedTask(byTracker.get(d.group)!, () => confidenceOf(d.input));
    return { ...d, assessment: { ...d.assessment, confidence } };
  });
  memo.set(decisions, out);
  return out;
}
