// `npm run test:unit`: the inner loop. The unit tests alone, with no database (so no Java), in an order shuffled
// by a seed jest prints (`--seed=<n>` replays it), so no test leans on another having run first.
const { jest: base } = require('./package.json');

module.exports = {
  ...base,
  rootDir: __dirname,
  roots: ['<rootDir>/test/unit'],
  globalSetup: undefined,
  globalTeardown: undefined,
  randomize: true,
  showSeed: true,
};
