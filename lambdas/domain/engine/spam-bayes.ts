// The e-mail spam model: naive Bayes over hashed words of the subject and body (binarized: each word counts once),
// plus a few shape features. Trained by bin/train-spam-bayes.ts on the training split (bin/data-splits.ts) of the
// SpamAssassin development corpus, the SMS Spam Collection and Enron business mail (as ordinary mail); the weights
// ship as spam-bayes.json (hashes and integers, no text). Its raw log-odds are calibrated on the dev split (Platt
// scaling), so `probability` means what it says and the scorer can weigh it against the other evidence.
import { mixHash, type TokenBuffer } from './tokens';

/** Only the first tokens of subject + body feed the model: bounded cost on long mail. */
export const MODEL_TOKENS = 600;

// Shape features, as fixed pseudo-hashes (outside what a 30-bit word hash collides with in practice).
const NUM_SHAPES = [0x40000001, 0x40000002, 0x40000003, 0x40000004, 0x40000005];
const F_CURRENCY = 0x40000011;
const F_BANGS = 0x40000012;
const F_CAPS = 0x40000013;
const F_LEN = [0x40000021, 0x40000022, 0x40000023, 0x40000024, 0x40000025];
const F_NO_SUBJECT = 0x40000031;
const SUBJECT_SALT = 0x2545f491;

function numShape(digits: number): number {
  if (digits <= 2) return NUM_SHAPES[0];
  if (digits <= 4) return NUM_SHAPES[1];
  if (digits <= 6) return NUM_SHAPES[2];
  if (digits <= 10) return NUM_SHAPES[3];
  return NUM_SHAPES[4];
}

const SEEN_SIZE = 2048; // power of two, > 2 * (MODEL_TOKENS + 8)
const seenKeys = new Int32Array(SEEN_SIZE);
const seenStamp = new Int32Array(SEEN_SIZE);
let stamp = 0;

/**
 * Writes the distinct feature ids of the first MODEL_TOKENS subject/body tokens in `buf` into `out` and returns how
 * many. Deterministic and allocation-free; the trainer calls the same function.
 */
export function spamFeatures(buf: TokenBuffer, out: Int32Array): number {
  stamp++;
  if (stamp === 0x7fffffff) {
    stamp = 1;
    seenStamp.fill(0);
  }
  written = 0;
  target = out;
  let tokens = 0;
  let subject = 0;
  for (let i = 0; i < buf.count && tokens < MODEL_TOKENS; i++) {
    const field = buf.field[i];
    if (field > 1) break;
    const id = buf.digits[i] > 0 && buf.letters(i) === 0 ? numShape(buf.digits[i]) : buf.h1[i];
    if (field === 0) {
      add(mixHash(SUBJECT_SALT, id));
      subject++;
    } else add(id);
    tokens++;
  }
  if (subject === 0) add(F_NO_SUBJECT);
  if (buf.currency > 0) add(F_CURRENCY);
  if (buf.bangRuns[0] + buf.bangRuns[1] > 0) add(F_BANGS);
  const up = buf.upper[0] + buf.upper[1];
  const low = buf.lower(0) + buf.lower(1);
  if (up >= 10 && up > low) add(F_CAPS);
  add(tokens <= 15 ? F_LEN[0] : tokens <= 60 ? F_LEN[1] : tokens <= 200 ? F_LEN[2] : tokens < MODEL_TOKENS ? F_LEN[3] : F_LEN[4]);
  return written;
}

// The distinct-feature set of the current spamFeatures call (module state: no closure per call).
let written = 0;
let target: Int32Array = new Int32Array(0);
function add(f: number): void {
  let slot = (f ^ (f >>> 11)) & (SEEN_SIZE - 1);
  for (;;) {
    if (seenStamp[slot] !== stamp) {
      seenStamp[slot] = stamp;
      seenKeys[slot] = f;
      target[written++] = f;
      return;
    }
    if (seenKeys[slot] === f) return;
    slot = (slot + 1) & (SEEN_SIZE - 1);
  }
}

export const SPAM_MODEL_FORMAT = 'sas-spam-nb-1';

export interface SpamModelFile {
  format: typeof SPAM_MODEL_FORMAT;
  note: string;
  trained_on: string;
  /** Log prior odds, times `scale`. */
  prior: number;
  scale: number;
  /** Platt scaling fitted on the dev split: p = sigmoid(platt_a * logit + platt_b). */
  platt_a: number;
  platt_b: number;
  /** Feature ids in ascending order, each written as its difference from the one before (the first as itself). */
  key_deltas: number[];
  /** Log-likelihood ratios, times `scale`. */
  weights: number[];
}

interface LoadedModel {
  weights: Map<number, number>;
  prior: number;
  a: number;
  b: number;
}

let loaded: LoadedModel | null = null;
// A 64 Kbit pre-filter: most tokens are not model features, so they skip the Map lookup.
const FILTER = new Uint8Array(65536);

/** The model, read on first use (a require() inside a function stays unevaluated in the bundle until called). */
function spamModel(): LoadedModel {
  if (loaded === null) {
    const m = require('./spam-bayes.json') as SpamModelFile;
    if (m.format !== SPAM_MODEL_FORMAT) throw new Error(`spam-bayes.json: format ${m.format}, expected ${SPAM_MODEL_FORMAT}`);
    const weights = new Map<number, number>();
    let key = 0;
    for (let i = 0; i < m.key_deltas.length; i++) {
      key += m.key_deltas[i];
      weights.set(key, m.weights[i] / m.scale);
      FILTER[key & 0xffff] = 1;
    }
    loaded = { weights, prior: m.prior / m.scale, a: m.platt_a, b: m.platt_b };
  }
  return loaded;
}

const featureScratch = new Int32Array(SEEN_SIZE);

export interface SpamVerdict {
  /** Calibrated probability that the text is spam. */
  probability: number;
  /** Features of the text the model knows (how much it had to go on). */
  evidence: number;
}

/** The model's calibrated verdict on the tokens in `buf`. */
export function spamVerdict(buf: TokenBuffer): SpamVerdict {
  const n = spamFeatures(buf, featureScratch);
  const { weights: W, prior, a, b } = spamModel();
  let z = prior;
  let known = 0;
  for (let i = 0; i < n; i++) {
    const f = featureScratch[i];
    if (FILTER[f & 0xffff] === 1) {
      const w = W.get(f);
      if (w !== undefined) {
        z += w;
        known++;
      }
    }
  }
  return { probability: 1 / (1 + Math.exp(-(a * z + b))), evidence: known };
}
