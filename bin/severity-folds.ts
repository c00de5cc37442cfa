// Leave one source out for severity (docs/decision-engine.md, "Severity across sources"): every ranked alert rule and
// bug report of the development data scored by the engine with a severity model that never saw it, and a confidence
// model fitted without its source. The shipped severity models learned from alert-rules-dev.jsonl (alerts) and TIMOB
// (bugs): every other source meets them as they ship; kube-prometheus and VictoriaMetrics meet the alert model fitted
// without them (bin/train-severity-model.ts's recipe), and each half of TIMOB (by id hash) the bug model fitted on the
// other half. Shared by `npm run eval` and bin/train-confidence.ts; a fold is fitted once per run.
import { lastConfidenceInput, scoreSignal, type EngineModels } from '../lambdas/domain/engine';
import type { ConfidenceInput, ConfidenceModel } from '../lambdas/domain/engine/confidence';
import type { SeverityModel } from '../lambdas/domain/engine/severity-model';
import type { Assessment, Priority } from '../lambdas/domain/decision';
import type { Signal } from '../lambdas/domain/signal';
import { ALERT_NOW, loadRankedAlerts, loadRankedBugs, rankedSignal, type SeverityKind } from './severity-data';
import { alertExample, bugExample, fitAlertModel, fitBugModel, severityModelOf } from './train-severity-model';
import { fitConfidence, trainingRows, type Row } from './train-confidence';
import { BUG_TRAIN_PROJECT, fnv1a, loadAlerts, loadBugs } from './data-splits';
import { cachedBeside } from './severity-features-cache';
import { shippedSeverityModels } from '../lambdas/domain/engine/severity-model';

/** Right as bin/eval/labeled.ts defines it: the band fits the label (alerts by class 3..1, bugs by level 5..1). */
const FITS: Record<SeverityKind, Record<number, readonly Priority[]>> = {
  alert: { 3: ['critical', 'high'], 2: ['high', 'medium'], 1: ['medium', 'low'] },
  bug: { 5: ['critical', 'high'], 4: ['critical', 'high'], 3: ['medium'], 2: ['medium', 'low'], 1: ['medium', 'low'] },
};
export const bandFitsLabel = (kind: SeverityKind, band: number, priority: Priority) =>
  FITS[kind][band].includes(priority);

export interface RankedDecision {
  kind: SeverityKind;
  group: string;
  id: string;
  label: string;
  level: number;
  levels: number;
  band: number;
  signal: Signal;
  assessment: Assessment;
  input: ConfidenceInput;
  right: boolean;
}

let devAlertSources: ReadonlySet<string> | null = null;
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
    devAlertSources ??= new Set(loadAlerts().map((r) => r.source));
    if (!devAlertSources.has(group)) return { severity: shipped };
    const alert = memo(`alert:${group}`, () =>
      severityModelOf(
        fitAlertModel(
          loadAlerts()
            .filter((r) => r.source !== group)
            .map(alertExample),
          `all but ${group}`,
        ),
      ),
    );
    return { severity: { alert, bug: shipped.bug } };
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

/** Rows a group contributes to the confidence's fit: at most this many (by id hash), so a fold fits in seconds. */
const PER_GROUP = 400;
/** A fold's confidence fit: each other corpus thinned to at most this many rows (weights kept), and fewer epochs. */
const FOLD_BASE_ROWS = 600;
const FOLD_EPOCHS = 1000;

/** Every k-th row of each corpus (rows of one corpus share a weight), so each keeps its total weight. */
function thinned(rows: readonly Row[]): Row[] {
  const byWeight = new Map<number, Row[]>();
  for (const r of rows) byWeight.set(r.w, [...(byWeight.get(r.w) ?? []), r]);
  const out: Row[] = [];
  for (const list of byWeight.values()) {
    const k = Math.max(1, Math.ceil(list.length / FOLD_BASE_ROWS));
    for (let i = 0; i < list.length; i += k) out.push({ ...list[i], w: list[i].w * k });
  }
  return out;
}

/**
 * Ranked decisions as the confidence trainer's rows, without `except`'s group: alerts weigh as one corpus and bug
 * reports as another, each source alike inside its kind (`level` is the alert class 1..3 or the bug level 1..5).
 */
export function confidenceRows(all: readonly RankedDecision[], except?: string): Row[] {
  const byGroup = new Map<string, RankedDecision[]>();
  for (const d of all) if (d.group !== except) byGroup.set(d.group, [...(byGroup.get(d.group) ?? []), d]);
  const groups = (kind: SeverityKind) => [...byGroup.values()].filter((g) => g[0].kind === kind).length;
  const out: Row[] = [];
  for (const list of byGroup.values()) {
    const kept = [...list].sort((a, b) => fnv1a(a.id) - fnv1a(b.id)).slice(0, PER_GROUP);
    const w = 1 / groups(list[0].kind) / kept.length;
    for (const d of kept) out.push({ input: d.input, y: d.right ? 1 : 0, w, level: d.band });
  }
  return out;
}

let base: Row[] | null = null;
/** Change it when bin/train-confidence.ts's fit or its rows change, so cached fold models are fitted again. */
const CONFIDENCE_FIT = 'v2 thinned 600, 1000 epochs';
const confidences = new Map<string, ConfidenceModel>();
/** The confidence model fitted on the other corpora's training side and every ranked source but `group`. */
export function foldConfidence(group: string): ConfidenceModel {
  if (!confidences.has(group)) {
    const fit = () => {
      base ??= thinned(trainingRows());
      return fitConfidence([...base, ...confidenceRows(decisionsByFold(), group)], FOLD_EPOCHS);
    };
    // Cached beside the severity features (the same engine and data); CONFIDENCE_FIT names the trainer's version.
    confidences.set(group, cachedBeside(`confidence ${CONFIDENCE_FIT} without ${group}`, fit));
  }
  return confidences.get(group)!;
}
