// The fast sketch against its oracle (test/support/reference-learning.ts): it must give the same buckets bit for bit
// as the string-and-regex definition for every input, since stored sketches and label counts are keyed by them.
import fc from 'fast-check';
import { halfSipHash, halfSipKey } from '../../lambdas/domain/learning/half-siphash';
import {
  type SketchFormat,
  decodeSketch,
  encodeSketch,
  newSketchKey,
  sketchKeyOf,
  sketchSignal,
} from '../../lambdas/domain/learning/sketch';
import { referenceHalfSipHash, referenceSketch } from '../support/reference-learning';

/** Format 1 unless told: the sketch every workspace made before format 2 keeps. */
const keyOf = (bytes: Uint8Array, format: SketchFormat = 1) => ({ ...halfSipKey(bytes), format });
const FORMATS = fc.constantFrom<SketchFormat>(1, 2);

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
      fc.property(key, FORMATS, fc.option(text, { nil: undefined }), text, sender, (k, f, subject, body, from) => {
        const signal = { subject, body, sender: from };
        expect(sketchSignal(keyOf(k, f), signal)).toEqual(referenceSketch(keyOf(k, f), signal));
      }),
      { numRuns: 1_500 },
    );
  });

  it('around the 1,200-character cut-off (a word, an apostrophe or a surrogate pair split by it)', () => {
    const tail = fc.array(fc.constantFrom(...PIECES), { maxLength: 6 }).map((p) => p.join(''));
    fc.assert(
      fc.property(
        key,
        FORMATS,
        fc.integer({ min: 1_180, max: 1_205 }),
        fc.constantFrom('a', 'ab ', 'é ', '漢 ', 'x’'),
        tail,
        (k, f, len, unit, end) => {
          const body = unit.repeat(Math.ceil(len / unit.length)).slice(0, len - 1) + end;
          expect(sketchSignal(keyOf(k, f), { body })).toEqual(referenceSketch(keyOf(k, f), { body }));
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
        const k2 = { ...k, format: 2 as const };
        expect(sketchSignal(k2, { body })).toEqual(referenceSketch(k2, { body }));
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

describe('sketch formats (docs/learning.md: the format rides with the workspace sketch key)', () => {
  const bytes = Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8]);

  it('reads a key stored before format 2 as format 1, and makes new keys in format 2', () => {
    expect(sketchKeyOf('0102030405060708')).toEqual({ ...halfSipKey(bytes), format: 1 });
    expect(sketchKeyOf('2.0102030405060708')).toEqual({ ...halfSipKey(bytes), format: 2 });
    const fresh = newSketchKey();
    expect(fresh).toMatch(/^2\.[0-9a-f]{16}$/);
    expect(sketchKeyOf(fresh).format).toBe(2);
  });

  it('format 2 adds character 4-grams, so a typo still shares buckets with the word', () => {
    const one = keyOf(bytes, 1);
    const two = keyOf(bytes, 2);
    const shared = (k: ReturnType<typeof keyOf>) => {
      const a = new Set(sketchSignal(k, { body: 'my card was declined' }).t);
      return sketchSignal(k, { body: 'my crad was delcined' }).t.filter((b) => a.has(b)).length;
    };
    expect(sketchSignal(one, { body: 'declined' })).toEqual({ t: expect.any(Array) });
    expect(sketchSignal(one, { body: 'declined' }).t).toHaveLength(2);
    expect(sketchSignal(two, { body: 'declined' }).t).toHaveLength(9);
    expect(shared(two)).toBeGreaterThan(shared(one));
  });

  it('records the format in the stored sketch, and reads sketches stored before formats as format 1', () => {
    for (const f of [1, 2] as const) {
      for (const sender of [undefined, 'Ann <ann@shop.example>']) {
        const sketch = sketchSignal(keyOf(bytes, f), { body: 'card declined again', sender });
        const stored = encodeSketch(sketch);
        expect(stored.length).toBeLessThanOrEqual(197);
        expect(decodeSketch(stored)).toEqual(sketch);
      }
    }
    // A sketch stored before formats: flag byte 0 or 1, no format bit.
    expect(decodeSketch(Uint8Array.from([1, 0, 5, 0, 6, 0, 7]))).toEqual({ t: [7], s: 5, d: 6 });
    expect(decodeSketch(Uint8Array.from([0, 0, 7]))).toEqual({ t: [7] });
  });
});
