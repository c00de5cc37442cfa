// Leave one source out for severity (docs/decision-engine-severity.md, "Severity across sources"): every ranked alert
// rule and bug report of the development data scored by the engine with a severity model that never saw it. The alert
// model learned from every alert source: each meets the model fitted without it (bin/severity-alert-pooled.ts); the
// alert band model learned from alert-rules-dev.jsonl: each group holding its rules meets it fitted without every
// development source in the group (kube-prometheus and VictoriaMetrics their own; "other" pools thanos and openshift's
// cluster-monitoring-operator, bin/severity-data.ts).
// The bug model learned from TIMOB: every other tracker meets it as it ships, and each half of TIMOB (by id hash) the
// bug model fitted on the other half. The confidence is the shipped model's (bin/train-confidence.ts fitted it on TIMOB
// and the alert-rules-dev.jsonl rules: held out for every other source; bin/eval/fold-confidence.ts states "other"'s
// with it refitted without the development sources pooled there). A fold is fitted once per run.
import { lastConfidenceInput, scoreSignal, type EngineModels } from '../lambdas/domain/engine';
import type { ConfidenceInput } from '../lambdas/domain/engine/confidence';
import type { SeverityModel } from '../lambdas/domain/engine/severity-model';
import type { Assessment, Priority } from '../lambdas/domain/decision';
import type { Signal } from '../lambdas/domain/signal';
import {
  ALERT_NOW,
  loadRankedAlerts,
  loadRankedBugs,
  rankedSignal,
  type RankedRow,
  type SeverityKind,
} from './severity-data';
import { alertBandModelWithout, bugExample, fitBugModel, severityModelOf } from './train-severity-model';
import { BUG_TRAIN_PROJECT, fnv1a, loadAlerts, loadBugs } from './data-splits';
import { pooledAlertModelWithout } from './severity-alert-pooled';
import { shippedSeverityModels } from '../lambdas/domain/engine/severity-model';

/** Right as bin/eval/labeled.ts defines it: the band fits the label (alerts by class 3..1, bugs by level 5..1). */
const FITS: Record<SeverityKind, Record<number, readonly Priority[]>> = {
  alert: { 3: ['critical', 'high'], 2: ['high', 'medium'], 1: ['medium', 'low'] },
  bug: { 5: ['critical', 'high'], 4: ['critical', 'high'], 3: ['medium'], 2: ['medium', 'low'], 1: ['medium', 'low'] },
};
const bandFitsLabel = (kind: SeverityKind, band: number, priority: Priority) => FITS[kind][band].includes(priority);

/** A ranked row as scored: its text now the signal the engine saw. */
export interface RankedDecision extends Omit<RankedRow, 'subject' | 'body'> {
  signal: Signal;
  assessment: Assessment;
  input: ConfidenceInput;
  right: boolean;
}

let devSourcesByGroup: Map<string, string[]> | null = null;
/** The alert-rules-dev.jsonl sources whose rules are in the ranked alert group `group` (sorted; none for most). */
export function devAlertSourcesIn(group: string): readonly string[] {
  if (devSourcesByGroup === null) {
    const sourceOf = new Map(loadAlerts().map((r) => [r.id, r.source]));
    const byGroup = new Map<string, string[]>();
    for (const r of loadRankedAlerts()) {
      const source = sourceOf.get(r.id);
      if (source === undefined) continue;
      const list = byGroup.get(r.group) ?? [];
      if (!list.includes(source)) list.push(source);
      byGroup.set(r.group, list);
    }
    for (const list of byGroup.values()) list.sort();
    devSourcesByGroup = byGroup;
  }
  return devSourcesByGroup.get(group) ?? [];
}
const models = new Map<string, SeverityModel>();
const memo = (key: string, fit: () => SeverityModel) => {
  if (!models.has(key)) models.set(key, fit());
  return models.get(key)!;
};
/** Which half of TIMOB a report is in (the bug model's own training project is measured by halves). */
const half = (id: string) => fnv1a(id) % 2;

/** The engine's models for a row of `kind` from `group`: a severity model that never saw the row. */
export function foldEngineModels(kind: SeverityKind, group: string, id = ''): EngineModels {
  const shipped = shippedSeverityModels();
  if (kind === 'alert') {
    // Without every development source pooled into the group: "other" holds 9 rules the shipped band model saw.
    const dev = devAlertSourcesIn(group);
    const alertBand =
      dev.length > 0 ? memo(`alert-band:${dev.join('\n')}`, () => alertBandModelWithout(dev)) : shipped.alertBand;
    return { severity: { alert: pooledAlertModelWithout([group]), alertBand, bug: shipped.bug } };
  }
  if (group !== BUG_TRAIN_PROJECT) return { severity: shipped };
  const k = half(id);
  const bug = memo(`bug:${k}`, () =>
    severityModelOf(
      fitBugModel(
        loadBugs()
          .filter((r) => r.split === 'train' && half(r.id) !== k)
          .map(bugExample),
        `${BUG_TRAIN_PROJECT} half ${1 - k}`,
      ),
    ),
  );
  return { severity: { alert: shipped.alert, bug } };
}

let decisions: RankedDecision[] | null = null;
/** Every ranked row, scored with the severity model of its fold (the shipped confidence model states confidence). */
export function decisionsByFold(): RankedDecision[] {
  if (decisions !== null) return decisions;
  const now = new Date(ALERT_NOW);
  const out: RankedDecision[] = [];
  for (const rows of [loadRankedAlerts(), loadRankedBugs()]) {
    const groups = [...new Set(rows.map((r) => r.group))];
    for (const group of groups) {
      const kind = rows[0].kind;
      for (const r of rows) {
        if (r.group !== group) continue;
        const signal = rankedSignal(r);
        const assessment = scoreSignal(signal, now, foldEngineModels(kind, group, r.id));
        const { subject: _s, body: _b, ...rest } = r;
        out.push({
          ...rest,
          signal,
          assessment,
          input: lastConfidenceInput(),
          right: bandFitsLabel(kind, r.band, assessment.priority),
        });
      }
    }
  }
  decisions = out;
  return out;
}
