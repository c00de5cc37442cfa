// BatchWriteItem and BatchGetItem for any number of items: 25 writes or 100 keys a call, the calls in parallel, what
// DynamoDB leaves unprocessed (under throttling) retried after a jittered backoff, and throttling that outlasts the
// retries raised as throttling (503 at the HTTP edge).
import {
  BatchGetCommand,
  BatchWriteCommand,
  type BatchWriteCommandInput,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { chunks } from '../domain/in-parallel';
import { sleep } from './decision-store';

type WriteRequest = NonNullable<BatchWriteCommandInput['RequestItems']>[string][number];
type Item = Record<string, unknown>;

/** DynamoDB's limits: 25 puts per BatchWriteItem, 100 keys per BatchGetItem. */
const WRITE_CHUNK = 25;
const READ_CHUNK = 100;
/** Rounds of retrying unprocessed items before the request fails (as throttling: 503). */
export const MAX_RETRY_ROUNDS = 6;

export class UnprocessedItemsError extends Error {
  constructor() {
    super('DynamoDB left batch items unprocessed after every retry');
    // The HTTP edge maps throttling names to 503 SERVICE_UNAVAILABLE: this is throttling that outlasted our retries.
    this.name = 'ProvisionedThroughputExceededException';
  }
}

export const backoff = (round: number) => sleep(Math.random() * 25 * 2 ** round);

/** Runs `call` on every chunk of `size`, in parallel, each again on what it leaves unprocessed. */
async function inChunks<T>(all: T[], size: number, call: (pending: T[]) => Promise<T[]>): Promise<void> {
  await Promise.all(
    chunks(all, size).map(async (chunk) => {
      let pending = chunk;
      for (let round = 0; pending.length; round++) {
        if (round > MAX_RETRY_ROUNDS) throw new UnprocessedItemsError();
        if (round > 0) await backoff(round);
        pending = await call(pending);
      }
    }),
  );
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

/** Reads the items of every `pk` (those that exist), by pk, and how many calls that took. */
export async function batchGet(
  client: DynamoDBDocumentClient,
  tableName: string,
  pks: string[],
  consistent = true,
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
  );
  return { items, requests };
}
