// Section "batch": what a batch of 100 asks of DynamoDB, and its CPU per signal beside single analyze; and what one
// page of the decision list asks of DynamoDB.
import { randomUUID } from 'node:crypto';
import { type Figures, cpuMs, progress } from './common';
import { type HandlerResult, apiEvents, expectOk, inProcess, okBody } from './requests';
import type { World } from './world';
import { benchListPriority } from './list-priority';

async function batchInProcess(world: World, body: string, idempotencyKey?: string): Promise<HandlerResult> {
  const path = '/api/v1/signals/analyze-batch';
  const result = await inProcess(
    world.service,
    apiEvents({ key: world.key, method: 'POST', path, body, idempotencyKey }),
  );
  if (!okBody<{ data: { decision?: unknown }[] }>(result, 'batch').data.every((item) => item.decision))
    throw new Error('a bench batch item was refused');
  return result;
}

export async function benchBatch(world: World, quick: boolean): Promise<Figures> {
  const { counter } = world;
  const signal = JSON.parse(world.body) as unknown;
  const body100 = JSON.stringify({ signals: Array.from({ length: 100 }, () => signal) });
  // Warm-up: modules, JIT, the key in the authorizer's cache.
  for (let i = 0; i < 3; i++) await batchInProcess(world, body100);
  for (let i = 0; i < 100; i++) expectOk(await world.analyze());

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

  // CPU per signal (us), alternating rounds of single analyze and batches of 100 over the same number of signals.
  const rounds = quick ? 3 : 6;
  const perRound = 300;
  const single: number[] = [];
  const batched: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const singles = async () => {
      for (let i = 0; i < perRound; i++) expectOk(await world.analyze());
    };
    const batches = async () => {
      for (let i = 0; i < perRound / 100; i++) await batchInProcess(world, body100);
    };
    single.push(((await cpuMs(singles)) * 1000) / perRound);
    batched.push(((await cpuMs(batches)) * 1000) / perRound);
  }
  const best = (xs: number[]) => Math.min(...xs);

  // One list page of 100, then the next with a cursor: the Query and all calls of each.
  const page = async (query: string) => {
    counter.reset();
    counter.commands.clear();
    const result = await inProcess(
      world.service,
      apiEvents({ key: world.key, method: 'GET', path: '/api/v1/decisions', query }),
    );
    const { data } = okBody<{ data: { decision_id: string }[] }>(result, 'list');
    return { data, queries: counter.commands.get('QueryCommand') ?? 0, calls: counter.calls };
  };
  // A warm container: the list store has learnt whether the table still has the retired listing index.
  await page(`workspace_id=${world.workspace}&limit=1`);
  const firstPage = await page(`workspace_id=${world.workspace}&limit=100`);
  const nextPage = await page(
    `workspace_id=${world.workspace}&limit=100&starting_after=${firstPage.data[99].decision_id}`,
  );
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
    batch_vs_single_cpu_per_signal_ratio: best(batched) / best(single),
    list_first_page_query_calls: firstPage.queries,
    list_first_page_ddb_calls: firstPage.calls,
    list_next_page_query_calls: nextPage.queries,
    list_next_page_ddb_calls: nextPage.calls,
    ...(await benchListPriority(world, quick)),
  };
}
