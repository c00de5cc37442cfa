// Text as policy keywords are matched in (docs/partners.md, "Workspace policy"), the same for a keyword and for the
// subject or body it is looked for in: composed (composed-text.ts), with the invisible characters that split a word
// for the eye of no one (soft hyphen, zero-width space, word joiner, BOM) left out, the typographic apostrophes
// (’ ‘ ʼ ＇) written as the straight one, as the engine and the learning sketch read them, and the two case pairs
// that simple case folding (/iu) misses written out: ß and ẞ as ss (STRASSE is Straße), Turkish İ as i (İPTAL is
// iptal); full-width Latin letters and digits as ASCII (ＵＲＧＥＮＴ, as Japanese input writes it, is URGENT, as the
// engine reads it). Letters are replaced by letters, so a keyword still matches whole words only; ʼ, a letter to Unicode, becomes
// the apostrophe it looks like (`don` matches `donʼt` as it matches `don't`). Pure.
import { composed } from './composed-text';

// Left out before composing, so that a mark they separated from its letter composes with it.
const INVISIBLE = /[\u00AD\u200B\u2060\uFEFF]/g;
// After composing: İ is also I followed by a combining dot above.
const REPLACED = /[\u2018\u2019\u02BC\uFF07\u00DF\u1E9E\u0130\uFF10-\uFF19\uFF21-\uFF3A\uFF41-\uFF5A]/g;
const REPLACEMENT: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u02BC': "'",
  '\uFF07': "'",
  '\u00DF': 'ss',
  '\u1E9E': 'ss',
  '\u0130': 'i',
};

/** A full-width Latin letter or digit (U+FF21 `Ａ`) less this is its ASCII one (U+0041 `A`). */
const FULL_WIDTH_OFFSET = 0xfee0;

export function keywordText(text: string): string {
  return composed(text.replace(INVISIBLE, '')).replace(
    REPLACED,
    (c) => REPLACEMENT[c] ?? String.fromCharCode(c.charCodeAt(0) - FULL_WIDTH_OFFSET),
  );
}

// Zero-width joiners (U+200C, U+200D) stay in the text (they shape Persian, Indic scripts and emoji), but a phrase of
// nothing else could only match them alone.
const SEEN = /[^\s\u00AD\u200B\u2060\uFEFF\u200C\u200D]/;

/** Whether a phrase holds a character a reader sees: not only whitespace, invisible characters and joiners. */
export const hasVisible = (phrase: string): boolean => SEEN.test(phrase);
