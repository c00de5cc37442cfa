// BatchWriteItem for any number of requests: 25 a call, what DynamoDB leaves unprocessed (under throttling) retried
// after a jittered backoff, and throttling that outlasts the retries raised as throttling (503 at the HTTP edge).
import { BatchWriteCommand, type BatchWriteCommandInput, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { sleep } from './decision-store';

type WriteRequest = NonNullable<BatchWriteCommandInput['RequestItems']>[string][number];

const WRITE_CHUNK = 25;
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

/** Writes every request, the calls of 25 in parallel. */
export async function batchWriteAll(
  client: DynamoDBDocumentClient,
  tableName: string,
  requests: WriteRequest[],
): Promise<void> {
  const chunks: WriteRequest[][] = [];
  for (let i = 0; i < requests.length; i += WRITE_CHUNK) chunks.push(requests.slice(i, i + WRITE_CHUNK));
  await Promise.all(
    chunks.map(async (chunk) => {
      let pending = chunk;
      for (let round = 0; pending.length; round++) {
        if (round > MAX_RETRY_ROUNDS) throw new UnprocessedItemsError();
        if (round > 0) await backoff(round);
        const out = await client.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
        pending = out.UnprocessedItems?.[tableName] ?? [];
      }
    }),
  );
}
