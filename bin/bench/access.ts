// Section "access": grants at partner scale and per-key rate limits.
//   - warm in-process analyze latency with a key holding 1 grant and one holding 10,000 (interleaved, same run);
//   - the cold cost of a (key, workspace) pair in database reads;
//   - the admin CLI granting 10,000 workspaces from --workspaces-file (a real process);
//   - counter writes per request under a rate limit, at steady state, over three instances with an injected clock.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { IN_MEMORY } from '../../lib/local/dynamodb-local';
import { removePortRecord, writePortRecord } from '../../lib/local/port-record';
import { type Service, createService } from '../../lambdas/service';
import { CallCounter } from './call-counter';
import { type Figures, REPO_ROOT, percentile, progress, wallMs } from './common';
import { analyzeEvents, assertOk, inProcess } from './requests';
import type { World } from './world';

const exec = promisify(execFile);
const MANY = 10_000;

/** A service as the world's (same settings and tables), on its own client, its DynamoDB calls counted. */
function countedService(world: World, clock?: () => number): { service: Service; counter: CallCounter } {
  const service = createService(world.service.dependencies.settings, { clock });
  return {
    service,
    counter: new CallCounter().attach(service.dependencies.client.middlewareStack, 'benchAccessCounter'),
  };
}

/** Seconds the admin CLI (a real process) takes to grant a key the workspaces of a file. */
async function cliGrantSeconds(world: World, keyId: string, workspaces: string[]): Promise<number> {
  const dir = await mkdtemp(path.join(tmpdir(), 'sas-bench-'));
  try {
    const file = path.join(dir, 'workspaces.txt');
    await writeFile(file, workspaces.join('\n'));
    // The admin CLI finds a running database's credentials through its port record, as it does for `npm start`.
    writePortRecord({ ...world.db.credentials, port: world.db.port, pid: process.pid, dataDir: IN_MEMORY });
    const cli = ['--import', './bin/require-esm-only.mjs', '--import', 'tsx', 'bin/admin.ts', 'key', 'grant'];
    const env = {
      ...process.env,
      LOCAL_DYNAMODB_PORT: new URL(world.db.endpoint).port,
      ACCESS_TABLE_NAME: world.names.access,
      DECISIONS_TABLE_NAME: world.names.decisions,
    };
    const t = Date.now();
    await exec('node', [...cli, '--key-id', keyId, '--workspaces-file', file, '--json'], {
      cwd: REPO_ROOT,
      env,
      maxBuffer: 64 * 1024 * 1024,
    });
    return (Date.now() - t) / 1000;
  } finally {
    removePortRecord(world.db.port);
    await rm(dir, { recursive: true, force: true });
  }
}

async function warmLatency(world: World, iterations: number): Promise<Figures> {
  const one = await world.keyFor('ws_one_grant');
  const many = await world.keyFor('ws_many_0');
  progress(`  granting ${MANY.toLocaleString('en-US')} workspaces with the admin CLI (--workspaces-file) ...`);
  const manyWorkspaces = Array.from({ length: MANY - 1 }, (_, i) => `ws_many_${i + 1}`);
  const cliSeconds = await cliGrantSeconds(world, many.key_id, manyWorkspaces);
  const listed = await world.admin.listKeys('bench');
  const manyGrants = listed.keys.find((k) => k.key_id === many.key_id)!.workspaces.length;

  const { service, counter } = countedService(world);
  const analyze = async (key: string, body: string) => assertOk(await inProcess(service, analyzeEvents(key, body)));
  try {
    const keys = [
      { key: one.key, body: world.bodyFor('ws_one_grant') },
      { key: many.key, body: world.bodyFor('ws_many_5000') },
    ];
    // Cold: the first request of each key reads the key, the partner, and the grant (with the prefix set), from the
    // access table. A workspace the container has not seen also loads its policy and model from the decisions table
    // (the workspace section's figures): counted apart.
    const access = world.names.access;
    const cold: number[] = [];
    for (const k of keys) {
      counter.reset();
      await analyze(k.key, k.body);
      cold.push(counter.readItemsOf(access));
    }
    counter.reset();
    await analyze(many.key, world.bodyFor('ws_many_7'));
    const newPairReads = counter.readItemsOf(access);
    const newWorkspaceStateReads = counter.readItemsOf(world.names.decisions);

    const times: number[][] = [[], []];
    const run = async (i: number) => times[i].push(await wallMs(() => analyze(keys[i].key, keys[i].body)));
    for (let i = 0; i < 100; i++) await run(i % 2);
    times[0].length = times[1].length = 0;
    counter.reset();
    for (let i = 0; i < iterations; i++) for (const j of i % 2 ? [0, 1] : [1, 0]) await run(j);
    const warmReads = counter.readItems;
    const [a, b] = times.map((t) => t.sort((x, y) => x - y));
    return {
      access_cli_grant_10000_seconds: cliSeconds,
      access_grants_listed_many_key: manyGrants,
      access_warm_p50_ms_1_grant: percentile(a, 0.5),
      access_warm_p50_ms_10000_grants: percentile(b, 0.5),
      access_warm_p99_ms_1_grant: percentile(a, 0.99),
      access_warm_p99_ms_10000_grants: percentile(b, 0.99),
      access_warm_p50_ratio_10000_vs_1: percentile(b, 0.5) / percentile(a, 0.5),
      access_warm_reads: warmReads,
      access_cold_read_items_first_request: Math.max(...cold),
      access_cold_read_items_new_workspace: newPairReads,
      access_cold_workspace_state_items_new_workspace: newWorkspaceStateReads,
    };
  } finally {
    service.close();
  }
}

/** Three instances, 80% of the limit round-robin, one window after another; counter writes of the last windows. */
async function rateWrites(world: World, limit: number, windowSeconds: number): Promise<number> {
  let now = Math.ceil(Date.now() / 3_600_000) * 3_600_000 + 1_000;
  const counted = [0, 1, 2].map(() => countedService(world, () => now));
  const { key } = await world.keyFor(world.workspace, `${limit}/${windowSeconds === 1 ? 's' : 'm'}`);
  const perWindow = Math.floor(limit * 0.8);
  let writes = 0;
  let requests = 0;
  try {
    // Only the counter's writes (UpdateItem): every analyze also writes its decision (PutItem).
    const counterWrites = () => counted.reduce((sum, c) => sum + (c.counter.commands.get('UpdateItemCommand') ?? 0), 0);
    for (let w = 0; w < 5; w++) {
      const before = counterWrites();
      for (let i = 0; i < perWindow; i++) {
        const r = await inProcess(counted[i % 3].service, analyzeEvents(key, world.body));
        if (r.statusCode !== 200) throw new Error(`a key at 80% of its limit was refused: ${r.statusCode}`);
      }
      if (w >= 2) {
        writes += counterWrites() - before;
        requests += perWindow;
      }
      now += windowSeconds * 1000;
    }
  } finally {
    for (const c of counted) c.service.close();
  }
  return writes / requests;
}

export async function benchAccess(world: World, iterations: number): Promise<Figures> {
  const figures = await warmLatency(world, iterations);
  progress('  rate limit writes per request ...');
  figures.access_rate_writes_per_request_100_per_s = await rateWrites(world, 100, 1);
  figures.access_rate_writes_per_request_1000_per_m = await rateWrites(world, 1_000, 60);
  return figures;
}
