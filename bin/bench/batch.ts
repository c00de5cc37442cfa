// Section "batch": what a batch of 100 asks of DynamoDB, and its CPU per signal beside single analyze; and what one
// page of the decision list asks of DynamoDB.
import { randomUUID } from 'node:crypto';
import type { Service } from '../../lambdas/service';
import { type Figures, progress, round2 } from './common';
import { type HandlerResult, analyzeEvents, apiEvents, expectOk, inProcess } from './requests';
import type { World } from './world';

const BATCH_PATH = '/api/v1/signals/analyze-batch';
const LIST_PATH = '/api/v1/decisions';

function batchBody(world: World, n: number): string {
  const signal = JSON.parse(world.body) as unknown;
  return JSON.stringify({ signals: Array.from({ length: n }, () => signal) });
}

async function batchInProcess(world: World, body: string, idempotencyKey?: string): Promise<HandlerResult> {
  const result = await inProcess(
    world.service,
    apiEvents({ key: world.key, method: 'POST', path: BATCH_PATH, body, idempotencyKey }),
  );
  if (result.statusCode !== 200) throw new Error(`batch answered ${result.statusCode}: ${result.body.slice(0, 200)}`);
  const data = (JSON.parse(result.body) as { data: { decision?: unknown }[] }).data;
  if (!data.every((item) => item.decision)) throw new Error('a bench batch item was refused');
  return result;
}

/** One GET /decisions page through the authorizer and the route, as local mode chains them. */
async function listInProcess(
  handlers: Service,
  key: string,
  query: string,
): Promise<{ data: { decision_id: string }[] }> {
  const result = await inProcess(handlers, apiEvents({ key, method: 'GET', path: LIST_PATH, query }));
  if (result.statusCode !== 200) throw new Error(`list answered ${result.statusCode}: ${result.body.slice(0, 200)}`);
  return JSON.parse(result.body) as { data: { decision_id: string }[] };
}

/** CPU time of this process (user + system) per signal while `run` handles `signals` signals, in microseconds. */
async function cpuPerSignal(signals: number, run: () => Promise<void>): Promise<number> {
  const before = process.cpuUsage();
  await run();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / signals;
}

export async function benchBatch(world: World, quick: boolean): Promise<Figures> {
  const { counter, service: handlers } = world;
  const body100 = batchBody(world, 100);
  // Warm-up: modules, JIT, the key in the authorizer's cache.
  for (let i = 0; i < 3; i++) await batchInProcess(world, body100);
  for (let i = 0; i < 100; i++) expectOk(await inProcess(handlers, analyzeEvents(world.key, world.body)));

  counter.reset();
  await batchInProcess(world, body100);
  const plain = { writeCalls: counter.writeCalls, writeItems: counter.writeItems, calls: counter.calls };
  counter.reset();
  await batchInProcess(world, body100, `bench-${randomUUID()}`);
  const idem = { writeCalls: counter.writeCalls, writeItems: counter.writeItems };
  const replayKey = `bench-${randomUUID()}`;
  await batchInProcess(world, body100, replayKey);
  counter.reset();
  const replay = await batchInProcess(world, body100, replayKey);
  if (replay.headers?.['Idempotent-Replayed'] !== 'true') throw new Error('the bench replay was not replayed');
  const replayCalls = { reads: counter.readCalls, writes: counter.writeCalls };

  // CPU per signal, alternating rounds of single analyze and batches of 100 over the same number of signals.
  const rounds = quick ? 3 : 6;
  const perRound = 300;
  const single: number[] = [];
  const batched: number[] = [];
  for (let r = 0; r < rounds; r++) {
    single.push(
      await cpuPerSignal(perRound, async () => {
        for (let i = 0; i < perRound; i++) expectOk(await inProcess(handlers, analyzeEvents(world.key, world.body)));
      }),
    );
    batched.push(
      await cpuPerSignal(perRound, async () => {
        for (let i = 0; i < perRound / 100; i++) await batchInProcess(world, body100);
      }),
    );
  }
  const best = (xs: number[]) => Math.min(...xs);

  // One list page of 100, then the next with a cursor.
  counter.reset();
  counter.commands.clear();
  const first = await listInProcess(handlers, world.key, `workspace_id=${world.workspace}&limit=100`);
  const firstPage = { queries: counter.commands.get('QueryCommand') ?? 0, calls: counter.calls };
  counter.reset();
  counter.commands.clear();
  await listInProcess(
    handlers,
    world.key,
    `workspace_id=${world.workspace}&limit=100&starting_after=${first.data[99].decision_id}`,
  );
  const nextPage = { queries: counter.commands.get('QueryCommand') ?? 0, calls: counter.calls };
  progress(
    `  batch CPU per signal (us) single ${single.map(Math.round).join('/')}, batch ${batched.map(Math.round).join('/')}`,
  );

  return {
    batch100_write_calls: plain.writeCalls,
    batch100_write_items: plain.writeItems,
    batch100_ddb_calls: plain.calls,
    batch100_write_calls_idempotent: idem.writeCalls,
    batch100_write_items_idempotent: idem.writeItems,
    batch100_replay_read_calls: replayCalls.reads,
    batch100_replay_write_calls: replayCalls.writes,
    single_analyze_cpu_us_per_signal: Math.round(best(single)),
    batch_cpu_us_per_signal: Math.round(best(batched)),
    batch_vs_single_cpu_per_signal_ratio: round2(best(batched) / best(single)),
    list_first_page_query_calls: firstPage.queries,
    list_first_page_ddb_calls: firstPage.calls,
    list_next_page_query_calls: nextPage.queries,
    list_next_page_ddb_calls: nextPage.calls,
  };
}
