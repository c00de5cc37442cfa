// What a request costs, in figures (printed, not asserted).
//   npm run bench                      every section, a table with the goal and PASS/MISS beside each figure
//   npm run --silent bench -- --json   exactly one JSON object on stdout (progress goes to stderr)
//   npm run --silent bench -- --markdown   the figures with a goal as docs/performance.md's "Latest figures" table
//   npm run bench -- --quick           shorter runs of every section (rougher figures)
//   npm run bench -- --only=scorer,ddb --skip=http   choose sections: scorer, ddb, batch, inprocess, access, http, cost, workspace, worst-case, bundles
//   npm run bench -- --digest          a SHA-256 over the scorer's decisions on fixed inputs (compare across commits)
// Each section is a function in its own file returning named figures; main() collects them. To add a section,
// write another bench function, list it in main(), add its name to SECTIONS (options.ts) and give its figures a
// row in goals.json.
//
// Everything runs on this machine: one DynamoDB Local (in memory, on a free loopback port) serves every section
// that needs a database, and is stopped at the end, as are the HTTP servers and child processes.
// What the figures mean and how each is measured: docs/performance.md.
import '../lexicon-index-check';
import os from 'node:os';
import { JavaMissingError } from '../../lib/local/dynamodb-local';
import { benchAccess } from './access';
import { benchBatch } from './batch';
import { benchBundles } from './bundles';
import { benchCost } from './cost';
import { type Figures, progress } from './common';
import { benchDynamoDbCalls } from './ddb-calls';
import { decisionsDigest } from './digest';
import { goalFor, markdownTable, printTable } from './goals';
import { benchHttp } from './http';
import { benchInProcess } from './in-process';
import { type Section, options } from './options';
import { benchScorer } from './scorer';
import { benchWorkspace } from './workspace';
import { benchWorstCase } from './worst-case';
import { type World, startWorld } from './world';

async function main(): Promise<void> {
  const opts = options();
  if (opts.digest) {
    const digest = decisionsDigest();
    console.log(
      opts.json
        ? JSON.stringify(digest)
        : `decisions digest ${digest.sha256} over ${digest.signals.toLocaleString('en-US')} signals ` +
            `(${digest.data_set_signals.toLocaleString('en-US')} from the data sets); scored differently the second time: ${digest.nondeterministic}`,
    );
    return;
  }
  const results: Figures = {};
  const started = Date.now();
  const elapsed = () => `[${Math.round((Date.now() - started) / 1000)} s]`;
  const section = async (name: Section, run: () => Promise<Figures> | Figures) => {
    if (!opts.sections.has(name)) return;
    progress(`${elapsed()} ${name} ...`);
    Object.assign(results, await run());
  };

  await section('scorer', benchScorer);

  // In this order: the workspace section gives the bench workspace a policy and a learned model, and the worst-case
  // section then replaces that policy with a maximal one.
  const dbSections: [Section, (w: World) => Promise<Figures>][] = [
    ['ddb', benchDynamoDbCalls],
    ['batch', (w) => benchBatch(w, opts.quick)],
    ['inprocess', (w) => benchInProcess(w, opts.inprocessIterations)],
    ['access', (w) => benchAccess(w, opts.accessIterations)],
    ['http', (w) => benchHttp(w, opts)],
    ['cost', (w) => benchCost(w, opts.quick)],
    ['workspace', (w) => benchWorkspace(w, opts)],
    ['worst-case', (w) => benchWorstCase(w, opts.quick)],
  ];
  if (dbSections.some(([name]) => opts.sections.has(name))) {
    const world = await startWorld().catch((err: unknown) => {
      if (!(err instanceof JavaMissingError)) throw err;
      console.error(
        `${err.message}\nSkipping the sections that need DynamoDB Local (ddb, batch, inprocess, access, http, cost, workspace).`,
      );
      return undefined;
    });
    if (world) {
      const onSignal = () => void world.stop().finally(() => process.exit(130));
      process.once('SIGINT', onSignal);
      try {
        for (const [name, run] of dbSections) await section(name, () => run(world));
      } finally {
        await world.stop();
        process.removeListener('SIGINT', onSignal);
      }
    }
  }

  // After DynamoDB Local is gone: the JVM would otherwise share the two cores with the init measurements.
  await section('bundles', () => benchBundles(opts));

  // The scorer's share of a warm request: one 2 KB e-mail scored, against the in-process request's median.
  if (results.scorer_ms_per_signal !== undefined && results.inprocess_p50_ms !== undefined) {
    results.scorer_share_of_warm_request =
      Math.round((results.scorer_ms_per_signal / results.inprocess_p50_ms) * 10_000) / 10_000;
  }

  let missed = 0;
  for (const [k, v] of Object.entries(results)) if (goalFor(k)?.check?.(v) === false) missed++;
  results.goals_missed = missed;
  progress(`${elapsed()} done`);
  if (opts.json) process.stdout.write(JSON.stringify(results) + '\n');
  else if (opts.markdown) {
    const run = `${opts.quick ? '`--quick` run' : 'full run'} of ${[...opts.sections].join(', ')}`;
    const heading = `${new Date().toISOString().slice(0, 10)}, Node ${process.versions.node}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim() ?? 'unknown'}), ${run}:`;
    process.stdout.write(markdownTable(results, heading) + '\n');
  } else printTable(results);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exitCode = 1;
});
