// The lexicon's first-word index, built from the lexicon: which patterns have phrases starting with which word.
// The trie (lexicon-trie.ts) compiles a word's phrases the first time a text contains it, and reads this index from
// lexicon-index.json, which `npm run lexicon:index` writes: building it at load was about 3.5 ms of every engine
// Lambda's module init (docs/performance.md, "Why the code is shaped this way"). test/unit/lexicon-index.test.ts
// fails while the file differs from what this builds. Only bin/ and the tests import it, not a Lambda.
import { type LexiconIndexFile, firstChunks, lexiconPatterns, phrasesOf } from './lexicon-patterns';
import { tokenHashesMany } from './token-hashes';
import { plainWordHash } from './tokens';

export function buildLexiconIndex(): LexiconIndexFile {
  const { text, group, characters } = lexiconPatterns();
  // Every pattern's possible first chunks; their first words (first hashes only) key the pairs.
  const chunks: string[] = [];
  const chunkAlt: number[] = [];
  const chunkFrom: number[] = [];
  for (let k = 0; k < text.length; k++) {
    const from = chunks.length;
    if (group[k] < 0) {
      chunks.push(text[k]);
      chunkAlt.push(-1);
    } else if (!firstChunks(text[k], chunks, chunkAlt)) chunks.length = chunkAlt.length = from;
    chunkFrom.push(from);
  }
  chunkFrom.push(chunks.length);
  // Each chunk's first word (-1: none). Most are one plain word; the others go through the tokenizer.
  const chunkKey = chunks.map(plainWordHash);
  const others = chunks.filter((_, c) => chunkKey[c] < 0);
  const otherChunk = chunks.flatMap((_, c) => (chunkKey[c] < 0 ? [c] : []));
  const { h1: o1, first: at } = tokenHashesMany(others, false);
  for (let o = 0; o < others.length; o++) chunkKey[otherChunk[o]] = at[o + 1] > at[o] ? o1[at[o]] : -1;

  const pairs: number[] = [];
  const addPair = (key: number, k: number, alt: number) => {
    const n = pairs.length;
    if (n > 0 && pairs[n - 3] === key && pairs[n - 2] === k && pairs[n - 1] === alt) return;
    pairs.push(key, k, alt);
  };
  for (let k = 0; k < text.length; k++) {
    let known = chunkFrom[k + 1] > chunkFrom[k];
    for (let c = chunkFrom[k]; known && c < chunkFrom[k + 1]; c++) if (chunkKey[c] < 0) known = false;
    if (known) {
      for (let c = chunkFrom[k]; c < chunkFrom[k + 1]; c++) addPair(chunkKey[c], k, chunkAlt[c]);
    } else {
      // Rare: a first chunk without a word (or none at all). Hash every phrase of the pattern.
      const phrases = phrasesOf(text[k], group[k] < 0, -1).map((ph) => ph.text);
      const { h1: all, first: from } = tokenHashesMany(phrases, false);
      for (let q = 0; q + 1 < from.length; q++) if (from[q + 1] > from[q]) addPair(all[from[q]], k, -1);
    }
  }
  return { patterns: text.length, characters, pairs };
}
