// Rate limit counters: one item per (key, window) in the decisions table, `rate#<key_id>#<window seconds>#<index>`,
// grown with a conditional ADD and deleted by TTL an hour after the window ends. A rotated key counts on the old key's
// items (`<key_id>` is then the old key's id, KeyRecord.rate_counter).
import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ITEM_PREFIX } from '../contract/tables';
import type { LeaseAnswer, RateCounterStore } from '../domain/ports';
import { conditionFailed } from './database-faults';

const KEEP_AFTER_WINDOW_SECONDS = 3_600;

export class DynamoRateCounterStore implements RateCounterStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async lease(
    counterId: string,
    window: { seconds: number; index: number; endMs: number },
    n: number,
    ceiling: number,
  ): Promise<LeaseAnswer> {
    if (n > ceiling) return { granted: false };
    try {
      const out = await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: `${ITEM_PREFIX.rateWindow}${counterId}#${window.seconds}#${window.index}` },
          UpdateExpression: 'ADD used :n SET expires_at = if_not_exists(expires_at, :expires)',
          ConditionExpression: 'attribute_not_exists(used) OR used <= :room',
          ExpressionAttributeValues: {
            ':n': n,
            ':room': ceiling - n,
            ':expires': Math.ceil(window.endMs / 1000) + KEEP_AFTER_WINDOW_SECONDS,
          },
          ReturnValues: 'UPDATED_NEW',
          // The count that refused a lease tells the limiter what remains (docs/partners.md, Rate limits).
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { granted: true, counter: Number(out.Attributes?.used) };
    } catch (err) {
      if (!conditionFailed(err)) throw err;
      // In AttributeValue form: the DocumentClient does not translate errors.
      const used = (err as { Item?: { used?: { N?: string } } }).Item?.used?.N;
      return { granted: false, counter: used === undefined ? undefined : Number(used) };
    }
  }
}
