// Latin written in compatibility forms: full-width letters and digits (`Ｕ` U+FF35, as Japanese input writes them)
// and the Latin ligatures (`ﬁ` U+FB01, as PDF text extraction leaves them). Policy keywords read them as the letters
// they stand for, their NFKC form; so does the engine's tokenizer, except `ﬃ` and `ﬄ` (its tables fold a character
// to two units at most). Pure.

/** Whether a UTF-16 code unit is one of them. */
export const isCompatLatin = (c: number): boolean =>
  (c >= 0xff10 && c <= 0xff19) ||
  (c >= 0xff21 && c <= 0xff3a) ||
  (c >= 0xff41 && c <= 0xff5a) ||
  (c >= 0xfb00 && c <= 0xfb06);

const COMPAT_LATIN = /[\uFF10-\uFF19\uFF21-\uFF3A\uFF41-\uFF5A\uFB00-\uFB06]/g;

/** The text with each of them written as the letters it stands for. */
export const plainLatin = (text: string): string => text.replace(COMPAT_LATIN, (c) => c.normalize('NFKC'));
