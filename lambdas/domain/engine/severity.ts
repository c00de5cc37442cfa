// Phase 7 of scoring: the learned severity model's say on an alert (`internal`) or a bug report (`task`), as one
// listed reason (docs/decision-engine.md, "The severity model").
import type { Reason } from '../decision';
import type { Source } from '../signal';
import { isSeriousReason } from './invariants';
import { own, type Meta } from './metadata';
import { severityLogit, severityWords, shippedSeverityModels, type SeverityModel } from './severity-model';
import type { TokenBuffer } from './tokens';

/** Models the engine uses; the eval passes a fold's models to measure on data they never saw. */
export interface EngineModels {
  /** `null`: no severity model (the rules alone, as the trainer reads them). */
  severity?: { alert: SeverityModel; bug: SeverityModel } | null;
}

/**
 * Phase 7: for an alert (`internal`) or a bug report (`task`) without the author's own severity in metadata, the
 * learned severity model sets how far the text's evidence moves the score. The model reads the rule reasons' points
 * among its features, so its log-odds (minus its bias: a text with no evidence moves nothing), in points, are what
 * the rules and the model say together; `SEVERITY_MODEL` is the difference from the rules' own points, bounded by
 * the model's `max`. The model's `offset` (bug reports only) places tickets against the shared bands. Each rule reason keeps its weight as the explanation; the model's correction is one reason.
 */
export function severityReason(
  source: Source,
  md: Meta | null,
  reasons: readonly Reason[],
  models: EngineModels,
  buf: TokenBuffer,
): Reason | null {
  if (source !== 'internal' && source !== 'task') return null;
  if (own(md, 'severity') !== undefined || own(md, 'priority') !== undefined) return null;
  if (reasons.some((r) => r.code === 'ALERT_RESOLVED')) return null;
  const pair = models.severity === undefined ? shippedSeverityModels() : models.severity;
  if (pair === null) return null;
  const model = source === 'internal' ? pair.alert : pair.bug;
  const read = severityRead(reasons);
  // Words learned from other projects' rules neither speak alone nor re-rate a stated serious problem, as the model
  // says (docs/decision-engine.md, "Severity across sources").
  if (model.needsReason && read.codes.length === 0) return null;
  if (model.serious === 'frozen' && read.kept > 0) return null;
  const z = severityLogit(model, severityWords(buf, model.reading), read.codes, read.points) - model.bias;
  let points = Math.max(-model.max, Math.min(model.max, Math.round(z * model.perLogit + model.offset - read.points)));
  if (model.serious === 'floor' && read.kept > 0 && points < 0) points = 0;
  if (points === 0) return null;
  const what = source === 'internal' ? 'alert rules' : 'bug reports';
  return {
    code: 'SEVERITY_MODEL',
    weight: points,
    message: `severity model (learned from real ${what}) reads it as ${points > 0 ? 'more' : 'less'} serious`,
  };
}

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
    if (r.code.startsWith('WAITING_') || r.code.startsWith('DUE_')) continue;
    codes.push(r.weight > 0 ? r.code : `-${r.code}`);
    if (isSeriousReason(r)) kept += r.weight;
    else points += r.weight;
  }
  return { codes, points, kept };
}

/** The codes of the rule reasons the severity model reads. */
export const severityCodes = (reasons: readonly Reason[]): string[] => severityRead(reasons).codes;
