// Writes the lexicon's first-word index (lambdas/domain/engine/lexicon-index.json) from the lexicon: `npm run
// lexicon:index` after an edit of the lexicon (lexicon.ts, lexicon-operations.ts) or of how words are hashed
// (tokens.ts). The engine refuses an index whose lexicon differs in pattern count or length; the unit tests and every bin
// entry that loads the engine (bin/lexicon-index-check.ts) refuse any index that differs from what this writes.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildLexiconIndex } from '../lambdas/domain/engine/lexicon-index-build';

export const LEXICON_INDEX_FILE = path.join(__dirname, '..', 'lambdas', 'domain', 'engine', 'lexicon-index.json');

/** The file's text: one line, as the model files are. */
export function lexiconIndexText(): string {
  return `${JSON.stringify(buildLexiconIndex())}\n`;
}

/** Exits with a message naming the command when the index lags the lexicon (bin/lexicon-index-check.ts runs it). */
export function exitIfLexiconIndexLags(): void {
  if (readFileSync(LEXICON_INDEX_FILE, 'utf8') === lexiconIndexText()) return;
  console.error('lambdas/domain/engine/lexicon-index.json lags the lexicon: run `npm run lexicon:index`');
  process.exit(2);
}

if (require.main === module) {
  writeFileSync(LEXICON_INDEX_FILE, lexiconIndexText());
  console.log(`wrote ${path.relative(process.cwd(), LEXICON_INDEX_FILE)}`);
}
