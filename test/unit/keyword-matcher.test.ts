// The policy keyword automaton (lambdas/domain/keyword-matcher.ts) against the definition of a match, keywordPattern
// (one /iu regular expression per phrase): the same keywords found on random phrases and texts, over an alphabet of
// the characters where case-insensitive matching and word boundaries are subtle. Its cost is in `npm run bench`
// (section worst-case).
import fc from 'fast-check';
import '../support/fast-check-seed';
import { keywordMatcher } from '../../lambdas/domain/keyword-matcher';
import { keywordPattern } from '../../lambdas/domain/policy';
import { keywordText } from '../../lambdas/domain/keyword-text';

const TRICKY = [
  'a',
  'b',
  'A',
  'B',
  'k',
  'K',
  '\u212A',
  's',
  'S',
  '\u017F',
  'i',
  'I',
  '\u0130',
  '\u0131',
  '\u00DF',
  '\u1E9E',
  '\u03C3',
  '\u03C2',
  '\u03A3',
  '\u0345',
  '\u03B9',
  '\u0399',
  '\u1FBE',
  '\u0390',
  '\u1FD3',
  '\uFB05',
  '\uFB06',
  '\u13A0',
  '\uAB70',
  '\u{10400}',
  '\u{10428}',
  '\u00E9',
  '\u00C9',
  '\u01C5',
  '\u01C6',
  '\u01C4',
  '_',
  '1',
  '\u0663',
  '\u2160',
  '\u2170',
  '+',
  '.',
  '-',
  '#',
  '$',
  '(',
  '\\',
  '*',
  '\u{1F600}',
  '\uD800',
  '\uDC00',
  ' ',
  ' ',
  '\t',
  '\n',
  '\u00A0',
  '\u3000',
  '\u2028',
  '\uFEFF',
  '\u200B',
  "'",
  '\u2019',
  '\u2018',
  '\u02BC',
  '\uFF07',
  '\u00AD',
  '\u2060',
  '\u200C',
  '\u200D',
];
const char = fc.constantFrom(...TRICKY);
const text = fc.array(char, { maxLength: 40 }).map((cs) => cs.join(''));
const phrase = fc
  .array(char, { minLength: 1, maxLength: 8 })
  .map((cs) => cs.join(''))
  .filter((p) => p.trim().length > 0);
/** Phrases that often occur in the text: pieces cut from it, with their case or spacing changed. */
const related = (t: string) =>
  fc
    .tuple(fc.nat(t.length), fc.integer({ min: 1, max: 8 }), fc.constantFrom('same', 'upper', 'lower', 'spaces'))
    .map(([at, n, how]) => {
      const piece = [...t].slice(at, at + n).join('');
      if (how === 'upper') return piece.toUpperCase();
      if (how === 'lower') return piece.toLowerCase();
      if (how === 'spaces') return piece.replace(/\s+/g, ' \t ');
      return piece.trim() ? piece : 'a';
    });

const byRegex = (phrases: string[], t: string) => phrases.filter((p) => keywordPattern(p).test(keywordText(t)));
const byAutomaton = (phrases: string[], t: string) =>
  keywordMatcher(phrases.map((p) => ({ phrase: p })))
    .match(t)
    .map((k) => k.phrase);

it('finds exactly the keywords the regular expressions find, on random phrases and texts', () => {
  fc.assert(
    fc.property(
      text.chain((t) =>
        fc.tuple(
          fc.constant(t),
          fc.array(
            fc.oneof(
              phrase,
              related(t).map((p) => (p.trim() ? p : 'a')),
            ),
            { minLength: 1, maxLength: 12 },
          ),
        ),
      ),
      ([t, phrases]) => {
        expect(byAutomaton(phrases, t)).toEqual(byRegex(phrases, t));
      },
    ),
    { numRuns: 1_000 },
  );
});

it('keeps the documented examples and the policy order, duplicates included', () => {
  const keywords = [
    { phrase: 'c++' },
    { phrase: 'VAT return' },
    { phrase: 'VAT' },
    { phrase: 'vat  RETURN' },
    { phrase: 'elevator pitch' },
  ];
  expect(keywordMatcher(keywords).match('our vat   return is late; we use C++ daily, not the elevator')).toEqual([
    keywords[0],
    keywords[1],
    keywords[2],
    keywords[3],
  ]);
  expect(keywordMatcher([{ phrase: 'VAT' }]).match('elevator')).toEqual([]);
  expect(keywordMatcher([{ phrase: 'ab' }]).match('xab ab_ ab1 ab')).toEqual([{ phrase: 'ab' }]);
  expect(keywordMatcher([{ phrase: 'ab' }]).match('xab ab_ ab1')).toEqual([]);
  // Deep in a long e-mail, across ASCII and other letters, whitespace runs and case.
  const long = [{ phrase: 'Production Outage' }, { phrase: 'été  plan' }, { phrase: 'plan B' }];
  expect(keywordMatcher(long).match(`${'all fine here. '.repeat(150)}PRODUCTION\n\t outage: the ÉTÉ plan b`)).toEqual(
    long,
  );
  expect(keywordMatcher(long).match(`${'all fine here. '.repeat(150)}production outages, l'été plans`)).toEqual([]);
});

it('reads text and phrases in composed form, a combining mark as part of its word', () => {
  const decomposed = (s: string) => s.normalize('NFD');
  expect(byAutomaton(['Kündigung'], decomposed('Ihre Kündigung ist eingegangen'))).toEqual(['Kündigung']);
  expect(byAutomaton([decomposed('Kündigung')], 'Ihre Kündigung ist eingegangen')).toEqual([decomposed('Kündigung')]);
  expect(byAutomaton(['Mu'], decomposed('Herr Müller schreibt'))).toEqual([]);
  expect(byAutomaton(['cafe'], decomposed('le café est fermé'))).toEqual([]);
  // A mark no composed form absorbs still belongs to its word.
  expect(byAutomaton(['x'], 'x\u0301 y')).toEqual([]);
});

it('reads the typographic apostrophes as the straight one, in phrases and in text', () => {
  for (const apostrophe of ['\u2019', '\u2018', '\u02BC', '\uFF07']) {
    expect(byAutomaton(["can't"], `I can${apostrophe}t log in`)).toEqual(["can't"]);
    expect(byRegex(["can't"], `I can${apostrophe}t log in`)).toEqual(["can't"]);
    expect(byAutomaton([`don${apostrophe}t`], "please don't cancel")).toEqual([`don${apostrophe}t`]);
    expect(byRegex([`don${apostrophe}t`], "please don't cancel")).toEqual([`don${apostrophe}t`]);
  }
});

it('ignores a soft hyphen, word joiner or BOM inside a word, in phrases and in text', () => {
  for (const invisible of ['\u00AD', '\u2060', '\uFEFF']) {
    const text = `Ihre Kün${invisible}digung ist eingegangen`;
    expect(byAutomaton(['Kündigung', 'Kün'], text)).toEqual(['Kündigung']);
    expect(byRegex(['Kündigung', 'Kün'], text)).toEqual(['Kündigung']);
    expect(byAutomaton([`Kün${invisible}digung`], 'Ihre Kündigung')).toEqual([`Kün${invisible}digung`]);
  }
});

// Thai and other scripts written without spaces separate words with it.
it('reads a zero-width space as the end of a word', () => {
  for (const by of [byAutomaton, byRegex]) {
    expect(by(['ด่วน'], 'ด่วน\u200Bมาก')).toEqual(['ด่วน']);
    expect(by(['urgent'], 'urgent\u200Brequest')).toEqual(['urgent']);
    // At a keyword's ends, as pasted from a web page, it is trimmed as whitespace is.
    expect(by(['urgent\u200B', '\u200Burgent'], 'This is urgent')).toEqual(['urgent\u200B', '\u200Burgent']);
  }
});

it('reads the Latin ligatures as their letters, in phrases and in text', () => {
  for (const by of [byAutomaton, byRegex]) {
    expect(by(['office', 'file'], 'the oﬃce ﬁle server')).toEqual(['office', 'file']);
    expect(by(['ﬁle'], 'a file')).toEqual(['ﬁle']);
    // A mark after a ligature composes with its last letter.
    expect(by(['fíle'], 'a ﬁ\u0301le')).toEqual(['fíle']);
  }
});

it('reads full-width Latin letters and digits as ASCII, in phrases and in text, whole words still', () => {
  for (const by of [byAutomaton, byRegex]) {
    expect(by(['urgent'], 'ＵＲＧＥＮＴ：ｐｌｅａｓｅ ｒｅｐｌｙ')).toEqual(['urgent']);
    expect(by(['ＶＩＰ'], 'a vip customer')).toEqual(['ＶＩＰ']);
    expect(by(['case 42'], 'ｃａｓｅ　４２ is open')).toEqual(['case 42']);
    expect(by(['urgent'], 'ｕｒｇｅｎｔｌｙ')).toEqual([]);
  }
});

it('matches ß as ss and Turkish İ as i, either way round, whole words still', () => {
  const cases: [string, string, boolean][] = [
    ['Straße', 'STRASSE gesperrt', true],
    ['Straße', 'die strasse ist gesperrt', true],
    ['strasse', 'die Straße ist gesperrt', true],
    ['STRASSE', 'die STRAẞE ist gesperrt', true],
    ['Straße', 'Strassen gesperrt', false],
    ['Stras', 'die Straße', false],
    ['iptal', 'İPTAL talebi', true],
    ['iptal', 'İptal talebi', true],
    ['İptal', 'iptal talebi', true],
    ['iptal', 'İptaller', false],
  ];
  for (const [keyword, text, found] of cases) {
    expect([keyword, text, byAutomaton([keyword], text)]).toEqual([keyword, text, found ? [keyword] : []]);
    expect([keyword, text, byRegex([keyword], text)]).toEqual([keyword, text, found ? [keyword] : []]);
  }
});
