// Phase 7 of scoring: the learned severity model's say on an alert (`internal`) or a bug report (`task`), as one
// listed reason (docs/decision-engine.md, "The severity model").
import type { Reason } from '../decision';
import type { Source } from '../signal';
import { own, type Meta } from './metadata';
import { severityLogit, severityWords, shippedSeverityModels, type SeverityModel } from './severity-model';
import type { TokenBuffer } from './tokens';

/**
 * Score points per unit of the severity model's log-odds, and the most it may add or take: for bug reports chosen by
 * cross-validation inside TIMOB (bin/train-severity-model.ts); for alerts set before measuring and kept (no alert
 * data is left to choose it on without looking at a test source).
 */
const SEVERITY_POINTS = { internal: { perLogit: 20, max: 40 }, task: { perLogit: 50, max: 60 } } as const;

/** Models the engine uses; the eval passes a fold's models to measure on data they never saw. */
export interface EngineModels {
  /** `null`: no severity model (the rules alone, as the trainer reads them). */
  severity?: { alert: SeverityModel; bug: SeverityModel } | null;
}

/**
 * Phase 7: for an alert (`internal`) or a bug report (`task`) without the author's own severity in metadata, the
 * learned severity model moves the score: its log-odds over the text's words and the rule reasons, in points.
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
  // The evidence's part of the log-odds: a text the model knows nothing about moves nothing.
  const z = severityLogit(model, severityWords(buf), severityCodes(reasons)) - model.bias;
  const { perLogit, max } = SEVERITY_POINTS[source];
  const points = Math.max(-max, Math.min(max, Math.round(z * perLogit)));
  if (points === 0) return null;
  const what = source === 'internal' ? 'alert rules' : 'bug reports';
  return {
    code: 'SEVERITY_MODEL',
    weight: points,
    message: `severity model (learned from real ${what}) reads it as ${points > 0 ? 'more' : 'less'} serious`,
  };
}

/** The rule reasons the severity model reads: every code but the time-dependent ones. */
export const severityCodes = (reasons: readonly Reason[]): string[] =>
  reasons
    .filter((r) => !r.code.startsWith('WAITING_') && !r.code.startsWith('DUE_'))
    .map((r) => (r.weight > 0 ? r.code : `-${r.code}`));
