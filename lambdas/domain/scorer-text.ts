// One-pass tokenizer shared by the scorer and the spam-model trainer (bin/train-spam-model.ts).
// Tokens are never materialized as strings: each gets a 30-bit hash of its folded form (lowercase,
// diacritics stripped), which keeps the hot path allocation-free and fast. A second, independent
// hash is computed only for tokens that match the lexicon, to rule out collisions.

/** Most tokens kept per signal; text beyond this is ignored (deterministically). */
export const MAX_TOKENS = 6000;

// Per UTF-16 code unit: FAST holds the folded code unit of a one-unit word character, 0 for a
// separator, SLOW for anything that needs the slow path (not yet classified, combining marks,
// two-unit folds such as ß -> ss). Classification above U+024F is lazy and cached.
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
    const lower = ch.toLowerCase();
    let folded = SPECIAL_FOLDS[lower] ?? lower.normalize('NFD').replace(MARKS_RE, '');
    if (folded.length === 0 || folded.length > 2) folded = lower.length === 1 ? lower : ch;
    FOLD_A[c] = folded.charCodeAt(0);
    FOLD_B[c] = folded.length === 2 ? folded.charCodeAt(1) : 0;
    if (FOLD_B[c] === 0 && FOLD_A[c] !== 0 && FOLD_A[c] !== SLOW) FAST[c] = FOLD_A[c];
  }
}

// Eager for ASCII and Latin (the languages the lexicon covers).
for (let c = 0; c < 0x250; c++) classify(c);

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 16777619;
const H2_SEED = 0x2f6b3c1d;
const MASK30 = 0x3fffffff;
const H2_UNKNOWN = -1;

const isApostrophe = (c: number) => c === 0x27 || c === 0x2019;
/** A letter (not a digit) that can continue a word after an apostrophe. */
const isLetterUnit = (c: number) => (c < 128 ? FAST[c] > 57 : CLS[c] === 2);

/** Token buffers, reused across calls (the scorer is synchronous, so nothing interleaves). */
export class TokenBuffer {
  count = 0;
  readonly h1 = new Int32Array(MAX_TOKENS);
  /** Second hashes, filled lazily: read them through h2At(). */
  readonly h2 = new Int32Array(MAX_TOKENS);
  readonly start = new Int32Array(MAX_TOKENS);
  readonly end = new Int32Array(MAX_TOKENS);
  /** Clause id: punctuation and line breaks end a clause; phrases and negation never cross one. */
  readonly clause = new Int32Array(MAX_TOKENS);
  readonly field = new Uint8Array(MAX_TOKENS);
  /** ASCII digits in the token (capped at 255). */
  readonly digits = new Uint8Array(MAX_TOKENS);
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
    // Two identical copies of the loop, one per string representation: V8 compiles each for the
    // strings it sees, and a single copy fed both one-byte and two-byte strings runs ~2x slower.
    if (WIDE_RE.test(text)) tokenizeWide(this, text, field, limit);
    else tokenizeNarrow(this, text, field, limit);
  }

  /** ASCII lower-case-ish letters of a field: word characters that are neither capitals nor digits. */
  lower(field: number): number {
    return this.wordChars[field] - this.upper[field] - this.digitChars[field];
  }
}

const WIDE_RE = /[^\x00-\xff]/;

// The tokenizer loop. tokenizeWide is a verbatim copy (see TokenBuffer.add); a test checks that
// both give the same tokens.
function tokenizeNarrow(buf: TokenBuffer, text: string, field: number, limit: number): void {
  const n = text.length < limit ? text.length : limit;
  const H1 = buf.h1;
  const H2 = buf.h2;
  const START = buf.start;
  const END = buf.end;
  const CLAUSE = buf.clause;
  const FIELD = buf.field;
  const DIG = buf.digits;
  let count = buf.count;
  let clause = ++buf.clauseId;
  let s = -1; // start of the current token, -1 outside a token
  let a = 0;
  let digits = 0;
  let upper = 0;
  let wordChars = 0;
  let digitChars = 0;
  let bangs = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    let f = FAST[c];
    if (f === SLOW) {
      if (CLS[c] === 0) classify(c);
      f = FAST[c];
      if (f === SLOW) {
        if (CLS[c] === 3) {
          if (s >= 0) continue; // a combining mark inside a word adds nothing
          f = 0;
        } else {
          // A word character folding to two units (ß -> ss).
          if (s < 0) {
            if (count >= MAX_TOKENS) break;
            s = i;
            a = FNV_OFFSET;
            digits = 0;
          }
          a = Math.imul(Math.imul(a ^ FOLD_A[c], FNV_PRIME) ^ FOLD_B[c], FNV_PRIME);
          continue;
        }
      }
    }
    if (f !== 0) {
      if (s < 0) {
        if (count >= MAX_TOKENS) break;
        s = i;
        a = FNV_OFFSET;
        digits = 0;
      }
      a = Math.imul(a ^ f, FNV_PRIME);
      if (c < 91) {
        if (c < 58) digits++;
        else if (c >= 65) upper++;
      }
      continue;
    }
    // A separator.
    if (s >= 0) {
      if (isApostrophe(c) && i + 1 < n && isLetterUnit(text.charCodeAt(i + 1))) {
        a = Math.imul(a ^ 0x27, FNV_PRIME); // "isn't", "l'équipe": one word
        continue;
      }
      H1[count] = a & MASK30;
      H2[count] = H2_UNKNOWN;
      START[count] = s;
      END[count] = i;
      CLAUSE[count] = clause;
      FIELD[count] = field;
      DIG[count] = digits > 255 ? 255 : digits;
      digitChars += digits;
      wordChars += i - s;
      count++;
      s = -1;
    }
    // Clause boundaries: always at ! ? and line breaks; at . , ; : only before white space.
    if (c < 64) {
      if (c === 33) {
        clause++;
        if (i + 1 < n && text.charCodeAt(i + 1) === 33 && (i === 0 || text.charCodeAt(i - 1) !== 33)) bangs++;
      } else if (c === 63 || c === 10 || c === 13) clause++;
      else if (c === 46 || c === 44 || c === 59 || c === 58) {
        const d = i + 1 < n ? text.charCodeAt(i + 1) : 32;
        if (d === 32 || d === 10 || d === 13 || d === 9) clause++;
      } else if (c === 36) buf.currency++;
    } else if (c === 0xa3 || c === 0x20ac) buf.currency++;
  }
  if (s >= 0 && count < MAX_TOKENS) {
    H1[count] = a & MASK30;
    H2[count] = H2_UNKNOWN;
    START[count] = s;
    END[count] = n;
    CLAUSE[count] = clause;
    FIELD[count] = field;
    DIG[count] = digits > 255 ? 255 : digits;
    digitChars += digits;
    wordChars += n - s;
    count++;
  }
  buf.count = count;
  buf.clauseId = clause + 1;
  buf.upper[field] += upper;
  buf.wordChars[field] += wordChars;
  buf.digitChars[field] += digitChars;
  buf.bangRuns[field] += bangs;
}

/** Verbatim copy of tokenizeNarrow, for two-byte strings. */
function tokenizeWide(buf: TokenBuffer, text: string, field: number, limit: number): void {
  const n = text.length < limit ? text.length : limit;
  const H1 = buf.h1;
  const H2 = buf.h2;
  const START = buf.start;
  const END = buf.end;
  const CLAUSE = buf.clause;
  const FIELD = buf.field;
  const DIG = buf.digits;
  let count = buf.count;
  let clause = ++buf.clauseId;
  let s = -1; // start of the current token, -1 outside a token
  let a = 0;
  let digits = 0;
  let upper = 0;
  let wordChars = 0;
  let digitChars = 0;
  let bangs = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    let f = FAST[c];
    if (f === SLOW) {
      if (CLS[c] === 0) classify(c);
      f = FAST[c];
      if (f === SLOW) {
        if (CLS[c] === 3) {
          if (s >= 0) continue; // a combining mark inside a word adds nothing
          f = 0;
        } else {
          // A word character folding to two units (ß -> ss).
          if (s < 0) {
            if (count >= MAX_TOKENS) break;
            s = i;
            a = FNV_OFFSET;
            digits = 0;
          }
          a = Math.imul(Math.imul(a ^ FOLD_A[c], FNV_PRIME) ^ FOLD_B[c], FNV_PRIME);
          continue;
        }
      }
    }
    if (f !== 0) {
      if (s < 0) {
        if (count >= MAX_TOKENS) break;
        s = i;
        a = FNV_OFFSET;
        digits = 0;
      }
      a = Math.imul(a ^ f, FNV_PRIME);
      if (c < 91) {
        if (c < 58) digits++;
        else if (c >= 65) upper++;
      }
      continue;
    }
    // A separator.
    if (s >= 0) {
      if (isApostrophe(c) && i + 1 < n && isLetterUnit(text.charCodeAt(i + 1))) {
        a = Math.imul(a ^ 0x27, FNV_PRIME); // "isn't", "l'équipe": one word
        continue;
      }
      H1[count] = a & MASK30;
      H2[count] = H2_UNKNOWN;
      START[count] = s;
      END[count] = i;
      CLAUSE[count] = clause;
      FIELD[count] = field;
      DIG[count] = digits > 255 ? 255 : digits;
      digitChars += digits;
      wordChars += i - s;
      count++;
      s = -1;
    }
    // Clause boundaries: always at ! ? and line breaks; at . , ; : only before white space.
    if (c < 64) {
      if (c === 33) {
        clause++;
        if (i + 1 < n && text.charCodeAt(i + 1) === 33 && (i === 0 || text.charCodeAt(i - 1) !== 33)) bangs++;
      } else if (c === 63 || c === 10 || c === 13) clause++;
      else if (c === 46 || c === 44 || c === 59 || c === 58) {
        const d = i + 1 < n ? text.charCodeAt(i + 1) : 32;
        if (d === 32 || d === 10 || d === 13 || d === 9) clause++;
      } else if (c === 36) buf.currency++;
    } else if (c === 0xa3 || c === 0x20ac) buf.currency++;
  }
  if (s >= 0 && count < MAX_TOKENS) {
    H1[count] = a & MASK30;
    H2[count] = H2_UNKNOWN;
    START[count] = s;
    END[count] = n;
    CLAUSE[count] = clause;
    FIELD[count] = field;
    DIG[count] = digits > 255 ? 255 : digits;
    digitChars += digits;
    wordChars += n - s;
    count++;
  }
  buf.count = count;
  buf.clauseId = clause + 1;
  buf.upper[field] += upper;
  buf.wordChars[field] += wordChars;
  buf.digitChars[field] += digitChars;
  buf.bangRuns[field] += bangs;
}

/** For tests: tokenizes with one specific copy of the loop. */
export function tokenizeWith(copy: 'narrow' | 'wide', buf: TokenBuffer, text: string, field: number, limit: number): void {
  buf.texts[field] = text;
  if (copy === 'narrow') tokenizeNarrow(buf, text, field, limit);
  else tokenizeWide(buf, text, field, limit);
}

// Run every branch of both loop copies once at load. Otherwise the first calls (the lexicon's
// short phrases) leave branches without type feedback, real text then keeps deoptimizing the
// compiled loop, and V8 may settle on a ~2x slower tier.
{
  const sample =
    'Hello WORLD, it\'s 42 €/$5 £3. Ça va? Straße! No-reply: x1y2; e\u0301t\u00e9\n\n"quote" 100% OK!! ' +
    'naïve café résumé 2024-01-31T10:00:00Z a.b@c.de';
  const wideSample = `${sample} don\u2019t \u4e2d\u6587 \u{1F600} \u0436\u0443\u043A`;
  const warm = new TokenBuffer();
  for (let k = 0; k < 3; k++) {
    warm.reset();
    tokenizeNarrow(warm, sample, 0, 1000);
    tokenizeNarrow(warm, sample, 1, 1000);
    tokenizeWide(warm, wideSample, 1, 1000);
    tokenizeWide(warm, wideSample, 2, 1000);
  }
}

let scratch: TokenBuffer | null = null;

/** Hashes of a short text's tokens (used at module load to compile lexicons). */
export function tokenHashes(text: string): { h1: number[]; h2: number[] } {
  scratch ??= new TokenBuffer();
  const buf = scratch;
  buf.reset();
  // Flat copy: lexicon phrases are built by concatenation (rope strings), and letting them reach
  // the loops would make V8 compile them for ropes, which is slower for the flat strings of requests.
  const flat = text.split('').join('');
  buf.add(flat, 0, flat.length);
  const h1: number[] = [];
  const h2: number[] = [];
  for (let i = 0; i < buf.count; i++) {
    h1.push(buf.h1[i]);
    h2.push(buf.h2At(i));
  }
  return { h1, h2 };
}

/** Mixes two 30-bit hashes into one (for bigram features); stays a small integer. */
export function mixHash(x: number, y: number): number {
  let h = Math.imul(x ^ 0x5bd1e995, 0x27d4eb2d) ^ y;
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
  h ^= h >>> 13;
  return h & MASK30;
}
