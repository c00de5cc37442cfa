// The fault-schedule test of learning counts, at any size (docs/learning.md, "Fault-schedule test"): DynamoDB Local
// in memory, then seeded schedules of feedback, re-feedback, imports, forgets, container loads and folds under injected
// faults, each compared with the reference model. A failing schedule prints its seed; run that seed alone to see it again.
//   npm run faults -- --schedules 100000 --seed 1        schedules of seeds 1 .. 100000
//   npm run faults -- --seed 4711 --schedules 1          one schedule, its trace printed if it fails
//   npm run faults -- --fault-scale 0                    the same schedules without faults (the harness's baseline)
//   npm run faults -- --containers 1                     one writer container (no cache of another one)
// Prints "N schedules, K counts lost, D doubled" last. Exit status 1 when any count was lost or doubled.
import './lexicon-index-check';
import { parseArgs } from 'node:util';
import { IN_MEMORY, startDynamoDbLocal } from '../lib/local/dynamodb-local';
import { callsSeen } from '../test/support/learning-faults-injector';
import {
  type FaultSummary,
  describeFailure,
  runFaultSchedules,
  startFaultRun,
  summaryLine,
} from '../test/support/learning-faults';

const { values } = parseArgs({
  options: {
    schedules: { type: 'string', default: '1000' },
    seed: { type: 'string', default: '1' },
    parallel: { type: 'string', default: '12' },
    /** Scales the faults' chances: 0 runs the schedules without faults (the harness's own baseline). */
    'fault-scale': { type: 'string', default: '1' },
    /** Writers' containers (1: every request meets the same cached workspaces). */
    containers: { type: 'string', default: '2' },
    /** How many failing schedules to print in full (the others by seed). */
    show: { type: 'string', default: '3' },
  },
});
const count = (name: string, v: string | undefined, min: number) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer of at least ${min}`);
  return n;
};
const schedules = count('schedules', values.schedules, 1);
const firstSeed = count('seed', values.seed, 0);
const parallel = count('parallel', values.parallel, 1);
const show = count('show', values.show, 0);
const containers = count('containers', values.containers, 1);
const faultScale = Number(values['fault-scale']);
if (!(faultScale >= 0)) throw new Error('--fault-scale must be a number of at least 0');

function report(s: FaultSummary, seconds: number): void {
  const shown = s.failures.slice(0, show);
  for (const f of shown) console.log(`${describeFailure(f)}\n`);
  if (s.failures.length > shown.length) console.log(`failing seeds: ${s.failures.map((f) => f.seed).join(' ')}\n`);
  for (const e of s.errors.slice(0, 3)) console.log(`seed ${e.seed} could not run: ${e.error}\n`);
  if (s.unexpected.length)
    console.log(`unexpected answers (${s.unexpected.length}): ${s.unexpected.slice(0, 5).join(' | ')}`);
  const faults = Object.entries(s.faults)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  console.log(
    `operations: ${s.acknowledged} acknowledged, ${s.unacknowledged} not; faults injected: ${faults}; ` +
      `${(callsSeen.n / Math.max(1, s.schedules)).toFixed(1)} writer calls per schedule; ` +
      `${seconds.toFixed(1)} s (${(s.schedules / seconds).toFixed(0)} schedules/s)`,
  );
  console.log(summaryLine(s));
}

async function main(): Promise<number> {
  const db = await startDynamoDbLocal({ port: 0, dataDir: IN_MEMORY });
  process.env.TEST_DYNAMODB_ENDPOINT = db.endpoint;
  const run = await startFaultRun('faultscli', faultScale, containers);
  const started = Date.now();
  try {
    let done = 0;
    const summary = await runFaultSchedules(run, { firstSeed, schedules, parallel }, (r) => {
      if (++done % 1_000 === 0 || r.lost || r.doubled)
        process.stderr.write(`${done}/${schedules} schedules${r.lost || r.doubled ? ` (seed ${r.seed} off)` : ''}\n`);
    });
    report(summary, (Date.now() - started) / 1000);
    return summary.lost || summary.doubled || summary.totalsOff || summary.errors.length ? 1 : 0;
  } finally {
    await run.close();
    await db.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(2);
  },
);
