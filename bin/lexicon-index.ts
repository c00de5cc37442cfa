// Writes the lexicon's first-word index (lambdas/domain/engine/lexicon-index.json) from the lexicon: `npm run
// lexicon:index` after an edit of lambdas/domain/engine/lexicon.ts or lexicon-operations.ts. The engine refuses to load
// an index built from another lexicon, and test/unit/lexicon-index.test.ts fails while the file differs from this.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildLexiconIndex } from '../lambdas/domain/engine/lexicon-index';
import type { LexiconIndexFile } from '../lambdas/domain/engine/lexicon-patterns';

export const LEXICON_INDEX_FILE = path.join(__dirname, '..', 'lambdas', 'domain', 'engine', 'lexicon-index.json');

/** The file's text: one line, as the model files are. */
export function lexiconIndexText(index: LexiconIndexFile = buildLexiconIndex()): string {
  return `${JSON.stringify(index)}\n`;
}

if (require.main === module) {
  writeFileSync(LEXICON_INDEX_FILE, lexiconIndexText());
  console.log(`wrote ${path.relative(process.cwd(), LEXICON_INDEX_FILE)}`);
}
