// Phase 7 of scoring: the learned severity model's say on an alert (`internal`) or a bug report (`task`), as one
// listed reason (docs/decision-engine-severity.md, "The severity model").
import { priorityForScore, type Reason } from '../decision';
import { DEFAULT_THRESHOLDS, bandOf } from '../policy';
import type { Source } from '../signal';
import { isSeriousReason } from './invariants';
import { authorSeverity, type Meta } from './metadata';
import {
  severityLogit,
  severityWords,
  shippedSeverityModels,
  type SeverityModel,
  type SeverityModels,
} from './severity-model';
import type { TokenBuffer } from './tokens';

/** Models the engine uses; the eval passes a fold's models to measure on data they never saw. */
export interface EngineModels {
  /** `null`: no severity model (the rules alone, as the trainer reads them). */
  severity?: SeverityModels | null;
}

/**
 * Phase 7: for an alert (`internal`) or a bug report (`task`) without the author's own severity in metadata, the
 * learned severity model sets how far the text's evidence moves the score. The model reads the rule reasons' points
 * among its features, so its log-odds (minus its bias: a text with no evidence moves nothing), in points, are what
 * the rules and the model say together; `SEVERITY_MODEL` is the difference from the rules' own points, bounded by
 * the model's `max`. The model's `offset` (bug reports only) places tickets against the shared bands. Each rule reason
 * keeps its weight as the explanation; the model's correction is one reason. An alert with a band model (`alertBand`)
 * keeps the band that model gives it from `base` and the rules, and the alert model only moves it inside that band.
 */
export function severityReason(
  source: Source,
  md: Meta | null,
  reasons: readonly Reason[],
  models: EngineModels,
  buf: TokenBuffer,
  base: number,
): SeverityCall {
  if (source !== 'internal' && source !== 'task') return SILENT;
  if (authorSeverity(md) !== null) return SILENT;
  if (reasons.some((r) => r.code === 'ALERT_RESOLVED')) return SILENT;
  const pair = models.severity === undefined ? shippedSeverityModels() : models.severity;
  if (pair === null) return SILENT;
  const read = severityRead(reasons);
  const model = source === 'internal' ? pair.alert : pair.bug;
  const points = modelPoints(model, () => severityWords(buf, model.reading), read);
  if (source === 'internal' && pair.alertBand) {
    // The band model decides the alert's band; the words model only orders alerts inside it
    // (docs/decision-engine-severity.md, "Severity across sources"): its words carry a source's order better than the
    // rule codes, but not where its authors draw the line between bands. Where the words model says nothing, the band
    // model's points stand.
    const bandModel = pair.alertBand;
    const band = modelPoints(bandModel, () => severityWords(buf, bandModel.reading), read) ?? 0;
    // The band is read without the reasons that measure time (WAITING_, DUE_): analyzed later, only those change.
    let rules = base;
    for (const r of reasons) if (!measuresTime(r)) rules += r.weight;
    const [lo, hi] = bandOf(priorityForScore(rules + band), DEFAULT_THRESHOLDS);
    const ordered = points === null ? band : Math.max(lo, Math.min(hi, rules + points)) - rules;
    const decided = severityModelReason(source, band);
    return { reason: ordered === band ? decided : severityModelReason(source, ordered), band: decided };
  }
  const reason = severityModelReason(source, points ?? 0);
  return { reason, band: reason };
}

/**
 * The severity model's reason (`reason`), and the one the band was decided with (`band`: the same but for an alert
 * ordered inside its band by the alert model's words). The confidence reads `band`: whether an author's label fits
 * the band is what the band model's evidence says, not where the words put the alert inside it.
 */
interface SeverityCall {
  reason: Reason | null;
  band: Reason | null;
}
const SILENT: SeverityCall = { reason: null, band: null };

function severityModelReason(source: Source, points: number): Reason | null {
  if (points === 0) return null;
  const what = source === 'internal' ? 'alert rules' : 'bug reports';
  return {
    code: 'SEVERITY_MODEL',
    weight: points,
    message: `severity model (learned from real ${what}) reads it as ${points > 0 ? 'more' : 'less'} serious`,
  };
}

/**
 * One model's points for a text's word buckets (read only where it speaks) and rule reasons: its log-odds, in points,
 * less the rules' own points, within its bound; null where it is silent (bin/severity-words-check.ts reads the band
 * model's points with it).
 */
export function modelPoints(
  model: SeverityModel,
  words: () => readonly number[],
  read: Pick<ReturnType<typeof severityRead>, 'codes' | 'points' | 'kept'>,
): number | null {
  // Words learned from other projects' rules neither speak alone nor re-rate a stated serious problem, as the model
  // says (docs/decision-engine-severity.md, "Severity across sources").
  if (model.needsReason && read.codes.length === 0) return null;
  if (model.serious === 'frozen' && read.kept > 0) return null;
  const z = severityLogit(model, words(), read.codes, read.points) - model.bias;
  const points = Math.max(-model.max, Math.min(model.max, Math.round(z * model.perLogit + model.offset - read.points)));
  return model.serious === 'floor' && read.kept > 0 && points < 0 ? 0 : points;
}

/**
 * A reason that measures time: analyzed later, only these may change (docs/partners.md, "The decision (answer of
 * analyze and of `GET /decisions/{decision_id}`)").
 */
const measuresTime = (r: Reason): boolean => r.code.startsWith('WAITING_') || r.code.startsWith('DUE_');

/**
 * The rule reasons the severity model reads (every one but the time-dependent ones): their codes, and the points it
 * may re-weigh: all but those of a stated serious problem (invariants.ts), which keep their points whatever a
 * project's priorities taught the model (`kept`).
 */
export function severityRead(reasons: readonly Reason[]): { codes: string[]; points: number; kept: number } {
  const codes: string[] = [];
  let points = 0;
  let kept = 0;
  for (const r of reasons) {
    if (measuresTime(r)) continue;
    codes.push(r.weight > 0 ? r.code : `-${r.code}`);
    if (isSeriousReason(r)) kept += r.weight;
    else points += r.weight;
  }
  return { codes, points, kept };
}
