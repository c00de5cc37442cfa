// Text as policy keywords are matched in (docs/partners.md, "Workspace policy"), the same for a keyword and for the
// subject or body it is looked for in: composed (composed-text.ts), with the invisible characters that split a word
// for the eye of no one (soft hyphen, zero-width space, word joiner, BOM) left out, and the typographic apostrophes
// (’ ‘ ʼ ＇) written as the straight one, as the engine and the learning sketch read them. Pure.
import { composed } from './composed-text';

// Left out before composing, so that a mark they separated from its letter composes with it.
const INVISIBLE = /[\u00AD\u200B\u2060\uFEFF]/g;
const APOSTROPHES = /[\u2018\u2019\u02BC\uFF07]/g;

export function keywordText(text: string): string {
  return composed(text.replace(INVISIBLE, '')).replace(APOSTROPHES, "'");
}

// Zero-width joiners (U+200C, U+200D) stay in the text (they shape Persian, Indic scripts and emoji), but a phrase of
// nothing else could only match them alone.
const SEEN = /[^\s\u00AD\u200B\u2060\uFEFF\u200C\u200D]/;

/** Whether a phrase holds a character a reader sees: not only whitespace, invisible characters and joiners. */
export const hasVisible = (phrase: string): boolean => SEEN.test(phrase);
