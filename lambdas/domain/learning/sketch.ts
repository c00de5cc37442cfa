// The one-way sketch of a signal that learning keeps: keyed hashes of its words, word pairs and sender, reduced to
// bucket numbers. No text survives: order and repetition are dropped, every bucket is shared by thousands of possible
// words, and the hash key belongs to one workspace (see docs/learning.md).
import { randomBytes } from 'node:crypto';
import { parseSender } from '../engine/metadata';
import { composed } from '../composed-text';
import { type HalfSipKey, halfSipHash, halfSipKey } from './half-siphash';

/** Text buckets per workspace (2^14): bounds a label's text counts to 16,384 entries. */
export const TEXT_BUCKETS = 1 << 14;
/** Sender and domain buckets per workspace. */
export const SENDER_BUCKETS = 1 << 14;
/** At most this many distinct text buckets are kept per signal (the first words count). */
export const MAX_SKETCH_FEATURES = 96;
/** Characters of subject and body that are sketched. */
const SCAN_CHARS = 1_200;

/**
 * What a sketch's buckets mean. 1: words, four-letter stems, word pairs. 2: the same, then each word's character
 * 4-grams (typos and inflections share them). A workspace's format rides with its sketch key for its whole life (the
 * key outlives a reset), so one workspace's counts and stored sketches never mix the two meanings.
 */
export type SketchFormat = 1 | 2;
/** The format new workspaces sketch in. */
export const CURRENT_SKETCH_FORMAT: SketchFormat = 2;

/** A workspace's hash key and the sketch format its counts are in. */
export interface SketchKey extends HalfSipKey {
  format: SketchFormat;
}

/**
 * A workspace's sketch key as stored on its model item: 16 hex digits (format 1, every workspace made before
 * format 2), or `2.` and 16 hex digits.
 */
export function sketchKeyOf(stored: string): SketchKey {
  const format: SketchFormat = stored.startsWith('2.') ? 2 : 1;
  return { ...halfSipKey(Buffer.from(format === 2 ? stored.slice(2) : stored, 'hex')), format };
}

/** A new workspace's sketch key, in the current format. */
export const newSketchKey = (): string => `${CURRENT_SKETCH_FORMAT}.${randomBytes(8).toString('hex')}`;

export interface Sketch {
  /** Distinct text buckets, ascending. */
  t: number[];
  /** The format its buckets are in; absent: 1. */
  f?: SketchFormat;
  /** Bucket of the sender's address, when there is one. */
  s?: number;
  /** Bucket of the sender's domain (and of each parent domain it has, the first being the full domain). */
  d?: number;
}

const encoder = new TextEncoder();
const TOKEN = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;
/** Letters of a longer word kept as its stem. */
const STEM = 4;
/** A feature is hashed on its first 300 UTF-16 units. */
const FEATURE_UNITS = 300;

// The definition of the sketch, and the path for text the fast scanner below does not handle (letters outside the
// Basic Multilingual Plane, 'İ', 'Σ'): the first 1,200 characters of the composed text (composed-text.ts),
// lower-cased, cut into tokens by TOKEN (apostrophes dropped); features `w <word>`, `p <first 4 letters>` (words
// longer than 4), `b <previous word> <word>`, and in format 2 `c <4 characters>` for each window of `#<word>#` (words
// of 2 or more characters), in this order, each UTF-8 encoded (its first 300 UTF-16 units) and hashed; the first 96
// distinct buckets are kept.
// test/support/reference-learning.ts keeps this definition as the oracle both paths are tested against.
function tokens(text: string): string[] {
  const out: string[] = [];
  for (const m of text.slice(0, SCAN_CHARS).toLowerCase().matchAll(TOKEN)) out.push(m[0].replace(/['’]/g, ''));
  return out;
}

const FEATURE = new Uint8Array(1_024);
function bucket(key: HalfSipKey, feature: string, size: number): number {
  // Features are short: encode into one reused buffer, and hash its first `written` bytes (no view per feature).
  const { written } = encoder.encodeInto(
    feature.length <= FEATURE_UNITS ? feature : feature.slice(0, FEATURE_UNITS),
    FEATURE,
  );
  return halfSipHash(key, FEATURE, written) % size;
}

/** Characters of a character n-gram (format 2). */
const GRAM = 4;

function sketchTextSlow(key: HalfSipKey, text: string, out: number[], format: SketchFormat): void {
  const words = tokens(text);
  const add = (feature: string) => {
    const b = bucket(key, feature, TEXT_BUCKETS);
    if (!out.includes(b)) out.push(b);
    return out.length >= MAX_SKETCH_FEATURES;
  };
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (add(`w ${w}`)) return;
    if (w.length > STEM && add(`p ${w.slice(0, STEM)}`)) return;
    if (i > 0 && add(`b ${words[i - 1]} ${w}`)) return;
    if (format === 1) continue;
    const marked = [...`#${w}#`];
    for (let j = 0; j + GRAM <= marked.length; j++) if (add(`c ${marked.slice(j, j + GRAM).join('')}`)) return;
  }
}

// The fast scanner: the same tokens and features, read straight from the string into UTF-8 bytes, with no string,
// regex or encoder per word. It handles every UTF-16 unit whose lower case is one unit that depends on no context
// (all of the Basic Multilingual Plane but 'İ' and 'Σ'), and surrogates that are not letters or digits (emoji:
// separators, as for TOKEN); on anything else it gives up and the text takes the path above.
const K_SEP = 1;
const K_WORD = 2; // a letter or a digit, after lower-casing
const K_LETTER = 4;
const K_APOS = 8;
const K_SURROGATE = 16;
const K_SLOW = 32;
/** Per UTF-16 unit, filled on first sight: its kind (0 = not yet seen) and its lower case. */
const KIND = new Uint8Array(65_536);
const LOWER = new Uint16Array(65_536);
const IS_LETTER = /^\p{L}$/u;
const IS_WORD = /^[\p{L}\p{N}]$/u;

function kindOf(c: number): number {
  let k: number;
  if (c >= 0xd800 && c <= 0xdfff) k = K_SURROGATE;
  else if (c === 0x27 || c === 0x2019) k = K_APOS;
  else {
    const lower = String.fromCharCode(c).toLowerCase();
    if (lower.length !== 1 || c === 0x3a3) k = K_SLOW;
    else {
      LOWER[c] = lower.charCodeAt(0);
      k = IS_LETTER.test(lower) ? K_WORD | K_LETTER : IS_WORD.test(lower) ? K_WORD : K_SEP;
    }
  }
  KIND[c] = k;
  return k;
}

/** At a surrogate: true when it starts a letter or digit outside the BMP (the fast scanner gives up there). */
function surrogateIsWord(text: string, i: number, n: number): boolean {
  const c = text.charCodeAt(i);
  if (c > 0xdbff || i + 1 >= n) return false;
  const d = text.charCodeAt(i + 1);
  if (d < 0xdc00 || d > 0xdfff) return false;
  return IS_WORD.test(text.slice(i, i + 2));
}

/** The words' UTF-8 bytes (1,200 units of at most 3 bytes), and the feature being hashed. */
const WORDS = new Uint8Array(4_096);
const SCRATCH = new Uint8Array(8_192);
/** Which text buckets this sketch already holds (cleared after each sketch). */
const SEEN = new Uint8Array(TEXT_BUCKETS);

function putLower(c: number, at: number): number {
  const u = LOWER[c];
  if (u < 0x80) {
    WORDS[at] = u;
    return at + 1;
  }
  if (u < 0x800) {
    WORDS[at] = 0xc0 | (u >> 6);
    WORDS[at + 1] = 0x80 | (u & 63);
    return at + 2;
  }
  WORDS[at] = 0xe0 | (u >> 12);
  WORDS[at + 1] = 0x80 | ((u >> 6) & 63);
  WORDS[at + 2] = 0x80 | (u & 63);
  return at + 3;
}

/** Copies WORDS[from, to) to SCRATCH at `at` (a loop: words are a few bytes, shorter than a view and a set). */
function copyWord(from: number, to: number, at: number): void {
  for (let i = from; i < to; i++) SCRATCH[at++] = WORDS[i];
}

/** Bytes of the first `units` characters of UTF-8 text with no surrogates (one unit per character). */
function bytesOfUnits(buf: Uint8Array, from: number, to: number, units: number): number {
  let i = from;
  for (let seen = 0; i < to; i++) {
    if ((buf[i] & 0xc0) !== 0x80) {
      if (seen === units) break;
      seen++;
    }
  }
  return i - from;
}

/** Hashes SCRATCH[0, bytes) (a feature of `units` UTF-16 units); true when the sketch is full. */
function addFeature(key: HalfSipKey, bytes: number, units: number, out: number[]): boolean {
  const len = units <= FEATURE_UNITS ? bytes : bytesOfUnits(SCRATCH, 0, bytes, FEATURE_UNITS);
  const b = halfSipHash(key, SCRATCH, len) % TEXT_BUCKETS;
  if (SEEN[b] === 0) {
    SEEN[b] = 1;
    out.push(b);
  }
  return out.length >= MAX_SKETCH_FEATURES;
}

/** The text buckets in `out`, in the order first met; false (and `out` empty) when the text needs the slow path. */
/** Byte offsets in WORDS of a word's characters (and of its end), for its character n-grams. */
const CHAR_AT = new Int32Array(SCAN_CHARS + 1);

/** Hashes `c <4 characters>` for each window of `#<word>#`, the word being WORDS[start, end) of `units` characters. */
function addGrams(key: HalfSipKey, start: number, end: number, units: number, out: number[]): boolean {
  if (units + 2 < GRAM) return false;
  let k = 0;
  for (let i = start; i < end; i++) if ((WORDS[i] & 0xc0) !== 0x80) CHAR_AT[k++] = i;
  CHAR_AT[k] = end;
  SCRATCH[0] = 0x63;
  SCRATCH[1] = 0x20;
  // Window j covers marked characters j..j+3; marked character m is '#' (m = 0 or units + 1) or word character m - 1.
  for (let j = 0; j + GRAM <= units + 2; j++) {
    let at = 2;
    for (let m = j; m < j + GRAM; m++) {
      if (m === 0 || m === units + 1) SCRATCH[at++] = 0x23;
      else for (let b = CHAR_AT[m - 1]; b < CHAR_AT[m]; b++) SCRATCH[at++] = WORDS[b];
    }
    if (addFeature(key, at, 2 + GRAM, out)) return true;
  }
  return false;
}

function sketchTextFast(key: HalfSipKey, text: string, out: number[], format: SketchFormat): boolean {
  const n = text.length < SCAN_CHARS ? text.length : SCAN_CHARS;
  let at = 0; // end of the bytes written to WORDS
  let prevStart = -1;
  let prevUnits = 0;
  let i = 0;
  while (i < n) {
    let c = text.charCodeAt(i);
    let k = KIND[c] || kindOf(c);
    if ((k & K_WORD) === 0) {
      if (k & K_SLOW) return false;
      if (k & K_SURROGATE && surrogateIsWord(text, i, n)) return false;
      i++;
      continue;
    }
    // A token: letters and digits, then optionally an apostrophe and letters (the apostrophe is dropped).
    const start = at;
    let units = 0;
    let wanted = K_WORD;
    for (;;) {
      at = putLower(c, at);
      units++;
      if (++i >= n) break;
      c = text.charCodeAt(i);
      k = KIND[c] || kindOf(c);
      if ((k & wanted) !== 0) continue;
      if (k & K_SLOW) return false;
      if (k & K_SURROGATE && surrogateIsWord(text, i, n)) return false;
      if (wanted === K_LETTER || (k & K_APOS) === 0 || i + 1 >= n) break;
      const next = text.charCodeAt(i + 1);
      const nk = KIND[next] || kindOf(next);
      if (nk & K_SLOW) return false;
      if (nk & K_SURROGATE && surrogateIsWord(text, i + 1, n)) return false;
      if ((nk & K_LETTER) === 0) break;
      i++;
      c = next;
      wanted = K_LETTER;
    }
    const bytes = at - start;
    // w <word>
    SCRATCH[0] = 0x77;
    SCRATCH[1] = 0x20;
    copyWord(start, at, 2);
    if (addFeature(key, 2 + bytes, 2 + units, out)) return true;
    // p <stem>
    if (units > STEM) {
      SCRATCH[0] = 0x70;
      if (addFeature(key, 2 + bytesOfUnits(WORDS, start, at, STEM), 2 + STEM, out)) return true;
    }
    // b <previous> <word>
    if (prevStart >= 0) {
      const prevBytes = start - prevStart;
      SCRATCH[0] = 0x62;
      copyWord(prevStart, start, 2);
      SCRATCH[2 + prevBytes] = 0x20;
      copyWord(start, at, 3 + prevBytes);
      if (addFeature(key, 3 + prevBytes + bytes, 3 + prevUnits + units, out)) return true;
    }
    if (format === 2 && addGrams(key, start, at, units, out)) return true;
    prevStart = start;
    prevUnits = units;
  }
  return true;
}

/**
 * Address and domain of a sender like `Ann <ann@acme.com>`, lower-cased, a domain in Unicode in its ASCII form (an
 * ASCII one as sent, so its buckets are those it always had); undefined when it holds no address. Read as the engine
 * reads it (engine/metadata.ts, parseSender), so the policy's sender lists, learning and the engine's own
 * `metadata.vip_senders` agree on who sent a signal: the address in brackets wherever it stands, one in the display
 * name (`ceo@acme.com <x@evil.example>`) being only a name.
 */
export function senderParts(sender: string | undefined): { address: string; domain: string } | undefined {
  const parsed = parseSender(sender);
  return parsed ? { address: parsed.address, domain: parsed.domain } : undefined;
}

const SORT = new Int32Array(MAX_SKETCH_FEATURES);
/** Ascending, in place: a typed array's native numeric sort (a comparator in JS was a third of the sketch's time). */
function sortBuckets(t: number[]): number[] {
  const n = t.length;
  const view = n === SORT.length ? SORT : SORT.subarray(0, n);
  for (let i = 0; i < n; i++) view[i] = t[i];
  view.sort();
  for (let i = 0; i < n; i++) t[i] = view[i];
  return t;
}

/** The text learning sketches and policy keywords are matched in: subject, a line break, body. */
export const signalText = (signal: { subject?: string; body?: string }): string =>
  `${signal.subject ?? ''}\n${signal.body ?? ''}`;

/** `text` is signalText(signal), passed in where the caller has it already. */
export function sketchSignal(
  key: HalfSipKey & { format?: SketchFormat },
  signal: { subject?: string; body?: string; sender?: string },
  text: string = signalText(signal),
): Sketch {
  const format = key.format ?? 1;
  const t: number[] = [];
  // Composed, as keywords are matched: text sent decomposed (u + U+0308) finds what its composed form taught. Only
  // the first SCAN_CHARS are read; twice as many are composed, so a sequence cut at the slice lies beyond them.
  text = composed(text.length > 2 * SCAN_CHARS ? text.slice(0, 2 * SCAN_CHARS) : text);
  const fast = sketchTextFast(key, text, t, format);
  for (const b of t) SEEN[b] = 0;
  if (!fast) {
    t.length = 0;
    sketchTextSlow(key, text, t, format);
  }
  const sketch: Sketch = { t: sortBuckets(t) };
  if (format !== 1) sketch.f = format;
  const parts = senderParts(signal.sender);
  if (parts) {
    sketch.s = bucket(key, `s ${parts.address}`, SENDER_BUCKETS);
    sketch.d = bucket(key, `d ${parts.domain}`, SENDER_BUCKETS);
  }
  return sketch;
}

/**
 * Compact binary form stored beside a decision (a DynamoDB binary attribute, 2 bytes a bucket): a flag byte (bit 0:
 * a sender is present; bit 1: format 2), then sender and domain buckets when present, then the text buckets. 96
 * features cost 193 bytes (197 with a sender), so a decision item stays in one write unit.
 */
export function encodeSketch(sketch: Sketch): Uint8Array {
  const withSender = sketch.s !== undefined;
  const t = sketch.t;
  const out = new Uint8Array(1 + 2 * (t.length + (withSender ? 2 : 0)));
  out[0] = (withSender ? 1 : 0) | (sketch.f === 2 ? 2 : 0);
  const first = withSender ? 5 : 1;
  if (withSender) {
    const d = sketch.d ?? 0;
    out[1] = sketch.s! >>> 8;
    out[2] = sketch.s! & 0xff;
    out[3] = d >>> 8;
    out[4] = d & 0xff;
  }
  for (let i = 0; i < t.length; i++) {
    out[first + 2 * i] = t[i] >>> 8;
    out[first + 2 * i + 1] = t[i] & 0xff;
  }
  return out;
}

export function decodeSketch(bytes: Uint8Array): Sketch {
  const values: number[] = [];
  for (let i = 1; i + 1 < bytes.length; i += 2) values.push(((bytes[i] << 8) | bytes[i + 1]) % TEXT_BUCKETS);
  const format: Partial<Sketch> = bytes[0] & 2 ? { f: 2 } : {};
  if (bytes[0] & 1 && values.length >= 2) {
    const [s, d, ...t] = values;
    return { t, s: s % SENDER_BUCKETS, d: d % SENDER_BUCKETS, ...format };
  }
  return { t: values, ...format };
}
