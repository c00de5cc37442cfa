// A ranked ticket's confidence measured as a tracker the engine never saw meets it (docs/decision-engine-confidence.md,
// "Confidence of a ranked ticket"): `ranked_task` refitted without the tracker (bin/train-confidence.ts's recipe on
// the other trackers), and the decision's confidence stated again with it. An alert of a group that pools development
// sources ("other": thanos, openshift's cluster-monitoring-operator) states it with the whole model refitted without
// them (bin/train-confidence.ts's recipe, as bin/eval/main.ts refits it per alert fold); the groups that are a
// development source themselves (kube-prometheus, VictoriaMetrics) keep the shipped one and are marked in sample.
// Every other decision keeps the confidence it was scored with.
import {
  confidenceOf,
  currentConfidenceModel,
  useConfidenceModel,
  type ConfidenceModel,
} from '../../lambdas/domain/engine/confidence';
import { devAlertSourcesIn, type RankedDecision } from '../severity-folds';
import { loadAlerts } from '../data-splits';
import { crossFittedAlertRows, fitConfidence, trainingRows, unseenTrackerRate, type Row } from '../train-confidence';

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

let baseRows: Row[] | null = null;
/** The confidence trainer's rows but the alert rules' (scored once per run: the eval's alert folds read them too). */
export const confidenceBaseRows = (): Row[] => (baseRows ??= trainingRows());

const refitted = new Map<string, ConfidenceModel>();
/** The shipped confidence model's recipe without the rules of the alert-rules-dev.jsonl `sources`; ranked_task as shipped. */
export function confidenceModelWithout(sources: readonly string[]): ConfidenceModel {
  const key = [...sources].sort().join('\n');
  if (!refitted.has(key)) {
    const rankedTask = currentConfidenceModel().ranked_task;
    const alerts = loadAlerts().filter((r) => !sources.includes(r.source));
    refitted.set(key, fitConfidence([...confidenceBaseRows(), ...crossFittedAlertRows(alerts)], rankedTask));
  }
  return refitted.get(key)!;
}

/** The development sources pooled into an alert group that is not one of them ("other"), else none. */
const pooledDevSources = (group: string): readonly string[] => {
  const dev = devAlertSourcesIn(group);
  return dev.includes(group) ? [] : dev;
};

const memo = new WeakMap<readonly RankedDecision[], RankedDecision[]>();
/**
 * Every decision of bin/severity-folds.ts, each bug report's confidence from `ranked_task` fitted without its tracker,
 * each alert of a group pooling development sources from the confidence model fitted without them.
 */
export function foldCalibrated(decisions: readonly RankedDecision[]): RankedDecision[] {
  const known = memo.get(decisions);
  if (known !== undefined) return known;
  const byTracker = new Map<string, number>();
  const out = decisions.map((d) => {
    if (d.kind === 'alert') {
      const pooled = pooledDevSources(d.group);
      if (pooled.length === 0) return d;
      const model = confidenceModelWithout(pooled);
      useConfidenceModel(model);
      try {
        return { ...d, assessment: { ...d.assessment, confidence: confidenceOf(d.input) } };
      } finally {
        useConfidenceModel(null);
      }
    }
    if (d.kind !== 'bug') return d;
    if (!byTracker.has(d.group)) byTracker.set(d.group, unseenTrackerRate(decisions, d.group));
    const confidence = withRankedTask(byTracker.get(d.group)!, () => confidenceOf(d.input));
    return { ...d, assessment: { ...d.assessment, confidence } };
  });
  memo.set(decisions, out);
  return out;
}
