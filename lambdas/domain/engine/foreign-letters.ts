// Whether a Latin-script text is in a language the engine has no word lists for (language.ts answers `und` for it when
// its function words give no clear lead). Pure.
//
// Latin letters none of the seven languages writes (Polish ł, Czech ř, Turkish ş, Romanian ș, Danish ø, Swedish å,
// Hungarian ő, Vietnamese ơ, ...): a text where they are at least 1% of the letters, and whose function words give no
// clear lead, is in a language without word lists here, where the trigrams would only pick the nearest of the seven.
// A capitalized word is a name as often as not ("Please call Paweł back", "Paweł called"), and an address or domain
// (paweł@firma.pl) is a name too: their letters do not count. A word in capitals does (ZAMÓWIENIE NIE DOTARŁO).
// Measured in decision-engine.md, "Latin-script languages without word lists".
const LETTERS_OF_THE_SEVEN = new Set('àáâãäçèéêëìíîïñòóôõöùúûüÿœß');
// Per code unit from U+00C0 to U+1EFF, filled on first sight (building the whole table took 3 ms of module load):
// KNOWN, and whether it is a foreign Latin letter and a capital.
const KNOWN = 1;
const FOREIGN_LETTER = 2;
const CAPITAL = 4;
const LATIN_INFO = new Uint8Array(0x1f00);
function latinInfo(c: number): number {
  if (LATIN_INFO[c] === 0) {
    const ch = String.fromCharCode(c);
    const lower = ch.toLowerCase();
    const foreign = (c <= 0x24f || c >= 0x1e00) && /^\p{L}$/u.test(lower) && !LETTERS_OF_THE_SEVEN.has(lower);
    LATIN_INFO[c] = KNOWN | (foreign ? FOREIGN_LETTER : 0) | (lower !== ch ? CAPITAL : 0);
  }
  return LATIN_INFO[c];
}

const isLatinLetter = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 0xc0 && c < 0x1f00);
const isCapital = (c: number) => (c < 128 ? c >= 65 && c <= 90 : (latinInfo(c) & CAPITAL) !== 0);
// `@` or `.` just before a word, `@` just after it, or a `.` and a letter: part of an address or a domain.
const isAddressMark = (c: number) => c === 64 || c === 46;

/** Foreign letters in the words that count (above), and all letters, of a text's first `limit` characters, into `out`. */
function countForeign(t: string, limit: number, out: { foreign: number; letters: number }): void {
  const n = t.length < limit ? t.length : limit;
  let i = 0;
  while (i < n) {
    if (!isLatinLetter(t.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    let foreign = 0;
    let capitals = 0;
    for (; i < n && isLatinLetter(t.charCodeAt(i)); i++) {
      const c = t.charCodeAt(i);
      if (c >= 0xc0 && (latinInfo(c) & FOREIGN_LETTER) !== 0) foreign++;
      if (isCapital(c)) capitals++;
    }
    out.letters += i - start;
    const address =
      (start > 0 && isAddressMark(t.charCodeAt(start - 1))) ||
      (i < n && t.charCodeAt(i) === 64) ||
      (i + 1 < n && t.charCodeAt(i) === 46 && isLatinLetter(t.charCodeAt(i + 1)));
    const name = capitals === 1 && i - start > 1 && isCapital(t.charCodeAt(start));
    if (!address && !name) out.foreign += foreign;
  }
}

/**
 * Whether letters none of the seven writes, in the words that count, are at least 1% of the letters of the texts' first
 * `limit` characters each (language.ts reads the subject and the body so).
 */
export function foreignLetters(texts: readonly string[], limit: number): boolean {
  const out = { foreign: 0, letters: 0 };
  for (const t of texts) countForeign(t, limit, out);
  return out.foreign > 0 && out.foreign * 100 >= out.letters;
}
