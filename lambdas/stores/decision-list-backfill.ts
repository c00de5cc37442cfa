// The upgrade step between the two deploys of docs/deploy.md ("Upgrading a deployed stack: the listing index"):
// decisions stored by a version before the decisions_by_priority index get its partition attribute, so the index
// holds every retained decision before the index it replaces is deleted. A Scan of the decisions table, once, by an
// operator (`admin decisions index-priority`) or by local mode on a table kept from an older version; never on a
// request path. Each decision is one conditional UpdateItem (it still exists, it has no partition yet): idempotent,
// safe to run again after an interruption or alongside new decisions.
import { type DynamoDBDocumentClient, UpdateCommand, paginateScan } from '@aws-sdk/lib-dynamodb';
import { DECISION_LIST_PARTITION, ITEM_PREFIX } from '../contract/tables';
import { conditionFailed } from './database-faults';
import { decisionFrom } from './decision-format';
import { listPartition } from './decision-store';

/** Decisions updated at a time (a page's worth runs in parallel). */
const PARALLEL_UPDATES = 25;

interface BackfillResult {
  /** Decision items read by the Scan that lacked the partition. */
  found: number;
  /** Of those, updated now (the others were deleted or expired meanwhile). */
  updated: number;
}

export async function backfillDecisionListPartitions(
  client: DynamoDBDocumentClient,
  tableName: string,
  onPage?: (progress: BackfillResult) => void,
): Promise<BackfillResult> {
  const result: BackfillResult = { found: 0, updated: 0 };
  const pages = paginateScan(
    { client },
    {
      TableName: tableName,
      FilterExpression: 'begins_with(pk, :decision) AND attribute_not_exists(#lp)',
      // The whole decision, whichever format stored it (a Scan reads whole items: no dearer than two of its fields).
      ProjectionExpression: 'pk, decision_id, #d',
      ExpressionAttributeNames: { '#lp': DECISION_LIST_PARTITION, '#d': 'decision' },
      ExpressionAttributeValues: { ':decision': ITEM_PREFIX.decision },
    },
  );
  for await (const page of pages) {
    const items = (page.Items ?? []).flatMap((item) => {
      const decision = item.decision ? decisionFrom(item) : undefined;
      return typeof decision?.workspace_id === 'string' && typeof decision.priority === 'string'
        ? [{ pk: String(item.pk), partition: listPartition(decision.workspace_id, decision.priority) }]
        : [];
    });
    result.found += items.length;
    for (let i = 0; i < items.length; i += PARALLEL_UPDATES) {
      const updated = await Promise.all(
        items.slice(i, i + PARALLEL_UPDATES).map(async ({ pk, partition }) => {
          try {
            await client.send(
              new UpdateCommand({
                TableName: tableName,
                Key: { pk },
                UpdateExpression: 'SET #lp = :lp',
                ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#lp)',
                ExpressionAttributeNames: { '#lp': DECISION_LIST_PARTITION },
                ExpressionAttributeValues: { ':lp': partition },
              }),
            );
            return 1;
          } catch (err) {
            if (conditionFailed(err)) return 0;
            throw err;
          }
        }),
      );
      result.updated += updated.reduce((sum: number, n) => sum + n, 0);
    }
    onPage?.({ ...result });
  }
  return result;
}
