// `npm start`: local mode (bin/local.ts). Its first import checks the lexicon index before the engine loads
// (bin/lexicon-index-check.ts), so an index that lags a lexicon edit stops it with the command that fixes it.
import './local';
