// The fast sketch against its oracle (test/support/reference-learning.ts): it must give the same buckets bit for bit
// as the string-and-regex definition for every input, since stored sketches and label counts are keyed by them.
import fc from 'fast-check';
import { halfSipHash, halfSipKey } from '../../lambdas/domain/learning/half-siphash';
import { sketchSignal } from '../../lambdas/domain/learning/sketch';
import { referenceHalfSipHash, referenceSketch } from '../support/reference-learning';

const keyOf = (bytes: Uint8Array) => halfSipKey(bytes);

describe('the fast sketch is the reference sketch, bit for bit', () => {
  // Pieces chosen for the scanner's edges: apostrophes straight and curly, quotes, accented and precomposed letters,
  // combining marks, digits of other scripts, letters whose lower case is longer or depends on context (İ, Σ), CJK,
  // letters and emoji outside the BMP (surrogate pairs), lone surrogates, and separators of every kind.
  const PIECES = [
    'a',
    'B',
    'z',
    'Q',
    '0',
    '7',
    ' ',
    '  ',
    '\n',
    '\t',
    '.',
    ',',
    '!',
    '-',
    '_',
    '@',
    '/',
    '"',
    "'",
    '’',
    "don't",
    'Don’t',
    "it's",
    "rock'n'roll",
    "'quoted'",
    '‘single’',
    '“double”',
    "o'",
    "x'1",
    "9'a",
    'é',
    'É',
    'ü',
    'Ü',
    'ß',
    'ẞ',
    'ñ',
    'Ç',
    'ø',
    'Å',
    'æ',
    'œ',
    'e\u0301',
    'ǅ',
    'K',
    'Ω',
    'ﬁ',
    'İ',
    'ı',
    'I',
    'Σ',
    'σ',
    'ς',
    'ΟΔΟΣ',
    'Ἀ',
    'ᾼ',
    'Ж',
    'ж',
    'ԱԲ',
    'ა',
    '٣',
    '²',
    '½',
    'Ⅻ',
    '漢字',
    '東京',
    'ひらがな',
    'カタカナ',
    '한국어',
    'ภาษาไทย',
    'עברית',
    'العربية',
    '😀',
    '👍🏽',
    '𝐀𝐁',
    '𐐀𐐨',
    '𠀋',
    '\ud800',
    '\udc00',
    '\ud83d',
    '£',
    '€',
    '…',
    '\u00a0',
    '\u200b',
    '\ufeff',
    'refund',
    'Payment',
    'CARD',
    'transfer',
    'verification',
    'exchange',
  ];
  const piece = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...PIECES) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 4 }) },
    {
      weight: 1,
      arbitrary: fc.string({
        unit: fc.constantFrom('a', 'É', 'ß', 'é', '漢', '’', 'k'),
        minLength: 290,
        maxLength: 320,
      }),
    },
  );
  const text = fc.array(piece, { maxLength: 120 }).map((p) => p.join(''));
  const key = fc.uint8Array({ minLength: 8, maxLength: 8 });
  const sender = fc.option(
    fc.constantFrom('Ann <Ann@Shop.Example>', 'x@y.z', 'no address', 'Ünïcödé <ü@bücher.example>'),
    { nil: undefined },
  );

  it('on random and unicode text', () => {
    fc.assert(
      fc.property(key, fc.option(text, { nil: undefined }), text, sender, (k, subject, body, from) => {
        const signal = { subject, body, sender: from };
        expect(sketchSignal(keyOf(k), signal)).toEqual(referenceSketch(keyOf(k), signal));
      }),
      { numRuns: 1_500 },
    );
  });

  it('around the 1,200-character cut-off (a word, an apostrophe or a surrogate pair split by it)', () => {
    const tail = fc.array(fc.constantFrom(...PIECES), { maxLength: 6 }).map((p) => p.join(''));
    fc.assert(
      fc.property(
        key,
        fc.integer({ min: 1_180, max: 1_205 }),
        fc.constantFrom('a', 'ab ', 'é ', '漢 ', 'x’'),
        tail,
        (k, len, unit, end) => {
          const body = unit.repeat(Math.ceil(len / unit.length)).slice(0, len - 1) + end;
          expect(sketchSignal(keyOf(k), { body })).toEqual(referenceSketch(keyOf(k), { body }));
        },
      ),
      { numRuns: 600 },
    );
  });

  it('on long words (features over 300 units are hashed on their first 300) and many distinct words', () => {
    const k = keyOf(Uint8Array.from([9, 8, 7, 6, 5, 4, 3, 2]));
    for (const w of ['a', 'é', '漢', 'ß']) {
      for (const len of [296, 297, 298, 299, 300, 301, 302, 450]) {
        const body = `${w.repeat(len)} ${w.repeat(len + 1)} end ${'b'.repeat(len)}`;
        expect(sketchSignal(k, { body })).toEqual(referenceSketch(k, { body }));
      }
    }
    const many = Array.from({ length: 400 }, (_, i) => `w${i.toString(36)}`).join(' ');
    expect(sketchSignal(k, { subject: 'Hello', body: many }).t).toHaveLength(96);
    expect(sketchSignal(k, { subject: 'Hello', body: many })).toEqual(
      referenceSketch(k, { subject: 'Hello', body: many }),
    );
  });

  it('hashes as the first HalfSipHash did, for any length and a prefix of a longer buffer', () => {
    fc.assert(
      fc.property(key, fc.uint8Array({ maxLength: 40 }), fc.nat(8), (k, data, extra) => {
        const padded = new Uint8Array(data.length + extra);
        padded.set(data);
        padded.fill(0xaa, data.length);
        expect(halfSipHash(keyOf(k), padded, data.length)).toBe(referenceHalfSipHash(keyOf(k), data));
      }),
    );
  });
});
