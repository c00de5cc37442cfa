// `npm start`: local mode (bin/local.ts), after the lexicon index is checked. The engine reads the index as its module
// loads, so an index that lags a lexicon edit would stop local.ts's imports with a stack trace before its own check
// could name the command that fixes it.
import { exitIfLexiconIndexLags } from './lexicon-index';

exitIfLexiconIndexLags();
void import('./local');
