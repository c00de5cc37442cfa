// Decisions and idempotency records. A decision is written with one conditional write; with an Idempotency-Key,
// the record and the decision go in one transaction, so two concurrent requests with the same key make one decision.
import { type DynamoDBDocumentClient, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { DECISION_LIST_PARTITION, ITEM_PREFIX } from '../contract/tables';
import type { Decision } from '../domain/decision';
import type { DecisionExtras, DecisionOwner, DecisionStore, IdempotencyRequest, SaveResult } from '../domain/ports';
import { parseInstant } from '../domain/timestamps';
import { sameRequest } from '../domain/idempotency';
import { conditionFailed, transactionConflict } from './database-faults';
import { decisionFrom, storedDecision } from './decision-format';
import { getItem } from './dynamodb-client';
import { AGAIN, retrying } from '../domain/retry';

export const IDEMPOTENCY_WINDOW_SECONDS = 24 * 60 * 60;

/** The listing index's partition of a workspace's decisions of one priority (workspace ids hold no `#`). */
export const listPartition = (workspaceId: string, priority: string) => `${workspaceId}#${priority}`;

/**
 * The stored item of a decision made at `createdMs`, the same whether analyzed alone or in a batch. Its expiry rounds
 * the second up, as an Idempotency-Key's does, so a replay never answers a decision GET already calls expired.
 */
export function decisionItem(decision: Decision, owner: DecisionOwner, createdMs: number, retentionDays: number) {
  return {
    pk: ITEM_PREFIX.decision + decision.decision_id,
    // Compact (decision-format.ts); its `workspace_id` is what GET checks grants against. Partner and key say who asked.
    decision: storedDecision(decision),
    // Keys of the listing index (decisions_by_priority), and `workspace_id` for the one it replaced (docs/deploy.md);
    // `decision_id` is also the decision's id, which the compact map does not repeat.
    [DECISION_LIST_PARTITION]: listPartition(decision.workspace_id, decision.priority),
    workspace_id: decision.workspace_id,
    decision_id: decision.decision_id,
    partner_id: owner.partner_id,
    key_id: owner.key_id,
    expires_at: Math.ceil(createdMs / 1000) + retentionDays * 86_400,
  };
}

/** The key of an Idempotency-Key's record (one per partner and key). */
export const idempotencyPk = (partnerId: string, keyHash: string) =>
  `${ITEM_PREFIX.idempotency}${partnerId}#${keyHash}`;

/**
 * The conditional Put that claims an Idempotency-Key at `nowMs`; TTL deletion lags, so an expired record counts as
 * absent. A record is live while its expires_at is after now in whole seconds, for readers and this claim alike: the
 * claim's second rounded up, so a retry 23:59:59.5 after it is still a replay (docs/partners.md, "Idempotency window and decision retention").
 */
export const idempotencyClaim = (tableName: string, pk: string, record: Record<string, unknown>, nowMs: number) => ({
  TableName: tableName,
  Item: { pk, ...record, expires_at: Math.ceil(nowMs / 1000) + IDEMPOTENCY_WINDOW_SECONDS },
  ConditionExpression: 'attribute_not_exists(pk) OR expires_at <= :now',
  ExpressionAttributeValues: { ':now': Math.floor(nowMs / 1000) },
  ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
});

/**
 * The record that made a claim fail: as the failure returned it (in AttributeValue form: the DocumentClient does not
 * translate errors), else read.
 */
export const claimedRecord = async (
  client: DynamoDBDocumentClient,
  tableName: string,
  pk: string,
  returned: Record<string, unknown> | undefined,
) => (returned ? unmarshall(returned as Parameters<typeof unmarshall>[0]) : getItem(client, tableName, pk));

export class DynamoDecisionStore implements DecisionStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly retentionDays: number,
  ) {}

  async save(
    decision: Decision,
    owner: DecisionOwner,
    idempotency?: IdempotencyRequest,
    extra: DecisionExtras = {},
  ): Promise<SaveResult> {
    const createdMs = parseInstant(decision.created_at);
    const item = { ...extra, ...decisionItem(decision, owner, createdMs, this.retentionDays) };
    if (!idempotency) {
      try {
        await this.client.send(
          new PutCommand({ TableName: this.tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }),
        );
      } catch (err) {
        // The SDK retries a write whose reply timed out; if the first attempt had committed, the retry fails its
        // condition on our own item. The id is a fresh ULID, so an item holding our decision means we stored it.
        if (!conditionFailed(err)) throw err;
        const stored = await getItem(this.client, this.tableName, item.pk);
        if (!stored || decisionFrom(stored).created_at !== decision.created_at) throw err;
      }
      return { kind: 'created', decision };
    }

    const idemPk = idempotencyPk(owner.partner_id, idempotency.keyHash);
    const record = { request_hash: idempotency.requestHash, decision };
    // A concurrent request holds the same record mid-transaction: wait for it to commit, then replay it.
    return retrying<SaveResult>('idempotent analyze', async () => {
      try {
        await this.client.send(
          new TransactWriteCommand({
            TransactItems: [
              { Put: idempotencyClaim(this.tableName, idemPk, record, createdMs) },
              { Put: { TableName: this.tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
            ],
          }),
        );
        return { kind: 'created', decision };
      } catch (err) {
        const e = err as { name?: string; CancellationReasons?: { Code?: string; Item?: Record<string, unknown> }[] };
        const first = e.CancellationReasons?.[0];
        if (e.name === 'TransactionCanceledException' && first?.Code === 'ConditionalCheckFailed') {
          const existing = await claimedRecord(this.client, this.tableName, idemPk, first.Item);
          if (existing) {
            return sameRequest(idempotency, existing.request_hash)
              ? { kind: 'replayed', decision: decisionFrom(existing) }
              : { kind: 'conflict' };
          }
        }
        if (!transactionConflict(err)) throw err;
        return AGAIN;
      }
    });
  }

  async get(decisionId: string): Promise<Decision | undefined> {
    // Consistent: a GET right after analyze must find the decision.
    const item = await getItem(this.client, this.tableName, ITEM_PREFIX.decision + decisionId);
    // Past its retention a decision is gone, even while DynamoDB's TTL sweep (which can lag) has not deleted it.
    if (!item?.decision || Number(item.expires_at) <= Math.floor(Date.now() / 1000)) return undefined;
    return decisionFrom(item);
  }
}
