// A small logistic-regression spam model over hashed words, word pairs and a few shape features.
// Trained by bin/train-spam-model.ts on the training split of the SMS Spam Collection only; the
// weights ship as spam-model.json (hashes and integers, no text). The scorer treats it as one
// piece of evidence: it can never archive a signal that reports a problem.
import { mixHash, type TokenBuffer } from './scorer-text';

/** Only the first tokens of subject + body feed the model: SMS-sized evidence, bounded cost. */
export const MODEL_TOKENS = 120;

// Shape features, as fixed pseudo-hashes (outside what a word hash collides with in practice).
const NUM_SHAPES = [0x1000001, 0x1000002, 0x1000003, 0x1000004, 0x1000005];
const F_CURRENCY = 0x1000011;
const F_BANGS = 0x1000012;
const F_CAPS = 0x1000013;
const F_LEN = [0x1000021, 0x1000022, 0x1000023, 0x1000024];
const BIGRAM_START = 0x1000031;

function numShape(digits: number): number {
  if (digits <= 2) return NUM_SHAPES[0];
  if (digits <= 4) return NUM_SHAPES[1];
  if (digits <= 6) return NUM_SHAPES[2];
  if (digits <= 10) return NUM_SHAPES[3];
  return NUM_SHAPES[4];
}

const SEEN_SIZE = 1024; // power of two, > 2 * (2 * MODEL_TOKENS + 8)
const seenKeys = new Int32Array(SEEN_SIZE);
const seenStamp = new Int32Array(SEEN_SIZE);
let stamp = 0;

/**
 * Writes the distinct feature ids of the signal's first MODEL_TOKENS subject/body tokens into
 * `out` and returns how many. Deterministic; allocation-free.
 */
export function spamFeatures(buf: TokenBuffer, out: Int32Array): number {
  stamp++;
  if (stamp === 0x7fffffff) {
    stamp = 1;
    seenStamp.fill(0);
  }
  let n = 0;
  const add = (f: number): void => {
    let slot = f & (SEEN_SIZE - 1);
    for (;;) {
      if (seenStamp[slot] !== stamp) {
        seenStamp[slot] = stamp;
        seenKeys[slot] = f;
        out[n++] = f;
        return;
      }
      if (seenKeys[slot] === f) return;
      slot = (slot + 1) & (SEEN_SIZE - 1);
    }
  };
  let prev = BIGRAM_START;
  let tokens = 0;
  for (let i = 0; i < buf.count && tokens < MODEL_TOKENS; i++) {
    if (buf.field[i] > 1) break;
    const id = buf.digits[i] > 0 && buf.letters(i) === 0 ? numShape(buf.digits[i]) : buf.h1[i];
    add(id);
    add(mixHash(prev, id));
    prev = id;
    tokens++;
  }
  if (buf.currency > 0) add(F_CURRENCY);
  if (buf.bangRuns[0] + buf.bangRuns[1] > 0) add(F_BANGS);
  const up = buf.upper[0] + buf.upper[1];
  const low = buf.lower(0) + buf.lower(1);
  if (up >= 10 && up > low) add(F_CAPS);
  add(tokens <= 5 ? F_LEN[0] : tokens <= 15 ? F_LEN[1] : tokens <= 30 ? F_LEN[2] : F_LEN[3]);
  return n;
}

export const SPAM_MODEL_FORMAT = 'sas-spam-lr-2';

export interface SpamModelFile {
  format: typeof SPAM_MODEL_FORMAT;
  note: string;
  trained_on: string;
  bias: number;
  scale: number;
  threshold: number;
  /** Feature ids in ascending order, each written as its difference from the one before (the first as itself). */
  key_deltas: number[];
  weights: number[];
}

interface LoadedModel {
  weights: Map<number, number>;
  bias: number;
  /** Logit at and above which the model's vote counts as spam evidence. */
  threshold: number;
  /** Logit at and above which the model is very confident. */
  strong: number;
}

let loaded: LoadedModel | null = null;
// A 64 Kbit pre-filter: most tokens are not model features, so they skip the Map lookup.
const FILTER = new Uint8Array(65536);

/**
 * The model, read on first use: most signals never reach it (see scoreSignal), so module load skips both the
 * weights table and its 12 KB of JSON (a require() inside a function stays unevaluated in the bundle until called).
 */
export function spamModel(): LoadedModel {
  if (loaded === null) {
    const m = require('./spam-model.json') as SpamModelFile;
    if (m.format !== SPAM_MODEL_FORMAT) throw new Error(`spam-model.json: format ${m.format}, expected ${SPAM_MODEL_FORMAT}`);
    const weights = new Map<number, number>();
    let key = 0;
    for (let i = 0; i < m.key_deltas.length; i++) {
      key += m.key_deltas[i];
      weights.set(key, m.weights[i] / m.scale);
      FILTER[key & 0xffff] = 1;
    }
    const threshold = m.threshold / m.scale;
    loaded = { weights, bias: m.bias / m.scale, threshold, strong: threshold + 3 };
  }
  return loaded;
}

const featureScratch = new Int32Array(SEEN_SIZE);

/** The model's logit (log-odds of spam) for the tokens in `buf`. */
export function spamLogit(buf: TokenBuffer): number {
  const n = spamFeatures(buf, featureScratch);
  const { weights: W, bias } = spamModel();
  let z = bias;
  for (let i = 0; i < n; i++) {
    const f = featureScratch[i];
    if (FILTER[f & 0xffff] === 1) {
      const w = W.get(f);
      if (w !== undefined) z += w;
    }
  }
  return z;
}
