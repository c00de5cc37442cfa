// Section "ddb": what one analyze request asks of DynamoDB, by case (cold or warm key, idempotent, replay).
import { randomUUID } from 'node:crypto';
import { type Figures, progress } from './common';
import { analyzeEvents, inProcess, expectOk } from './requests';
import type { World } from './world';

export async function benchDynamoDbCalls(world: World): Promise<Figures> {
  const { counter, service: handlers, body } = world;
  const per = 10;
  // Warm the key (and the modules, the connection) first; that request is not counted.
  expectOk(await inProcess(handlers, analyzeEvents(world.key, body)));

  const measure = async (run: (i: number) => Promise<void>) => {
    counter.reset();
    for (let i = 0; i < per; i++) await run(i);
    return {
      reads: counter.readItems / per,
      writes: counter.writeItems / per,
      writeCalls: counter.writeCalls / per,
      calls: counter.calls / per,
    };
  };
  const coldKeys = await Promise.all(Array.from({ length: 2 * per }, () => world.newKey()));

  const cold = await measure(async (i) => void expectOk(await inProcess(handlers, analyzeEvents(coldKeys[i], body))));
  const warm = await measure(async () => void expectOk(await inProcess(handlers, analyzeEvents(world.key, body))));
  const warmIdem = await measure(
    async () => void expectOk(await inProcess(handlers, analyzeEvents(world.key, body, `bench-${randomUUID()}`))),
  );
  const coldIdem = await measure(
    async (i) =>
      void expectOk(await inProcess(handlers, analyzeEvents(coldKeys[per + i], body, `bench-${randomUUID()}`))),
  );
  const replayKey = `bench-${randomUUID()}`;
  expectOk(await inProcess(handlers, analyzeEvents(world.key, body, replayKey)));
  const replay = await measure(
    async () => void expectOk(await inProcess(handlers, analyzeEvents(world.key, body, replayKey)), true),
  );
  progress(`  DynamoDB commands seen: ${[...counter.commands].map(([n, c]) => `${n} x${c}`).join(', ')}`);
  return {
    ddb_reads_cold: cold.reads,
    ddb_writes_cold: cold.writes,
    ddb_reads_warm: warm.reads,
    ddb_writes_warm: warm.writes,
    ddb_write_calls_warm: warm.writeCalls,
    ddb_reads_warm_idempotent: warmIdem.reads,
    ddb_writes_warm_idempotent: warmIdem.writes,
    ddb_write_calls_warm_idempotent: warmIdem.writeCalls,
    ddb_reads_cold_idempotent: coldIdem.reads,
    ddb_writes_cold_idempotent: coldIdem.writes,
    ddb_reads_replay: replay.reads,
    ddb_write_calls_replay: replay.writeCalls,
  };
}
