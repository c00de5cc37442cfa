// Builds the lexicon's first-word index from the lexicon: which patterns have phrases starting with which word. The
// trie (lexicon-trie.ts) compiles a word's phrases the first time a text contains it, and reads this index from
// lexicon-index.json, which `npm run lexicon:index` writes with this: building it at load was about 3.5 ms of every
// engine Lambda's module init (docs/performance.md, "Why the code is shaped this way"). Only bin/ and the tests
// import this file, never a Lambda.
import { type LexiconIndexFile, firstChunks, lexiconPatterns, phrasesOf } from './lexicon-patterns';
import { tokenHashesMany } from './token-hashes';

export function buildLexiconIndex(): LexiconIndexFile {
  const { text, group, characters } = lexiconPatterns();
  // Every pattern's possible first chunks; their first words (first hashes only) key the entries.
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
  // Each chunk's first word, as the tokenizer hashes it (-1: the chunk holds no word).
  const { h1, first } = tokenHashesMany(chunks, false);
  const chunkKey = chunks.map((_, c) => (first[c + 1] > first[c] ? h1[first[c]] : -1));

  const keys: number[] = [];
  const patternSteps: number[] = [];
  const alts: number[] = [];
  let lastPattern = 0;
  const add = (key: number, k: number, alt: number) => {
    const n = keys.length;
    if (n > 0 && keys[n - 1] === key && lastPattern === k && alts[n - 1] === alt) return;
    keys.push(key);
    patternSteps.push(k - lastPattern);
    alts.push(alt);
    lastPattern = k;
  };
  for (let k = 0; k < text.length; k++) {
    let known = chunkFrom[k + 1] > chunkFrom[k];
    for (let c = chunkFrom[k]; known && c < chunkFrom[k + 1]; c++) if (chunkKey[c] < 0) known = false;
    if (known) {
      for (let c = chunkFrom[k]; c < chunkFrom[k + 1]; c++) add(chunkKey[c], k, chunkAlt[c]);
    } else {
      // Rare: a first chunk without a word (or none at all). Hash every phrase of the pattern.
      const phrases = phrasesOf(text[k], group[k] < 0, -1).map((ph) => ph.text);
      const { h1: all, first: from } = tokenHashesMany(phrases, false);
      for (let q = 0; q + 1 < from.length; q++) if (from[q + 1] > from[q]) add(all[from[q]], k, -1);
    }
  }
  return { patterns: text.length, characters, keys, patternSteps, alts };
}
