// How serious an alert (`internal`) or a bug report (`task`) reads, learned from real labeled text (issue 22, item 4):
// logistic regression over the points the rule reasons add up to, the codes of those reasons, and the hashed words of
// the text (each counted once, the CamelCase words of an alert's name included). Targets are the authors' severities
// as soft labels (alerts: critical 1, warning 0.35, info 0; bugs: Critical 1 ... Trivial 0), so the log-odds order
// texts by severity. Trained by bin/train-severity-model.ts on the training side of bin/data-splits.ts only; the
// weights ship in severity-model.json (bucket numbers and integers, no text). Deterministic: no clock, no randomness.
import { negatedAt } from './lexicon-trie';
import type { TokenBuffer } from './tokens';

export const SEVERITY_WORD_BITS = 16;
const WORD_MASK = (1 << SEVERITY_WORD_BITS) - 1;
/** Tokens read: an alert or a bug report says how serious it is near its start. */
const SEVERITY_TOKENS = 400;
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
  /** How the words were read when it was fitted (the engine reads them the same way). */
  reading: WordReading;
  /**
   * Where the rules read a stated serious problem (invariants.ts): `floor` the model may add but never take points,
   * `frozen` it says nothing; `none` it reads it like any other text.
   */
  serious: 'none' | 'floor' | 'frozen';
  /** The model says nothing where the rules read no reason at all (words alone, such as a bare template, move nothing). */
  needsReason: boolean;
}

/**
 * How a model reads the words: `negated` a word a negator precedes within 3 tokens of its clause (as the rules read
 * negation: "never critical" is not "critical") kept as the word itself, read as another word (`salt`), or dropped;
 * `placeholders` a template placeholder's name (`<instance>`, `N` for a value, anything inside `{{ }}`) kept or
 * dropped (it names a label, not a severity).
 */
export interface WordReading {
  negated: 'keep' | 'salt' | 'drop';
  placeholders: 'keep' | 'drop';
}
export const PLAIN_READING: WordReading = { negated: 'keep', placeholders: 'keep' };

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
  /** Absent: PLAIN_READING. */
  reading?: WordReading;
  /** Weights per unit of log-odds, when not the file's `scale` (a model of many small word weights needs finer steps). */
  scale?: number;
  /** Absent: `none`. */
  serious?: 'none' | 'floor' | 'frozen';
  /** Absent: false. */
  needs_reason?: boolean;
}

export interface SeverityModelFile {
  format: typeof SEVERITY_MODEL_FORMAT;
  note: string;
  /** Every reason code the engine had when the models were fitted: a code added since is read as weight 0 until a retrain. */
  reason_codes: string[];
  scale: number;
  /** `alert_band`: the alert model that decides an alert's band, `alert` then orders it inside (severity.ts). */
  models: Record<'alert' | 'bug', SeverityModelEntry> & { alert_band?: SeverityModelEntry };
}

/** The models the engine reads; without `alertBand`, the alert model decides an alert's band as well as its order. */
export interface SeverityModels {
  alert: SeverityModel;
  bug: SeverityModel;
  alertBand?: SeverityModel;
}

/** The distinct word buckets of the text in `buf` (subject, body and the split CamelCase words), read as `reading`. */
export function severityWords(buf: TokenBuffer, reading: WordReading = PLAIN_READING): number[] {
  const seen = new Set<number>();
  const plain = reading.negated === 'keep' && reading.placeholders === 'keep';
  const braces = reading.placeholders === 'drop' ? buf.texts.map((t) => t.includes('{{')) : null;
  for (let i = 0; i < buf.count && i < SEVERITY_TOKENS; i++) {
    if (buf.letters(i) === 0) continue;
    let h = buf.h1[i];
    if (!plain) {
      if (braces !== null && isPlaceholder(buf, i, braces[buf.field[i]])) continue;
      if (reading.negated !== 'keep' && negatedAt(buf, i)) {
        if (reading.negated === 'drop') continue;
        h = Math.imul(h ^ NEGATED_SALT, 0x01000193);
      }
    }
    seen.add(h & WORD_MASK);
  }
  return [...seen];
}

const NEGATED_SALT = 0x2c1b3c6d;

/** A template placeholder: `<name>`, a lone capital `N` (a rendered `$value`), or a word inside `{{ }}`. */
function isPlaceholder(buf: TokenBuffer, i: number, braces: boolean): boolean {
  const text = buf.texts[buf.field[i]];
  const s = buf.start[i];
  const e = buf.end[i];
  if (e - s === 1 && text.charCodeAt(s) === 78) return true;
  if (s > 0 && text.charCodeAt(s - 1) === 60 && text.charCodeAt(e) === 62) return true;
  if (!braces) return false;
  const open = text.lastIndexOf('{{', s);
  return open >= 0 && text.lastIndexOf('}}', s) < open;
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

export function modelFromFile(m: SeverityModelEntry, fileScale: number): SeverityModel {
  const scale = m.scale ?? fileScale;
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
    reading: m.reading ?? PLAIN_READING,
    serious: m.serious ?? 'none',
    needsReason: m.needs_reason ?? false,
  };
}

let shipped: SeverityModels | null = null;

/** The shipped models, read on first use (most signals are neither alerts nor tasks). */
export function shippedSeverityModels(): SeverityModels {
  if (shipped === null) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- read on first use, so a cold start that never needs it does not parse it
    const file = require('./severity-model.json') as SeverityModelFile;
    if (file.format !== SEVERITY_MODEL_FORMAT)
      throw new Error(`severity-model.json: format ${String(file.format)}, expected ${String(SEVERITY_MODEL_FORMAT)}`);
    const band = file.models.alert_band;
    shipped = {
      alert: modelFromFile(file.models.alert, file.scale),
      bug: modelFromFile(file.models.bug, file.scale),
      ...(band ? { alertBand: modelFromFile(band, file.scale) } : {}),
    };
  }
  return shipped;
}
