// What a batch's first attempt leaves when it stops between claiming its Idempotency-Key and storing its decisions:
// the record without those decisions. Caused directly in the table, since a Lambda cannot be stopped at that instant
// from a test. `failed`: its writes failed and it said so on the record (`failed_at`, decision-batch-store.ts), so a
// replay may restore them at once; otherwise it may still be writing (or crashed) as far as a replay can tell.
import { DeleteCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ITEM_PREFIX } from '../../lambdas/contract/tables';
import type { TestTables } from './dynamodb';

export async function loseBatchDecisions(
  tables: Pick<TestTables, 'client' | 'names'>,
  decisionIds: string[],
  { failed }: { failed: boolean },
): Promise<void> {
  const TableName = tables.names.decisions;
  for (const id of decisionIds)
    await tables.client.send(new DeleteCommand({ TableName, Key: { pk: `${ITEM_PREFIX.decision}${id}` } }));
  if (!failed) return;
  const records = await tables.client.send(
    new ScanCommand({
      TableName,
      FilterExpression: 'begins_with(pk, :p)',
      ExpressionAttributeValues: { ':p': ITEM_PREFIX.idempotency },
      ConsistentRead: true,
    }),
  );
  const holds = (item: Record<string, unknown>) =>
    Array.isArray(item.items) &&
    item.items.some((i: { id?: string }) => i.id !== undefined && decisionIds.includes(i.id));
  const record = (records.Items ?? []).find(holds);
  if (!record) throw new Error('no batch record holds these decisions');
  await tables.client.send(
    new UpdateCommand({
      TableName,
      Key: { pk: record.pk },
      UpdateExpression: 'SET failed_at = :now',
      ExpressionAttributeValues: { ':now': Date.now() },
    }),
  );
}
