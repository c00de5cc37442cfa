// BatchWriteItem and BatchGetItem for any number of items: 25 writes or 100 keys a call, the calls in parallel (all at
// once unless the caller caps them), what DynamoDB leaves unprocessed (under throttling) retried by the one retry
// policy (THROTTLE_RETRY), and throttling that outlasts it raised as RetriesExhausted (503 at the HTTP edge).
import {
  BatchGetCommand,
  BatchWriteCommand,
  type BatchWriteCommandInput,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { chunks, inParallel } from '../domain/in-parallel';
import { AGAIN, THROTTLE_RETRY, retrying } from '../domain/retry';

type WriteRequest = NonNullable<BatchWriteCommandInput['RequestItems']>[string][number];
type Item = Record<string, unknown>;

/** DynamoDB's limits: 25 puts per BatchWriteItem, 100 keys per BatchGetItem. */
const WRITE_CHUNK = 25;
const READ_CHUNK = 100;

/**
 * Runs `call` on every chunk of `size`, at most `parallel` at once, each again on what it leaves unprocessed; a failure
 * is thrown once every chunk is done, so nothing of this call is still being written when its caller hears of it.
 */
async function inChunks<T>(
  all: T[],
  size: number,
  call: (pending: T[]) => Promise<T[]>,
  parallel = Infinity,
): Promise<void> {
  const failures: { reason: unknown }[] = [];
  await inParallel(chunks(all, size), parallel, async (chunk, i) => {
    let pending = chunk;
    try {
      await retrying(
        'batch items left unprocessed',
        async () => {
          pending = await call(pending);
          return pending.length ? AGAIN : undefined;
        },
        THROTTLE_RETRY,
      );
    } catch (reason) {
      failures[i] = { reason };
    }
  });
  const failed = failures.find(Boolean);
  if (failed) throw failed.reason;
}

/** Writes every request. */
export async function batchWriteAll(
  client: DynamoDBDocumentClient,
  tableName: string,
  requests: WriteRequest[],
): Promise<void> {
  await inChunks(requests, WRITE_CHUNK, async (pending) => {
    const out = await client.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
    return out.UnprocessedItems?.[tableName] ?? [];
  });
}

/**
 * Reads the items of every `pk` (those that exist), by pk, and how many calls that took. `parallel` caps the calls in
 * flight: thousands of keys at once (an ungrant of 20,000 workspaces: 200 calls) outrun the client's connection timeout.
 */
export async function batchGet(
  client: DynamoDBDocumentClient,
  tableName: string,
  pks: string[],
  consistent = true,
  parallel = Infinity,
): Promise<{ items: Map<string, Item>; requests: number }> {
  const items = new Map<string, Item>();
  let requests = 0;
  await inChunks(
    pks.map((pk): Item => ({ pk })),
    READ_CHUNK,
    async (keys) => {
      requests++;
      const out = await client.send(
        new BatchGetCommand({ RequestItems: { [tableName]: { Keys: keys, ConsistentRead: consistent } } }),
      );
      for (const item of out.Responses?.[tableName] ?? []) items.set(String(item.pk), item);
      return out.UnprocessedKeys?.[tableName]?.Keys ?? [];
    },
    parallel,
  );
  return { items, requests };
}
