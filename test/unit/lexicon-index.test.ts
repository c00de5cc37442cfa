// The lexicon's first-word index is a file (lambdas/domain/engine/lexicon-index.json, written by `npm run
// lexicon:index`) so that module init does not build it. An index that lags the lexicon would leave the phrases of
// new first words out of the trie without a word: this fails while the file differs from what the lexicon gives,
// and the engine refuses to load an index whose lexicon differs from its own in pattern count or length.
import { readFileSync } from 'node:fs';
import { LEXICON_INDEX_FILE, lexiconIndexText } from '../../bin/lexicon-index';
import type { LexiconIndexFile } from '../../lambdas/domain/engine/lexicon-patterns';

/** The file as lines, an entry each: a lag shows as the entries that differ, not as one 30 KB line. */
function lines(text: string): string[] {
  const { patterns, characters, keys, patternSteps, alts } = JSON.parse(text) as LexiconIndexFile;
  const out = [`${patterns} patterns, ${characters} characters`];
  let pattern = 0;
  for (let i = 0; i < keys.length; i++) {
    pattern += patternSteps[i];
    out.push(`word ${keys[i]}: pattern ${pattern}, alternative ${alts[i]}`);
  }
  return out;
}

it('is what `npm run lexicon:index` writes from the lexicon now', () => {
  const committed = readFileSync(LEXICON_INDEX_FILE, 'utf8');
  const fresh = lexiconIndexText();
  expect(lines(committed)).toEqual(lines(fresh));
  expect(committed).toBe(fresh);
});

it('refuses to load an index built from another lexicon, naming the command that rebuilds it', () => {
  const current = JSON.parse(readFileSync(LEXICON_INDEX_FILE, 'utf8')) as LexiconIndexFile;
  // A mock: a stale index is a file this test cannot write without changing the repository's own.
  for (const stale of [
    { ...current, patterns: current.patterns + 1 },
    { ...current, characters: current.characters - 1 },
  ]) {
    jest.isolateModules(() => {
      jest.doMock('../../lambdas/domain/engine/lexicon-index.json', () => stale);
      try {
        // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded afresh, in the isolated registry
        expect(() => require('../../lambdas/domain/engine/lexicon-trie')).toThrow('run `npm run lexicon:index`');
      } finally {
        jest.dontMock('../../lambdas/domain/engine/lexicon-index.json');
      }
    });
  }
});
