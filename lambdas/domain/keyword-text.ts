// Text as policy keywords are matched in (docs/partners.md, "Workspace policy"), the same for a keyword and for the
// subject or body it is looked for in: composed (composed-text.ts), and the typographic apostrophes (’ ‘ ʼ ＇) written
// as the straight one, as the engine and the learning sketch read them. Pure.
import { composed } from './composed-text';

const APOSTROPHES = /[\u2018\u2019\u02BC\uFF07]/g;

export function keywordText(text: string): string {
  return composed(text).replace(APOSTROPHES, "'");
}
