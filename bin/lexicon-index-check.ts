// Imported first by every bin entry that loads the decision engine (`npm start`, the eval, the trainers, the bench...;
// not the admin CLI, whose test bundle has no lexicon sources beside it to compare the index with):
// the engine reads its first-word index as its module loads and throws on an index built from another lexicon, so
// the check must run before the entry's other imports are evaluated, or a lagging index (a lexicon edit not followed
// by `npm run lexicon:index`) stops the entry with a stack trace instead of the line naming the command. Imports run
// in order, so being the first import is enough.
import { exitIfLexiconIndexLags } from './lexicon-index';

exitIfLexiconIndexLags();
