// Jest starts the files that took longest on this machine's last run first, and with no such record (a fresh clone:
// CI) the largest files first. The slowest files are small ones that loop (20,000 fuzz requests, 1,000 fault
// schedules), so a fresh clone started them last and one worker ran them alone at the end: about 30 s over the suite's
// 6 minutes, where the record's order keeps both workers busy. These start first, whatever the record says.
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

/** Slowest first, each a minute or more on 2 cores (a full run's --json durations). */
const SLOWEST = [
  'test/e2e/fuzz-routes.test.ts',
  'test/integration/learning-faults.test.ts',
  'test/integration/learning-migration-parts.test.ts',
  'test/e2e/admin-cli-audit.test.ts',
];

const ROOT = join(__dirname, '..', '..');
const gone = SLOWEST.filter((file) => !existsSync(join(ROOT, file)));
// A file renamed or removed must not leave its slow successor at the end unnoticed.
if (gone.length) throw new Error(`slowest-first-sequencer.cjs names files that do not exist: ${gone.join(', ')}`);

class SlowestFirst extends Sequencer {
  sort(tests) {
    const rank = (test) => {
      const at = SLOWEST.findIndex((file) => test.path === join(ROOT, file));
      return at === -1 ? SLOWEST.length : at;
    };
    // Array.prototype.sort is stable: the rest keep the order jest chose.
    return [...super.sort(tests)].sort((a, b) => rank(a) - rank(b));
  }
}

module.exports = SlowestFirst;
