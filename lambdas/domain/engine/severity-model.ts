// How serious an alert (`internal`) or a bug report (`task`) reads, learned from real labeled text (issue 22, item 4):
// logistic regression over the points the rule reasons add up to, the codes of those reasons, and the hashed words of
// the text (each counted once, the CamelCase words of an alert's name included). Targets are the authors' severities
// as soft labels (alerts: critical 1, warning 0.35, info 0; bugs: Critical 1 ... Trivial 0), so the log-odds order
// texts by severity. Trained by bin/train-severity-model.ts on the training side of bin/data-splits.ts only; the
// weights ship in severity-model.json (bucket numbers and integers, no text). Deterministic: no clock, no randomness.
import type { TokenBuffer } from './tokens';

export const SEVERITY_WORD_BITS = 16;
const WORD_MASK = (1 << SEVERITY_WORD_BITS) - 1;
/** Tokens read: an alert or a bug report says how serious it is near its start. */
export const SEVERITY_TOKENS = 400;
export const SEVERITY_MODEL_FORMAT = 'sas-severity-lr-3';
/** The rules' points enter the model per this many points (one unit of the `rules` feature). */
export const RULE_POINTS_UNIT = 20;

/** One model: bias, the weight of the rules' points, word bucket weights and reason-code weights (already scaled). */
export interface SeverityModel {
  bias: number;
  /** Score points per unit of log-odds, and the most the model's reason may add or take (chosen by the trainer). */
  perLogit: number;
  max: number;
  /**
   * Points added to every text the model reads, so that its bands fit the authors' labels (bugs: chosen inside
   * TIMOB for band fit; alerts 0). It moves where this kind's texts fall against the shared bands, not their order.
   */
  offset: number;
  /** Log-odds per RULE_POINTS_UNIT points of the rule reasons the model reads. */
  rules: number;
  words: ReadonlyMap<number, number>;
  codes: Readonly<Record<string, number>>;
}

export interface SeverityModelEntry {
  trained_on: string;
  per_logit: number;
  max: number;
  offset: number;
  bias: number;
  rules: number;
  buckets: number[];
  weights: number[];
  codes: Record<string, number>;
}

export interface SeverityModelFile {
  format: typeof SEVERITY_MODEL_FORMAT;
  note: string;
  /** Every reason code the engine had when the models were fitted: a code added since is read as weight 0 until a retrain. */
  reason_codes: string[];
  scale: number;
  models: Record<'alert' | 'bug', SeverityModelEntry>;
}

/** The distinct word buckets of the text in `buf` (subject, body and the split CamelCase words). */
export function severityWords(buf: TokenBuffer): number[] {
  const seen = new Set<number>();
  for (let i = 0; i < buf.count && i < SEVERITY_TOKENS; i++) if (buf.letters(i) > 0) seen.add(buf.h1[i] & WORD_MASK);
  return [...seen];
}

/** Log-odds that the text is serious, from its word buckets, the codes of its rule reasons and their points. */
export function severityLogit(
  model: SeverityModel,
  words: readonly number[],
  codes: readonly string[],
  rulePoints: number,
): number {
  let z = model.bias + (model.rules * rulePoints) / RULE_POINTS_UNIT;
  for (const w of words) z += model.words.get(w) ?? 0;
  for (const c of codes) z += model.codes[c] ?? 0;
  return z;
}

export function modelFromFile(m: SeverityModelEntry, scale: number): SeverityModel {
  const words = new Map<number, number>();
  let bucket = 0;
  for (let i = 0; i < m.buckets.length; i++) {
    bucket += m.buckets[i];
    words.set(bucket, m.weights[i] / scale);
  }
  const codes: Record<string, number> = {};
  for (const [k, v] of Object.entries(m.codes)) codes[k] = v / scale;
  return {
    bias: m.bias / scale,
    perLogit: m.per_logit,
    max: m.max,
    offset: m.offset,
    rules: m.rules / scale,
    words,
    codes,
  };
}

let shipped: { alert: SeverityModel; bug: SeverityModel } | null = null;

/** The shipped models, read on first use (most signals are neither alerts nor tasks). */
export function shippedSeverityModels(): { alert: SeverityModel; bug: SeverityModel } {
  if (shipped === null) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- read on first use, so a cold start that never needs it does not parse it
    const file = require('./severity-model.json') as SeverityModelFile;
    if (file.format !== SEVERITY_MODEL_FORMAT)
      throw new Error(`severity-model.json: format ${String(file.format)}, expected ${String(SEVERITY_MODEL_FORMAT)}`);
    shipped = { alert: modelFromFile(file.models.alert, file.scale), bug: modelFromFile(file.models.bug, file.scale) };
  }
  return shipped;
}
