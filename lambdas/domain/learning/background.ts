// Generic text's side of the learned priority's "like the history" test (issue 31; docs/decision-engine-warm.md,
// "Warm"). A signal is like a workspace's history only if its words are not much likelier under generic text (ordinary
// mail and SMS, bin/train-background.ts) than under the taught priorities: words every text has fill a history's
// buckets too, and read against a uniform spread over the buckets alone they carry ordinary mail over the bar. The
// background's buckets are those of a fixed, public key, so the signal is sketched once more under that key; both
// sides are read per feature.
import { ALPHA } from './predict';
import { type SketchKey, TEXT_BUCKETS, sketchKeyOf, sketchSignal } from './sketch';

/** The background's sketch key: fixed and public (no workspace's), in sketch format 2. */
export const BACKGROUND_KEY = '2.6267746578743331';
export const BACKGROUND_FORMAT = 2;

/**
 * A fixed text whose sketch under the background's key the file records (`probe`): the counts mean what the sketch
 * means only while the two agree, so a change to the sketch's features shows as a failing test until the file is
 * rebuilt (test/unit/background-model.test.ts).
 */
export const BACKGROUND_PROBE =
  'Thanks for the update: the invoice for the office move is attached, see you on Monday.';

export interface BackgroundFile {
  format: number;
  key: string;
  /** The text buckets of BACKGROUND_PROBE's sketch under `key` when the file was built. */
  probe: number[];
  /** Texts counted; each adds one to every distinct text bucket of its sketch. */
  documents: number;
  /** The counts' sum. */
  total: number;
  /**
   * Per text bucket (TEXT_BUCKETS of them), the texts whose sketch holds it: 16-bit little-endian counts in base64
   * (one string, not 16,384 numbers for every cold start to parse: docs/performance.md).
   */
  counts: string;
}

/** A background bucket's count from the decoded counts (16-bit little-endian). */
export const countAt = (bytes: Uint8Array, bucket: number): number => bytes[2 * bucket] | (bytes[2 * bucket + 1] << 8);

// Decoded on the first learned priority of a container (a base64 string: well under a millisecond); each bucket's
// log ratio is worked out as a signal reads it, so no table of 16,384 logs is built on a cold start.
let loaded: { key: SketchKey; bytes: Uint8Array; logOffset: number } | undefined;
function load(): NonNullable<typeof loaded> {
  if (loaded) return loaded;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- read on first use, as the engine's models are
  const file = require('./background-model.json') as BackgroundFile;
  // The same smoothing as a taught priority's text (predict.ts), so the two log-likelihoods compare.
  // Per feature: log((count + ALPHA) / (total + ALPHA x buckets)) against the uniform 1 / buckets.
  const logOffset = Math.log(TEXT_BUCKETS) - Math.log(file.total + ALPHA * TEXT_BUCKETS);
  loaded = { key: sketchKeyOf(file.key), bytes: Buffer.from(file.counts, 'base64'), logOffset };
  return loaded;
}

/**
 * The signal's text log-likelihood under generic text against the uniform spread over the buckets, per feature: the
 * figure a taught priority's own (predict.ts, LabelShare.textPerFeature) is compared with. Format 2 sketches only.
 */
export function backgroundPerFeature(signal: { subject?: string; body?: string }, text?: string): number {
  const { key, bytes, logOffset } = load();
  const t = sketchSignal(key, signal, text).t;
  let sum = 0;
  for (const b of t) sum += Math.log(countAt(bytes, b) + ALPHA);
  return t.length === 0 ? 0 : sum / t.length + logOffset;
}
