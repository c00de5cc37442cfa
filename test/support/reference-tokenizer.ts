// The reference tokenizer: the plain, branching loop over the string that the engine's fast loop
// (lambdas/domain/engine/tokens.ts) must match token for token. A test oracle, so it lives with the tests.
import { MAX_TOKENS, TOKENIZER_INTERNALS, type TokenBuffer } from '../../lambdas/domain/engine/tokens';

const {
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
} = TOKENIZER_INTERNALS;

export function tokenizeReference(buf: TokenBuffer, text: string, field: number, limit: number): void {
  const n = text.length < limit ? text.length : limit;
  let count = buf.count;
  let clause = ++buf.clauseId;
  let s = -1; // start of the current token, -1 outside a token
  let a = 0;
  let digits = 0;
  let upper = 0;
  let wordChars = 0;
  let digitChars = 0;
  let bangs = 0;
  /** Opens a token at `i`, or answers false when the buffer holds MAX_TOKENS already. */
  const startToken = (i: number): boolean => {
    if (count >= MAX_TOKENS) return false;
    s = i;
    a = FNV_OFFSET;
    digits = 0;
    return true;
  };
  /** Closes the open token before `end`. */
  const endToken = (end: number): void => {
    buf.h1[count] = a & MASK30;
    buf.h2[count] = H2_UNKNOWN;
    buf.start[count] = s;
    buf.end[count] = end;
    buf.clause[count] = clause;
    buf.field[count] = field;
    buf.digits[count] = digits > 255 ? 255 : digits;
    digitChars += digits;
    wordChars += end - s;
    count++;
    s = -1;
  };
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (CLS[c] === 0) classifyUnit(c);
    let f = FAST[c];
    if (f === SLOW) {
      if (CLS[c] === 3) {
        if (s >= 0) continue; // a combining mark inside a word adds nothing
        f = 0;
      } else {
        // A word character folding to two units (ß -> ss).
        if (s < 0 && !startToken(i)) break;
        a = Math.imul(Math.imul(a ^ FOLD_A[c], FNV_PRIME) ^ FOLD_B[c], FNV_PRIME);
        continue;
      }
    }
    if (f !== 0) {
      if (s < 0 && !startToken(i)) break;
      a = Math.imul(a ^ f, FNV_PRIME);
      if (c < 91) {
        if (c < 58) digits++;
        else if (c >= 65) upper++;
      }
      continue;
    }
    // A separator.
    if (s >= 0) {
      if (isApostrophe(c) && i + 1 < n) {
        const d = text.charCodeAt(i + 1);
        if (CLS[d] === 0) classifyUnit(d);
        if (isLetterUnit(d)) {
          a = Math.imul(a ^ 0x27, FNV_PRIME);
          continue;
        }
      }
      endToken(i);
    }
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
  if (s >= 0 && count < MAX_TOKENS) endToken(n);
  buf.count = count;
  buf.clauseId = clause + 1;
  buf.upper[field] += upper;
  buf.wordChars[field] += wordChars;
  buf.digitChars[field] += digitChars;
  buf.bangRuns[field] += bangs;
}

/** Tokenizes with one implementation: 'fast' (or 'narrow') is the request path's loop, 'reference' (or 'wide') this one. */
export function tokenizeWith(
  copy: 'fast' | 'reference' | 'narrow' | 'wide',
  buf: TokenBuffer,
  text: string,
  field: number,
  limit: number,
): void {
  if (copy === 'fast' || copy === 'narrow') TOKENIZER_INTERNALS.tokenizeFast(buf, text, field, limit);
  else {
    buf.texts[field] = text;
    tokenizeReference(buf, text, field, limit);
  }
}
