// Text as policy keywords are matched in (docs/partners.md, "Workspace policy"), the same for a keyword and for the
// subject or body it is looked for in:
// - composed (composed-text.ts), with the characters that split a word for no reader's eye left out: a soft hyphen,
//   a word joiner, a BOM. A zero-width space stays: Thai and other scripts without spaces separate words with it;
// - the typographic apostrophes (’ ‘ ʼ ＇) written as the straight one;
// - the two case pairs simple case folding (/iu) misses written out: ß and ẞ as ss (STRASSE is Straße), Turkish İ as i
//   (İPTAL is iptal);
// - full-width Latin and the Latin ligatures as the letters they stand for (compat-latin.ts): ＵＲＧＥＮＴ is URGENT, oﬃce
//   is office.
// Letters are replaced by letters, so a keyword still matches whole words only; ʼ, a letter to Unicode, becomes the
// apostrophe it looks like (`don` matches `donʼt` as it matches `don't`). Pure.
import { plainLatin } from './compat-latin';
import { composed } from './composed-text';

// Soft hyphen, word joiner, BOM: left out before composing, so that a mark they separated from its letter composes.
const INVISIBLE_CHARACTERS = String.raw`\u00AD\u2060\uFEFF`; // as regular expression source
const INVISIBLE = new RegExp(`[${INVISIBLE_CHARACTERS}]`, 'g');
// After composing: İ is also I followed by a combining dot above.
const REPLACED = /[\u2018\u2019\u02BC\uFF07\u00DF\u1E9E\u0130]/g;
const REPLACEMENT: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u02BC': "'",
  '\uFF07': "'",
  '\u00DF': 'ss',
  '\u1E9E': 'ss',
  '\u0130': 'i',
};

export function keywordText(text: string): string {
  // Compatibility forms first, so that a mark after a ligature composes with its last letter.
  return composed(plainLatin(text.replace(INVISIBLE, ''))).replace(REPLACED, (c) => REPLACEMENT[c]);
}

const EDGES = /^[\s\u200B]+|[\s\u200B]+$/g;

/** A keyword as matched: its text as above, without whitespace or zero-width spaces at either end. */
export const keywordPhrase = (phrase: string): string => keywordText(phrase).replace(EDGES, '');

// Zero-width spaces and joiners (U+200B, U+200C, U+200D) stay in the text, but a phrase of nothing else could only
// match them alone.
const VISIBLE_CHARACTER = new RegExp(String.raw`[^\s${INVISIBLE_CHARACTERS}\u200B\u200C\u200D]`);

/** Whether a phrase holds a character a reader sees: not only whitespace, invisible characters and joiners. */
export const hasVisible = (phrase: string): boolean => VISIBLE_CHARACTER.test(phrase);
