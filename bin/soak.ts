// Memory soak of local mode's API (docs/operations.md, "Memory"): DynamoDB Local in memory with its tables, a partner
// and key (as the load test has them), the API in a child process (bin/soak-server.ts) started with the Lambdas'
// NODE_OPTIONS, then 64 workers of the load test's request mix (bin/load-requests.ts) for a number of minutes,
// sampling the child's resident memory every 10 s from /proc. Prints the curve and the figures beside their goals:
//   npm run soak -- --minutes 10                     the full soak
//   npm run soak -- --minutes 1 --node-options ''    one minute, V8's own defaults instead of the Lambdas' bounds
// Exit status 0 when every goal is met, 1 otherwise. Linux only (/proc). Only ever targets 127.0.0.1.
import './lexicon-index-check';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startScratch } from '../lib/local/scratch';
import { LAMBDA_NODE_OPTIONS } from '../lib/lambda-bundling';
import { ENV } from '../lambdas/contract/settings';
import { WORKSPACES } from './load-mix';
import { newShared, newTally, runMix, serverErrorCount } from './load-requests';

const REPO = resolve(__dirname, '..');
const SAMPLE_SECONDS = 10;
/** The issue's goals: growth from 10 s to 60 s at most 50% and 150 MB; over the last 5 of 10 minutes at most 10 MB. */
const GOALS = { earlyGrowthPct: 50, earlyGrowthMb: 150, lateGrowthMb: 10, lateWindowSeconds: 300 };

function options() {
  const { values } = parseArgs({
    options: {
      minutes: { type: 'string', default: '10' },
      workers: { type: 'string', default: '64' },
      'node-options': { type: 'string', default: LAMBDA_NODE_OPTIONS },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(
      `usage: npm run soak -- [--minutes N (default 10, at most 60)] [--workers N (default 64)] [--node-options '<flags>' (default the Lambdas': ${LAMBDA_NODE_OPTIONS})] [--json]`,
    );
    process.exit(0);
  }
  const minutes = Number(values.minutes);
  const workers = Number(values.workers);
  if (!(minutes >= 1 && minutes <= 60) || !Number.isInteger(minutes * 6))
    fail('--minutes must be 1 to 60, in 10 s steps');
  if (!Number.isInteger(workers) || workers < 1 || workers > 1_000)
    fail('--workers must be a whole number from 1 to 1000');
  return { minutes, workers, nodeOptions: values['node-options'].split(/\s+/).filter(Boolean), json: values.json };
}

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

/** A process's resident memory in MB (/proc/<pid>/status). */
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

interface Sample {
  seconds: number;
  rssMb: number;
  heapUsedMb: number;
  heapTotalMb: number;
  externalMb: number;
  requests: number;
}

/** The server child: answers `memory` lines with its process.memoryUsage(). */
class ServerChild {
  private output = '';
  private readonly replies: NodeJS.MemoryUsage[] = [];
  readonly exited: Promise<number | null>;

  constructor(readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.on('data', (c: Buffer) => {
      this.output += c.toString();
      for (const m of this.output.matchAll(/^memory (\{.*\})$/gm))
        this.replies.push(JSON.parse(m[1]) as NodeJS.MemoryUsage);
      this.output = this.output.replace(/^memory \{.*\}\n/gm, '');
    });
    child.stderr.on('data', (c: Buffer) => (this.output += c.toString()));
    this.exited = new Promise((done) => child.once('exit', (code) => done(code)));
  }

  async baseUrl(): Promise<string> {
    for (;;) {
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(this.output);
      if (m) return m[1];
      if (this.child.exitCode !== null) throw new Error(`the soak server exited early:\n${this.output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async memory(gc = false): Promise<NodeJS.MemoryUsage> {
    const before = this.replies.length;
    this.child.stdin.write(gc ? 'memory gc\n' : 'memory\n');
    while (this.replies.length === before) {
      if (this.child.exitCode !== null) throw new Error(`the soak server exited:\n${this.output}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return this.replies[this.replies.length - 1];
  }
}

const mb = (bytes: number) => bytes / 1024 / 1024;
const round = (n: number) => Math.round(n * 10) / 10;

async function main() {
  const opts = options();
  const log = (line: string) => {
    if (!opts.json) console.log(line);
  };
  log('starting DynamoDB Local (in memory) ...');
  const scratch = await startScratch({ name: 'soak', partner: 'soak', workspaces: WORKSPACES, fullJit: true });
  let server: ServerChild | undefined;
  const stop = async () => {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    await scratch.stop();
  };
  process.once('SIGINT', () => void stop().then(() => process.exit(130)));
  try {
    const key = await scratch.newKey();
    server = new ServerChild(
      spawn(
        process.execPath,
        [
          ...opts.nodeOptions,
          '--expose-gc',
          '--import',
          resolve(REPO, 'bin/require-esm-only.mjs'),
          '--import',
          'tsx',
          resolve(REPO, 'bin/soak-server.ts'),
        ],
        {
          cwd: REPO,
          env: {
            ...process.env,
            [ENV.dynamodbEndpoint]: scratch.db.endpoint,
            [ENV.dynamodbLocalAccessKeyId]: scratch.db.credentials.accessKeyId,
            [ENV.region]: scratch.db.credentials.region,
            [ENV.accessTableName]: scratch.names.access,
            [ENV.decisionsTableName]: scratch.names.decisions,
            [ENV.logLevel]: 'SILENT',
            [ENV.metricsDisabled]: 'true',
          },
          stdio: 'pipe',
        },
      ),
    );
    const origin = await server.baseUrl();
    const pid = server.child.pid!;

    const shared = newShared(key, 'soak');
    const tally = newTally();
    // The load generator's own memory is not measured, but keep it flat over an hour: only recent ids are kept.
    const keepRecentIds = () => {
      if (shared.decisionIds.length > 20_000) shared.decisionIds.splice(0, 10_000);
      if (shared.decisions.size > 20_000) shared.decisions.clear();
    };

    const requests = () => Object.values(tally.statusCounts).reduce((a, b) => a + b, 0);
    const samples: Sample[] = [];
    const started = Date.now();
    const sample = async () => {
      const m = await server!.memory();
      const s: Sample = {
        seconds: Math.round((Date.now() - started) / 1000),
        rssMb: round(rssMb(pid)),
        heapUsedMb: round(mb(m.heapUsed)),
        heapTotalMb: round(mb(m.heapTotal)),
        externalMb: round(mb(m.external)),
        requests: requests(),
      };
      samples.push(s);
      keepRecentIds();
      log(
        `${String(s.seconds).padStart(5)} s  rss ${s.rssMb.toFixed(1).padStart(6)} MB  heap ${s.heapUsedMb.toFixed(1).padStart(6)}/${s.heapTotalMb.toFixed(1).padStart(6)} MB  external ${s.externalMb.toFixed(1).padStart(5)} MB  ${s.requests} requests`,
      );
    };
    log(
      `soak: ${opts.workers} workers for ${opts.minutes} min against ${origin} (server pid ${pid}, node ${process.version}, options: ${opts.nodeOptions.join(' ') || "V8's defaults"})`,
    );
    log(`before load: rss ${rssMb(pid).toFixed(1)} MB`);
    const timer = setInterval(() => void sample(), SAMPLE_SECONDS * 1000);
    const result = await runMix(shared, tally, {
      url: origin,
      connections: opts.workers,
      duration: opts.minutes * 60,
    });
    clearInterval(timer);
    await sample(); // the end of the run, whenever the last timer fired
    const afterGc = await server.memory(true);

    // The sample nearest a time: timers run late on a loaded machine.
    const at = (seconds: number) =>
      samples.reduce((best, s) => (Math.abs(s.seconds - seconds) < Math.abs(best.seconds - seconds) ? s : best));
    const last = samples[samples.length - 1];
    const s10 = at(10);
    const s60 = at(60);
    const lateFrom = at(last.seconds - GOALS.lateWindowSeconds);
    const serverErrors = serverErrorCount(tally);
    const figures = {
      node: process.version,
      node_options: opts.nodeOptions.join(' '),
      minutes: opts.minutes,
      workers: opts.workers,
      load_average_1m: Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]),
      requests: result.requests.total,
      server_errors: serverErrors,
      connection_errors: result.errors,
      unexpected_answers: tally.unexpected.length,
      rss_10s_mb: s10?.rssMb,
      rss_60s_mb: s60?.rssMb,
      rss_growth_10_60_pct: s10 && s60 ? round(((s60.rssMb - s10.rssMb) / s10.rssMb) * 100) : undefined,
      rss_growth_10_60_mb: s10 && s60 ? round(s60.rssMb - s10.rssMb) : undefined,
      rss_growth_last_5_min_mb:
        last.seconds >= 2 * GOALS.lateWindowSeconds - 1 && lateFrom ? round(last.rssMb - lateFrom.rssMb) : undefined,
      rss_max_mb: Math.max(...samples.map((s) => s.rssMb)),
      heap_used_after_gc_mb: round(mb(afterGc.heapUsed)),
      curve: samples,
    };
    const goals = [
      ['5xx', serverErrors, '0', serverErrors === 0],
      [
        'RSS growth 10 s -> 60 s',
        `${figures.rss_growth_10_60_pct}% / ${figures.rss_growth_10_60_mb} MB`,
        `<= ${GOALS.earlyGrowthPct}% and <= ${GOALS.earlyGrowthMb} MB`,
        figures.rss_growth_10_60_pct !== undefined &&
          figures.rss_growth_10_60_pct <= GOALS.earlyGrowthPct &&
          figures.rss_growth_10_60_mb! <= GOALS.earlyGrowthMb,
      ],
      [
        'RSS growth over the last 5 of 10+ minutes',
        figures.rss_growth_last_5_min_mb === undefined
          ? 'not measured (run 10 minutes)'
          : `${figures.rss_growth_last_5_min_mb} MB`,
        `<= ${GOALS.lateGrowthMb} MB`,
        figures.rss_growth_last_5_min_mb === undefined || figures.rss_growth_last_5_min_mb <= GOALS.lateGrowthMb,
      ],
    ] as const;
    const ok = goals.every(([, , , met]) => met);
    const serverErrorSamples = tally.unexpected.filter((u) => u.status >= 500).slice(0, 3);
    if (opts.json) {
      console.log(
        JSON.stringify({ ...figures, status_counts: tally.statusCounts, server_error_samples: serverErrorSamples, ok }),
      );
    } else {
      log('');
      log(
        `requests ${figures.requests} (${Math.round(figures.requests / (opts.minutes * 60))}/s), connection errors ${result.errors}, unexpected answers ${tally.unexpected.length}; load average ${figures.load_average_1m} on ${figures.node}`,
      );
      log(
        `status counts ${Object.entries(tally.statusCounts)
          .map(([s, n]) => `${s}: ${n}`)
          .join(', ')}`,
      );
      for (const u of serverErrorSamples) log(`  a ${u.status} (${u.kind}): ${u.body.slice(0, 200)}`);
      log(
        `rss max ${figures.rss_max_mb} MB; heap used after a full collection at the end ${figures.heap_used_after_gc_mb} MB`,
      );
      for (const [name, figure, goal, met] of goals)
        log(`${name.padEnd(42)} ${String(figure).padEnd(30)} goal ${goal.padEnd(26)} ${met ? 'met' : 'MISSED'}`);
      log(ok ? 'OK' : 'FAILED');
    }
    process.exitCode = ok ? 0 : 1;
  } finally {
    await stop();
  }
}

main().catch((err) => {
  console.error(`soak failed: ${(err as Error).stack ?? err}`);
  process.exit(1);
});
