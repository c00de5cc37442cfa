// Section "ddb": what one analyze request asks of DynamoDB, by case (cold or warm key, idempotent, replay).
import { randomUUID } from 'node:crypto';
import { type Figures, progress } from './common';
import { expectOk } from './requests';
import type { World } from './world';

export async function benchDynamoDbCalls(world: World): Promise<Figures> {
  const { counter } = world;
  const per = 10;
  // Warm the key (and the modules, the connection) first; that request is not counted.
  expectOk(await world.analyze());

  const measure = async (
    key: (i: number) => string,
    idempotencyKey: () => string | undefined = () => `bench-${randomUUID()}`,
    replayed = false,
  ) => {
    counter.reset();
    for (let i = 0; i < per; i++) expectOk(await world.analyze(key(i), world.body, idempotencyKey()), replayed);
    return { reads: counter.readItems / per, writes: counter.writeItems / per, writeCalls: counter.writeCalls / per };
  };
  const coldKeys = await Promise.all(Array.from({ length: 2 * per }, () => world.newKey()));
  const none = () => undefined;

  const cold = await measure((i) => coldKeys[i], none);
  const warm = await measure(() => world.key, none);
  const warmIdem = await measure(() => world.key);
  const coldIdem = await measure((i) => coldKeys[per + i]);
  const replayKey = `bench-${randomUUID()}`;
  expectOk(await world.analyze(world.key, world.body, replayKey));
  const replay = await measure(
    () => world.key,
    () => replayKey,
    true,
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
