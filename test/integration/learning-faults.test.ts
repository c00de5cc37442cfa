// Learning counts under faults (issue 32, "Tested under faults"; docs/learning.md, "Fault-schedule test"): seeded
// schedules of feedback, re-feedback, imports, forgets, container loads and folds, through the route handlers with the
// SDK's retries on top, against this run's DynamoDB Local. The injector fails calls before they are sent, loses the
// answer of calls that landed (simulated: DynamoDB Local cannot lose an answer), times calls out, delays them, and
// stops writers between calls. After each schedule a newly loaded container must hold, for every label, what the
// reference model allows: each acknowledged operation once, each unacknowledged one once or not at all.
// A failure prints the seed; `npm run faults -- --seed <seed> --schedules 1` runs that schedule again.
// On the store of main 1e9d79a it fails by design (issue 32: seed 17 is the 503-retry loss); it lands with the new store.
import {
  type FaultRun,
  describeFailure,
  runFaultSchedules,
  startFaultRun,
  summaryLine,
} from '../support/learning-faults';

const SCHEDULES = 1_000;
/** Another range of seeds: LEARNING_FAULTS_SEED=5001 npx jest test/integration/learning-faults.test.ts */
const FIRST_SEED = Number(process.env.LEARNING_FAULTS_SEED ?? 1);

let run: FaultRun;
beforeAll(async () => {
  run = await startFaultRun('faults');
});
afterAll(async () => {
  await run?.close();
});

// Its own time is the figure to watch (about a minute here; `npm run faults` prints schedules per second): the
// timeout only stops a run that hangs, on a machine shared with other test files.
it(`loses and doubles no learned count over ${SCHEDULES} seeded fault schedules (seeds ${FIRST_SEED}..${FIRST_SEED + SCHEDULES - 1})`, async () => {
  const summary = await runFaultSchedules(run, { firstSeed: FIRST_SEED, schedules: SCHEDULES });
  const report = [
    summaryLine(summary),
    ...summary.failures.slice(0, 2).map(describeFailure),
    ...(summary.failures.length ? [`failing seeds: ${summary.failures.map((f) => f.seed).join(' ')}`] : []),
    ...summary.errors.slice(0, 2).map((e) => `seed ${e.seed} could not run: ${e.error}`),
  ].join('\n\n');
  expect(report).toBe(`${SCHEDULES} schedules, 0 counts lost, 0 doubled`);
}, 300_000);
