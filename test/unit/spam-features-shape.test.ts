// The spam features' body shape (three or more '!', indented lines, the share of punctuation) read through a table of
// flags from a copy of the body's code units: the same features as the plain definition below, a test per code unit,
// for any text of blanks, line breaks, carriage returns, punctuation and letters inside and outside Latin-1.
import fc from 'fast-check';
import { NAMED_FEATURES, WORD_BUCKETS, spamFeatures } from '../../lambdas/domain/engine/spam-features';
import { TokenBuffer } from '../../lambdas/domain/engine/tokens';

const SHAPE_FEATURES = ['exclaim:3+', 'indented_lines', 'punctuation:8%+'] as const;

/** The features' definition, one code unit at a time (what spam-features.ts computed before the table). */
function plainShape(body: string): string[] {
  const n = Math.min(body.length, 20_000);
  let bangs = 0;
  let punctuation = 0;
  let visible = 0;
  let lines = 0;
  let indented = 0;
  let fresh = true;
  let leadingBlank = false;
  for (let i = 0; i < n; i++) {
    const c = body.charCodeAt(i);
    if (c === 10) {
      fresh = true;
      leadingBlank = false;
      continue;
    }
    if (c === 32 || c === 9 || c === 13 || c === 0xa0) {
      if (fresh && c !== 13) leadingBlank = true;
      continue;
    }
    if (fresh) {
      fresh = false;
      lines++;
      if (leadingBlank) indented++;
    }
    visible++;
    if (c === 33) bangs++;
    if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c >= 0xc0)) punctuation++;
  }
  const out: string[] = [];
  if (bangs >= 3) out.push('exclaim:3+');
  if (lines >= 4 && indented * 5 >= lines) out.push('indented_lines');
  if (visible >= 40 && punctuation * 100 >= visible * 8) out.push('punctuation:8%+');
  return out;
}

const buf = new TokenBuffer();
const out = new Int32Array(4096);
function shapeFeatures(body: string): string[] {
  buf.reset();
  buf.add('', 0, 1000);
  buf.add(body, 1, 20_000);
  const named = new Set(
    Array.from(out.subarray(0, spamFeatures(buf, null, out)))
      .filter((f) => f >= WORD_BUCKETS)
      .map((f) => NAMED_FEATURES[f - WORD_BUCKETS]),
  );
  return SHAPE_FEATURES.filter((name) => named.has(name));
}

// Units at each of the definition's edges: blanks (and the carriage return, which is no indent), the line break,
// ASCII letters and digits, punctuation, Latin-1 units before U+00C0 (punctuation) and from it (not), and units beyond.
const UNITS = [
  ' ',
  '\t',
  '\r',
  '\n',
  '\u00a0',
  '!',
  '.',
  ',',
  'a',
  'Z',
  '7',
  '\u00aa',
  '\u00bf',
  '\u00c0',
  '\u00e9',
  '\u00d7',
  '\u2014',
  '\u201c',
  '\u2028',
  '\u0e01',
  '\ud83d\ude00',
];

describe('the spam features of the body shape', () => {
  it('are those of the plain definition for any mix of blanks, breaks, punctuation and letters', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...UNITS), { maxLength: 300 }), (units) => {
        const body = units.join('');
        expect(shapeFeatures(body)).toEqual(plainShape(body));
      }),
      { numRuns: 2000 },
    );
  });

  it('read the first 20,000 characters only, and from ASCII and two-byte text alike', () => {
    const indentedLines = '  a line\n'.repeat(3000); // 27,000 characters
    expect(shapeFeatures(indentedLines)).toEqual(plainShape(indentedLines));
    const bangsLate = 'x'.repeat(20_000) + '!!!';
    expect(shapeFeatures(bangsLate)).toEqual([]);
    for (const body of [
      'Hi!\n  a\n  b\n  c!\n  d!',
      'Grüße — “so”!\n\u00a0a\n\u00a0b\n c\n\u00a0d!!',
      ' \n\r\nx\ny\nz\nw!!!...',
      '\rx\r\n\ry\r\n\rz\r\n\rw',
    ])
      expect(shapeFeatures(body)).toEqual(plainShape(body));
  });
});
