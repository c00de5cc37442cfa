// A batch's decisions: BatchWriteItem requests of 25 (DynamoDB's maximum) instead of one write per decision, with
// unprocessed items retried after a jittered backoff (batch-writes.ts). Each item is the one single analyze stores
// (decisionItem).
// With an Idempotency-Key the key is claimed first, with one conditional write holding the batch's decision ids and
// per-item errors (never the decisions themselves): a replay reads the ids back, and decisions its first attempt
// did not get to store are rebuilt from the same body and moment, each put on the condition that none is stored under
// its id. An attempt whose writes failed says so on the record (`failed_at`), once none of them is still in flight;
// so does one whose claim failed without an answer (it may have landed).
import { randomUUID } from 'node:crypto';
import { type DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ITEM_PREFIX } from '../contract/tables';
import type { Decision } from '../domain/decision';
import type {
  BatchSaveOptions,
  BatchSaveResult,
  BatchItemRecord,
  DecisionBatchStore,
  DecisionOwner,
  IdempotencyRequest,
  DecisionExtras,
} from '../domain/ports';
import { sameRequest } from '../domain/idempotency';
import { inParallel } from '../domain/in-parallel';
import { parseInstant } from '../domain/timestamps';
import { batchGet, batchWriteAll } from './batch-writes';
import { decisionFrom } from './decision-format';
import { claimedRecord, decisionItem, idempotencyClaim, idempotencyPk } from './decision-store';
import { conditionFailed } from './database-faults';

/** Conditional puts in flight at once when a replay restores decisions (a batch holds at most 100). */
const PUTS_AT_ONCE = 25;

export class DynamoDecisionBatchStore implements DecisionBatchStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly retentionDays: number,
  ) {}

  async saveBatch(decisions: Decision[], owner: DecisionOwner, options: BatchSaveOptions): Promise<BatchSaveResult> {
    if (!options.idempotency) {
      await this.putMany(decisions, owner, options.extras);
      return { kind: 'created' };
    }
    const pk = idempotencyPk(owner.partner_id, options.idempotency.keyHash);
    // This attempt's own mark: the SDK resends a claim whose answer was lost, and the resend then meets the record the
    // first send wrote, which is ours to go on with, not another request's; and only ours is marked failed.
    const attempt = randomUUID();
    const claimed = await this.claim(pk, attempt, options.idempotency, options.items, options.createdMs);
    if (claimed.kind !== 'created') return claimed;
    try {
      await this.putMany(decisions, owner, options.extras);
    } catch (err) {
      // A replay may now rebuild what is missing at once, rather than wait out a first attempt that may still write.
      await this.markFailed(pk, attempt).catch(() => undefined);
      throw err;
    }
    return { kind: 'created' };
  }

  /** Marks this attempt's claim failed (a record another attempt holds is left alone). */
  private async markFailed(pk: string, attempt: string): Promise<void> {
    await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { pk },
        UpdateExpression: 'SET failed_at = :now',
        ConditionExpression: 'attempt = :attempt',
        ExpressionAttributeValues: { ':now': Date.now(), ':attempt': attempt },
      }),
    );
  }

  /** One conditional write: the key is ours, or it was used before (same body: a replay; else a conflict). */
  private async claim(
    pk: string,
    attempt: string,
    idempotency: IdempotencyRequest,
    items: BatchItemRecord[],
    createdMs: number,
  ): Promise<BatchSaveResult> {
    const record = { kind: 'batch', request_hash: idempotency.requestHash, items, created_ms: createdMs, attempt };
    try {
      await this.client.send(new PutCommand(idempotencyClaim(this.tableName, pk, record, createdMs)));
      return { kind: 'created' };
    } catch (err) {
      if (!conditionFailed(err)) {
        // The claim may have landed with its answer lost (a timeout during a database blip): this attempt gives up
        // here, so say so on the record, or a retry would wait out 30 s for decisions nobody is writing. The mark
        // costs the failing request one more write's time, during a blip its timeout: the 503 is slower, the retry
        // is not.
        await this.markFailed(pk, attempt).catch(() => undefined);
        throw err;
      }
      const existing = await claimedRecord(
        this.client,
        this.tableName,
        pk,
        (err as { Item?: Record<string, unknown> }).Item,
      );
      if (existing?.attempt === attempt) return { kind: 'created' };
      // A single analyze's record under the same key is another request: a conflict, like a different body.
      if (!existing || existing.kind !== 'batch' || !sameRequest(idempotency, existing.request_hash)) {
        return { kind: 'conflict' };
      }
      return {
        kind: 'replayed',
        items: existing.items as BatchItemRecord[],
        createdMs: Number(existing.created_ms),
        failed: existing.failed_at !== undefined,
      };
    }
  }

  /** Writes decisions unconditionally (BatchWriteItem): a batch's own, once its key (if any) is claimed. */
  async putMany(decisions: Decision[], owner: DecisionOwner, extras?: Map<string, DecisionExtras>): Promise<void> {
    const requests = decisions.map((decision) => ({ PutRequest: { Item: this.item(decision, owner, extras) } }));
    await batchWriteAll(this.client, this.tableName, requests);
  }

  async putNew(
    decisions: Decision[],
    owner: DecisionOwner,
    extras?: Map<string, DecisionExtras>,
  ): Promise<Map<string, Decision>> {
    const stored = new Map<string, Decision>();
    await inParallel(decisions, PUTS_AT_ONCE, async (decision) => {
      try {
        await this.client.send(
          new PutCommand({
            TableName: this.tableName,
            Item: this.item(decision, owner, extras),
            ConditionExpression: 'attribute_not_exists(pk)',
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
      } catch (err) {
        if (!conditionFailed(err)) throw err;
        const pk = ITEM_PREFIX.decision + decision.decision_id;
        const item = await claimedRecord(
          this.client,
          this.tableName,
          pk,
          (err as { Item?: Record<string, unknown> }).Item,
        );
        if (item?.decision) stored.set(decision.decision_id, decisionFrom(item));
      }
    });
    return stored;
  }

  /** A decision's item: the one single analyze stores, with the sketch learning keeps beside it. */
  private item(
    decision: Decision,
    owner: DecisionOwner,
    extras?: Map<string, DecisionExtras>,
  ): Record<string, unknown> {
    return {
      ...extras?.get(decision.decision_id),
      ...decisionItem(decision, owner, parseInstant(decision.created_at), this.retentionDays),
    };
  }

  async getMany(decisionIds: string[]): Promise<Map<string, Decision>> {
    const found = new Map<string, Decision>();
    const nowSeconds = Math.floor(Date.now() / 1000);
    const pks = decisionIds.map((id) => ITEM_PREFIX.decision + id);
    for (const item of (await batchGet(this.client, this.tableName, pks)).items.values()) {
      if (!item.decision || Number(item.expires_at) <= nowSeconds) continue;
      const decision = decisionFrom(item);
      found.set(decision.decision_id, decision);
    }
    return found;
  }
}
