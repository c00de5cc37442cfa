// One-pass tokenizer shared by the scorer and the spam-model trainer (bin/train-spam-model.ts).
// Tokens are never materialized as strings: each gets a 30-bit hash of its folded form (lowercase,
// diacritics stripped), which keeps the hot path allocation-free and fast. A second, independent
// hash is computed only for tokens that match the lexicon, to rule out collisions.
import { Buffer } from 'node:buffer';
import { isCompatLatin } from '../compat-latin';

/** Most tokens kept per signal; text beyond this is ignored (deterministically). */
export const MAX_TOKENS = 6000;

// Per UTF-16 code unit: FAST holds the folded code unit of a one-unit word character, 0 for a
// separator, SLOW for anything that needs the slow path (not yet classified, combining marks,
// two-unit folds such as ß -> ss). Classification beyond ASCII is lazy and cached.
const SLOW = 0xffff;
const FAST = new Uint16Array(65536).fill(SLOW);
const CLS = new Uint8Array(65536); // 0 unknown, 1 separator, 2 word, 3 combining mark
const FOLD_A = new Uint16Array(65536);
const FOLD_B = new Uint16Array(65536); // second unit of a two-unit fold, else 0

const LETTER_RE = /^[\p{L}\p{N}]$/u;
const MARK_RE = /^\p{M}$/u;
const MARKS_RE = /\p{M}/gu;
const SPECIAL_FOLDS: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ł: 'l', ı: 'i', þ: 'th' };

function classify(c: number): void {
  const ch = String.fromCharCode(c);
  if (c >= 0xd800 && c <= 0xdfff) {
    CLS[c] = 1;
    FAST[c] = 0;
  } else if (MARK_RE.test(ch)) {
    CLS[c] = 3;
  } else if (!LETTER_RE.test(ch)) {
    CLS[c] = 1;
    FAST[c] = 0;
  } else {
    CLS[c] = 2;
    // Full-width Latin and ligatures (compat-latin.ts) as the letters they stand for, still neither ASCII capitals nor
    // digits to the counts below.
    const lower = (isCompatLatin(c) ? ch.normalize('NFKC') : ch).toLowerCase();
    let folded = SPECIAL_FOLDS[lower] ?? lower.normalize('NFD').replace(MARKS_RE, '');
    if (folded.length === 0 || folded.length > 2) folded = lower.length === 1 ? lower : ch;
    FOLD_A[c] = folded.charCodeAt(0);
    FOLD_B[c] = folded.length === 2 ? folded.charCodeAt(1) : 0;
    if (FOLD_B[c] === 0 && FOLD_A[c] !== 0 && FOLD_A[c] !== SLOW) FAST[c] = FOLD_A[c];
  }
}

// ASCII up front, by rule (what classify() gives it: letters and digits are word characters,
// capitals fold to lower case), and the typographic apostrophe (a separator, as classify() finds: the lexicon's
// negators and first words hashed at load hold it, and its first sight would compile the Unicode property
// regexes at load); everything else on first sight. The Unicode property regexes and NFD cost about 1 ms at
// module load for the 592 Latin code units alone.
for (let c = 0; c < 128; c++) {
  const upper = c >= 65 && c <= 90;
  const word = upper || (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
  CLS[c] = word ? 2 : 1;
  FOLD_A[c] = word ? (upper ? c + 32 : c) : 0;
  FAST[c] = FOLD_A[c];
}
// The modifier letter apostrophe (U+02BC) is a letter to Unicode, but some keyboards write it for `can't`: an
// apostrophe here too.
const RIGHT_QUOTE = 0x2019;
const MODIFIER_APOSTROPHE = 0x2bc;
for (const c of [RIGHT_QUOTE, MODIFIER_APOSTROPHE]) {
  CLS[c] = 1;
  FAST[c] = 0;
}

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 16777619;
const H2_SEED = 0x2f6b3c1d;
export const MASK30 = 0x3fffffff;
const H2_UNKNOWN = -1;

const isApostrophe = (c: number) => c === 0x27 || c === RIGHT_QUOTE || c === MODIFIER_APOSTROPHE;
/** A letter (not a digit) that can continue a word after an apostrophe. */
const isLetterUnit = (c: number) => (c < 128 ? FAST[c] > 57 : CLS[c] === 2);

/** Token buffers, reused across calls (the scorer is synchronous, so nothing interleaves). */
export class TokenBuffer {
  count = 0;
  // One slot more than MAX_TOKENS, so that reading the token after the last one (the scorer's
  // pair filter does, and masks the result) stays in bounds.
  readonly h1 = new Int32Array(MAX_TOKENS + 1);
  /** Second hashes, filled lazily: read them through h2At(). */
  readonly h2 = new Int32Array(MAX_TOKENS + 1);
  readonly start = new Int32Array(MAX_TOKENS + 1);
  readonly end = new Int32Array(MAX_TOKENS + 1);
  /** Clause id: punctuation and line breaks end a clause; phrases and negation never cross one. */
  readonly clause = new Int32Array(MAX_TOKENS + 1);
  readonly field = new Uint8Array(MAX_TOKENS + 1);
  /** ASCII digits in the token (capped at 255). */
  readonly digits = new Uint8Array(MAX_TOKENS + 1);
  /** Last clause id used. */
  clauseId = 0;
  /** Per field: ASCII capitals, all word characters, digits (for the shouting check). */
  readonly upper = [0, 0, 0];
  readonly wordChars = [0, 0, 0];
  readonly digitChars = [0, 0, 0];
  /** Runs of two or more '!' (per field). */
  readonly bangRuns = [0, 0, 0];
  /** Currency symbols seen (£ € $). */
  currency = 0;
  /** The raw text of each field (for reading a number next to a matched word). */
  readonly texts: string[] = ['', '', ''];

  reset(): void {
    this.count = 0;
    this.clauseId = 0;
    this.currency = 0;
    for (let f = 0; f < 3; f++) {
      this.upper[f] = 0;
      this.wordChars[f] = 0;
      this.digitChars[f] = 0;
      this.bangRuns[f] = 0;
      this.texts[f] = '';
    }
  }

  /** Letters (non-digit word characters) in token i. */
  letters(i: number): number {
    return this.end[i] - this.start[i] - this.digits[i];
  }

  /** The second hash of token i (computed on first use). */
  h2At(i: number): number {
    let h = this.h2[i];
    if (h !== H2_UNKNOWN) return h;
    const text = this.texts[this.field[i]];
    h = H2_SEED;
    const end = this.end[i];
    for (let k = this.start[i]; k < end; k++) {
      const c = text.charCodeAt(k);
      if (CLS[c] === 2) {
        h = (Math.imul(h, 31) + FOLD_A[c]) | 0;
        if (FOLD_B[c] !== 0) h = (Math.imul(h, 31) + FOLD_B[c]) | 0;
      } else if (isApostrophe(c)) h = (Math.imul(h, 31) + 0x27) | 0;
    }
    h &= MASK30;
    this.h2[i] = h;
    return h;
  }

  /** Appends the tokens of `text` (at most its first `limit` characters) as field `field`. */
  add(text: string, field: number, limit: number): void {
    this.texts[field] = text;
    const n = text.length < limit ? text.length : limit;
    tokenizeUnits(this, codeUnits(text, n), field, n);
  }

  /** ASCII lower-case-ish letters of a field: word characters that are neither capitals nor digits. */
  lower(field: number): number {
    return this.wordChars[field] - this.upper[field] - this.digitChars[field];
  }
}

// ---- the tokenizer loop -------------------------------------------------------------------------
// It reads UTF-16 code units from a typed array rather than the string: one compiled loop serves
// one-byte and two-byte strings alike (charCodeAt specializes on the string's representation),
// and the copy (Buffer#write as UTF-16LE, a memcpy-like C++ loop) costs far less than the loop itself.

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
let unitBytes = Buffer.allocUnsafeSlow(2 * 4096);
let units = new Uint16Array(unitBytes.buffer, unitBytes.byteOffset, 4096);

/** The first `n` UTF-16 code units of `text`, then a space (a sentinel), in a reused array. */
function codeUnits(text: string, n: number): Uint16Array {
  if (units.length < n + 1) {
    let size = units.length;
    while (size < n + 1) size *= 2;
    unitBytes = Buffer.allocUnsafeSlow(2 * size);
    units = new Uint16Array(unitBytes.buffer, unitBytes.byteOffset, size);
  }
  if (LITTLE_ENDIAN) unitBytes.write(text, 0, 2 * n, 'utf16le');
  else for (let k = 0; k < n; k++) units[k] = text.charCodeAt(k);
  units[n] = 32;
  return units;
}

// What a separator does: 0 nothing, 1 ends the clause (? and line breaks), 2 '!', 3 . , ; : (end
// the clause when white space follows), 4 a currency symbol (£ € $).
const SEP = new Uint8Array(65536);
SEP[63] = SEP[10] = SEP[13] = 1;
SEP[33] = 2;
SEP[46] = SEP[44] = SEP[59] = SEP[58] = 3;
SEP[36] = SEP[0xa3] = SEP[0x20ac] = 4;

// Per code unit, packed for the loop: the folded unit (bits 0-15), word character (bit 16), ASCII
// digit (bit 17), ASCII capital (bit 18); SPECIAL (bit 19, and no word bit) for units the inner loop
// cannot take: not yet classified, combining marks, two-unit folds, apostrophes and SEP characters.
const WORD_BIT = 1 << 16;
const DIGIT_BIT = 1 << 17;
const UPPER_BIT = 1 << 18;
const SPECIAL = 1 << 19;
const INFO = new Int32Array(65536).fill(SPECIAL);

function setInfo(c: number): void {
  const f = FAST[c];
  if (f === SLOW || SEP[c] !== 0 || isApostrophe(c)) INFO[c] = SPECIAL;
  else if (f === 0) INFO[c] = 0;
  else INFO[c] = f | WORD_BIT | (c >= 48 && c <= 57 ? DIGIT_BIT : 0) | (c >= 65 && c <= 90 ? UPPER_BIT : 0);
}
for (let c = 0; c < 128; c++) setInfo(c);
setInfo(RIGHT_QUOTE);
setInfo(MODIFIER_APOSTROPHE);

/** Classifies a code unit on first sight (beyond ASCII), for both tables. */
function classifyUnit(c: number): void {
  classify(c);
  setInfo(c);
}

/**
 * The tokenizer: an inner loop runs through a word's characters on one table load each (INFO: the
 * folded unit, whether it is a word character, an ASCII digit or capital); separators and anything
 * SPECIAL take the outer loop's branches. Token fields the scorer fills per field (field number,
 * unknown second hash) are filled in bulk at the end. `T[n]` must be a space (a sentinel: reading
 * one unit ahead needs no bounds check).
 */
function tokenizeUnits(buf: TokenBuffer, T: Uint16Array, field: number, n: number): void {
  const H1 = buf.h1;
  const START = buf.start;
  const END = buf.end;
  const CLAUSE = buf.clause;
  const DIG = buf.digits;
  const first = buf.count;
  let count = first;
  let clause = ++buf.clauseId;
  let upper = 0;
  let wordChars = 0;
  let digitChars = 0;
  let bangs = 0;
  let currency = 0;
  let i = 0;
  while (i < n) {
    let c = T[i];
    let x = INFO[c];
    if ((x & WORD_BIT) === 0) {
      if (x === 0) {
        i++;
        continue;
      }
      if (CLS[c] === 0) {
        classifyUnit(c);
        continue;
      }
      if (FAST[c] !== SLOW || CLS[c] === 3) {
        // A separator outside a token.
        const k = SEP[c];
        if (k === 1) clause++;
        else if (k === 2) {
          clause++;
          if (T[i + 1] === 33 && (i === 0 || T[i - 1] !== 33)) bangs++;
        } else if (k === 3) {
          const d = T[i + 1];
          if (d === 32 || d === 10 || d === 13 || d === 9) clause++;
        } else if (k === 4) currency++;
        i++;
        continue;
      }
    }
    // A token starts at i.
    if (count >= MAX_TOKENS) break;
    const s = i;
    let a = FNV_OFFSET;
    let digits = 0;
    for (;;) {
      if ((x & WORD_BIT) !== 0) {
        a = Math.imul(a ^ (x & 0xffff), FNV_PRIME);
        digits += (x >>> 17) & 1;
        upper += (x >>> 18) & 1;
      } else if (CLS[c] === 2) {
        a = Math.imul(Math.imul(a ^ FOLD_A[c], FNV_PRIME) ^ FOLD_B[c], FNV_PRIME);
      } // else a combining mark inside a word: adds nothing
      c = T[++i];
      x = INFO[c];
      if ((x & WORD_BIT) !== 0) continue;
      if (x === 0) break;
      if (CLS[c] === 0) {
        classifyUnit(c);
        x = INFO[c];
        if ((x & WORD_BIT) !== 0) continue;
        if (x === 0) break;
      }
      if (FAST[c] === SLOW) continue; // a mark or a two-unit fold
      if (isApostrophe(c)) {
        const d = T[i + 1];
        if (CLS[d] === 0) classifyUnit(d);
        if (isLetterUnit(d)) {
          a = Math.imul(a ^ 0x27, FNV_PRIME);
          c = d;
          x = INFO[d];
          i++;
          continue;
        }
      }
      break;
    }
    H1[count] = a & MASK30;
    START[count] = s;
    END[count] = i;
    CLAUSE[count] = clause;
    DIG[count] = digits < 255 ? digits : 255;
    digitChars += digits;
    wordChars += i - s;
    count++;
    if (i >= n) break;
    // The separator that ended it.
    const k = SEP[c];
    if (k !== 0) {
      if (k === 1) clause++;
      else if (k === 2) {
        clause++;
        if (T[i + 1] === 33 && (i === 0 || T[i - 1] !== 33)) bangs++;
      } else if (k === 3) {
        const d = T[i + 1];
        if (d === 32 || d === 10 || d === 13 || d === 9) clause++;
      } else currency++;
    }
    i++;
  }
  buf.field.fill(field, first, count);
  buf.h2.fill(H2_UNKNOWN, first, count);
  buf.count = count;
  buf.clauseId = clause + 1;
  buf.currency += currency;
  buf.upper[field] += upper;
  buf.wordChars[field] += wordChars;
  buf.digitChars[field] += digitChars;
  buf.bangRuns[field] += bangs;
}

/**
 * The tokenizer's tables and loop, for the reference tokenizer the tests compare it with
 * (test/support/reference-tokenizer.ts). Not used on the request path.
 */
export const TOKENIZER_INTERNALS = {
  SLOW,
  FAST,
  CLS,
  FOLD_A,
  FOLD_B,
  FNV_OFFSET,
  FNV_PRIME,
  MASK30,
  H2_UNKNOWN,
  classifyUnit,
  isApostrophe,
  isLetterUnit,
  /** The request path's loop over a text (what TokenBuffer#add runs). */
  tokenizeFast(buf: TokenBuffer, text: string, field: number, limit: number): void {
    buf.texts[field] = text;
    const n = text.length < limit ? text.length : limit;
    tokenizeUnits(buf, codeUnits(text, n), field, n);
  },
};

// Run the loop's common branches once at load, so that the first requests do not leave them
// without type feedback (which makes V8 deoptimize the compiled loop on real text later). ASCII
// only: the first non-ASCII character costs the Unicode tables (about 2 ms), which only texts that
// have one should pay.
{
  const sample =
    'Hello WORLD, it\'s 42 $5 3. Ca va? Strasse! No-reply: x1y2; ete\n\n"quote" 100% OK!! ' +
    "naive cafe resume 2024-01-31T10:00:00Z a.b@c.de don't";
  const warm = new TokenBuffer();
  for (let k = 0; k < 3; k++) {
    warm.reset();
    warm.add(sample, 0, 1000);
    warm.add(sample, 1, 1000);
    warm.add(sample, 2, 1000);
  }
}
