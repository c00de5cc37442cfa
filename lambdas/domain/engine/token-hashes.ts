// Token hashes outside a request's tokenizing: many short texts (lexicon words and phrases) hashed in a few passes of
// the tokenizer (tokens.ts), and the mix of two hashes that bigram features use.
import { MASK30, MAX_TOKENS, TokenBuffer } from './tokens';

let manyScratch: TokenBuffer | null = null;

/** Characters per pass of tokenHashesMany: few enough that the tokens stay below MAX_TOKENS. */
const MANY_CHUNK_CHARS = MAX_TOKENS;

/**
 * Hashes of the tokens of many short texts (lexicon words and phrases), in a few long passes
 * rather than one call per text: the texts are joined with line breaks, which no token crosses, so
 * each text gets the tokens it would get alone. Text p's tokens are h1/h2[first[p] .. first[p + 1]);
 * without `secondHashes`, h2 stays zero.
 */
export function tokenHashesMany(
  texts: readonly string[],
  secondHashes = true,
): { h1: Int32Array; h2: Int32Array; first: Int32Array } {
  let chars = 0;
  for (const t of texts) chars += t.length + 1;
  const h1 = new Int32Array(chars);
  const h2 = new Int32Array(chars);
  const first = new Int32Array(texts.length + 1);
  const buf = (manyScratch ??= new TokenBuffer());
  let n = 0;
  for (let k = 0; k < texts.length;) {
    let j = k;
    let size = 0;
    do size += texts[j++].length + 1;
    while (j < texts.length && size + texts[j].length + 1 <= MANY_CHUNK_CHARS);
    const chunk = texts.slice(k, j).join('\n');
    buf.reset();
    buf.add(chunk, 0, chunk.length);
    if (buf.count >= MAX_TOKENS) throw new Error('tokenHashesMany: a text is too long');
    let t = 0;
    let end = 0;
    for (let p = k; p < j; p++) {
      end += texts[p].length;
      first[p] = n;
      for (; t < buf.count && buf.start[t] < end; t++, n++) {
        h1[n] = buf.h1[t];
        if (secondHashes) h2[n] = buf.h2At(t);
      }
      end++; // the line break
    }
    k = j;
  }
  first[texts.length] = n;
  return { h1, h2, first };
}

/** MASK30 as this module's own constant: mixHash runs per token, and an imported name is a getter call under tsx. */
const MIX_MASK = MASK30;
/** Mixes two 30-bit hashes into one (for bigram features); stays a small integer. */
export function mixHash(x: number, y: number): number {
  let h = Math.imul(x ^ 0x5bd1e995, 0x27d4eb2d) ^ y;
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
  h ^= h >>> 13;
  return h & MIX_MASK;
}
