// The e-mail spam model: logistic regression over the features of spam-features.ts, trained by
// bin/train-spam-model.ts on the labeled data (bin/data-splits.ts: never the test split); the weights ship as
// spam-model.json (bucket numbers and integers, no text), loaded on first use into a small weight table. Its log-odds
// are Platt-calibrated on data the weights were not fitted on, so `probability` means what it says and the scorer can
// weigh it.
import * as features from './spam-features';
import { NAMED_FEATURES, SEEN_SIZE, spamFeatures, trigramsRead } from './spam-features';
import type { TokenBuffer } from './tokens';

// Module-local bindings of what spamVerdict's loop reads per feature: not through the module object, which a CommonJS
// host such as tsx or jest turns into getter calls (as phrase-matcher.ts does with the trie's tables).
const { GRAM_FLAG, WORD_BUCKETS, featureId } = features;

export const SPAM_MODEL_FORMAT = 'sas-spam-lr-2';

export interface SpamModelFile {
  format: typeof SPAM_MODEL_FORMAT;
  note: string;
  trained_on: string;
  /** Weights are integers: divide by `scale`. */
  scale: number;
  bias: number;
  /** Platt scaling: p = sigmoid(platt_a * logit + platt_b). */
  platt_a: number;
  platt_b: number;
  /** Word buckets with a weight, ascending, each written as its difference from the one before (the first as itself). */
  bucket_deltas: number[];
  bucket_weights: number[];
  /** Names and weights of the named features, in NAMED_FEATURES order. */
  named: string[];
  named_weights: number[];
  /**
   * Per channel, the calibrated P(spam) from which the model archives on its own: chosen on the DEV split for the
   * error budget (ordinary mail archived <= 0.5% on every development source), so a retrained model carries its own.
   */
  archive_at: ArchiveCuts;
}
/**
 * Cuts per channel; one for a short support message (MIN_SPAM_EVIDENCE to LONG_TEXT_EVIDENCE known words: an SMS, a
 * line in a form), whose ordinary messages do not drift towards spam the way later long mail does; and one for text
 * read mostly by its trigrams (a script without word lists), on any channel.
 */
interface ArchiveCuts {
  email: number;
  support_message: number;
  short_message: number;
  trigram_text: number;
}
/** Known model words below which the model's word counts only as a call that clears the channel's long cut. */
export const MIN_SPAM_EVIDENCE = 6;
/** Known model words from which a text is long (the scorer weighs a long text's vote more). */
export const LONG_TEXT_EVIDENCE = 20;

// Word weights live in a small open-addressing table (128 KB), not a dense 2^18 array (1 MB): a request reads a few
// hundred scattered slots, and between requests the caches are cold; the small table measured about 20 us faster.
const SLOT_BITS = 14;
const SLOTS = 1 << SLOT_BITS;
const slotOf = (f: number) => Math.imul(f, 0x9e3779b1) >>> (32 - SLOT_BITS);

interface LoadedModel {
  /** Word bucket per slot (-1: empty) and its weight. */
  keys: Int32Array;
  values: Float32Array;
  /** Weights of the named features, in NAMED_FEATURES order. */
  named: Float32Array;
  bias: number;
  a: number;
  b: number;
  archiveAt: ArchiveCuts;
}

let loaded: LoadedModel | null = null;

/** The model, read on first use (a require() inside a function stays unevaluated in the bundle until called). */
function spamModel(): LoadedModel {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- read on first use, so a cold start that never needs it does not parse it
  if (loaded === null) loaded = loadModel(require('./spam-model.json') as SpamModelFile);
  return loaded;
}

/** Scores with `file` instead of the shipped model (the trainer's dev figures), or the shipped one again (null). */
export function useSpamModel(file: SpamModelFile | null): void {
  loaded = file === null ? null : loadModel(file);
}

function loadModel(m: SpamModelFile): LoadedModel {
  if (m.format !== SPAM_MODEL_FORMAT)
    throw new Error(`spam-model.json: format ${String(m.format)}, expected ${String(SPAM_MODEL_FORMAT)}`);
  if (m.named.join() !== NAMED_FEATURES.join())
    throw new Error('spam-model.json: its named features differ from the code: retrain');
  if (m.bucket_deltas.length * 2 > SLOTS)
    throw new Error('spam-model.json: more word buckets than the weight table holds');
  const keys = new Int32Array(SLOTS).fill(-1);
  const values = new Float32Array(SLOTS);
  let bucket = 0;
  for (let i = 0; i < m.bucket_deltas.length; i++) {
    bucket += m.bucket_deltas[i];
    let slot = slotOf(bucket);
    while (keys[slot] !== -1) slot = (slot + 1) & (SLOTS - 1);
    keys[slot] = bucket;
    values[slot] = m.bucket_weights[i] / m.scale;
  }
  if (typeof m.archive_at?.short_message !== 'number')
    throw new Error('spam-model.json: archive_at has no short_message cut: retrain');
  const named = Float32Array.from(m.named_weights, (w) => w / m.scale);
  return { keys, values, named, bias: m.bias / m.scale, a: m.platt_a, b: m.platt_b, archiveAt: m.archive_at };
}

const featureScratch = new Int32Array(SEEN_SIZE);

interface SpamVerdict {
  /** Calibrated probability that the text is spam. */
  probability: number;
  /** Word features of the text the model has a weight for (how much it had to go on). */
  evidence: number;
  /** The text is Thai (TRIGRAM_TEXT_GRAMS trigrams or more): its own archive cut applies. */
  trigramText: boolean;
}

/** The calibrated P(spam) from which a channel's mail is archived on the model's word (the model file's error budget). */
export const spamArchiveThreshold = (channel: keyof ArchiveCuts): number => spamModel().archiveAt[channel];

/**
 * The cut a verdict must clear to archive on the model's word: Thai text's own; a short support message's own (chosen
 * on the short DEV messages: an SMS sits at a lower p than a spam mail); otherwise the channel's. With fewer than
 * MIN_SPAM_EVIDENCE known words, the channel's long cut (a few words are no basis for a lower one).
 */
export function spamArchiveCut(channel: 'email' | 'support_message', verdict: SpamVerdict): number {
  const cuts = spamModel().archiveAt;
  if (verdict.trigramText) return cuts.trigram_text;
  const short = verdict.evidence >= MIN_SPAM_EVIDENCE && verdict.evidence < LONG_TEXT_EVIDENCE;
  return channel === 'support_message' && short ? cuts.short_message : cuts[channel];
}

/** Character trigrams of another script count as this many to one known word when the verdict says what it read. */
export const GRAMS_PER_WORD = 4;
/** From this many Thai trigrams a text is Thai (a sentence or two), whatever Latin links and codes sit beside it. */
export const TRIGRAM_TEXT_GRAMS = 8;

/** The model's calibrated verdict on the tokens in `buf` and the sender. */
export function spamVerdict(buf: TokenBuffer, sender: string | null | undefined): SpamVerdict {
  const n = spamFeatures(buf, sender, featureScratch);
  const { keys, values, named, bias, a, b } = spamModel();
  let z = bias;
  let known = 0;
  let knownGrams = 0;
  for (let i = 0; i < n; i++) {
    const flagged = featureScratch[i];
    const f = featureId(flagged);
    if (f >= WORD_BUCKETS) {
      z += named[f - WORD_BUCKETS];
      continue;
    }
    for (let slot = slotOf(f); keys[slot] !== -1; slot = (slot + 1) & (SLOTS - 1)) {
      if (keys[slot] === f) {
        z += values[slot];
        if (f === flagged) known++;
        else if ((flagged & GRAM_FLAG) !== 0) knownGrams++;
        break;
      }
    }
  }
  return {
    probability: 1 / (1 + Math.exp(-(a * z + b))),
    evidence: known + Math.floor(knownGrams / GRAMS_PER_WORD),
    trigramText: trigramsRead() >= TRIGRAM_TEXT_GRAMS,
  };
}
