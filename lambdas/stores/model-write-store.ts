// Writes that change a workspace's learned model as a whole (docs/learning.md, "Importing history and forgetting
// it"): an import (one entry holding its summed counts, with its idempotency record and audit event in one
// transaction) and a reset (a new, empty generation with its entry and audit event in one transaction).
import { type DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { OVERLAP_MS } from '../domain/learning/entries';
import type { ForgetAudit, ImportWrite, ImportWriteResult, ModelWriteStore } from '../domain/learning/model-writes';
import { LEARNED_FIELDS } from '../domain/learning/model';
import { ModelBusyError } from '../domain/ports';
import { auditEventPut } from './audit-log';
import { batchWriteAll } from './batch-writes';
import { cancellationReasons, isDatabaseUnavailable, transactionCancelled } from './database-faults';
import { idempotencyClaim } from './decision-store';
import { ITEM_PREFIX } from '../contract/tables';
import { getItem } from './dynamodb-client';
import { labelSetKey, labelSetWrite, olderLabelSetKeys, planLabels } from './label-registry';
import {
  MODEL_KEY,
  entryFrom,
  entryItem,
  getModel,
  queryAllCounts,
  queryEntryKeys,
  randomId,
  readModelItem,
} from './learning-items';
import { AGAIN, retrying } from '../domain/retry';

/** One TransactWriteItems entry (the audit writer's Put). */
type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

/** The model item's generation is still `generation` (generation 0: also a model item made before generations). */
const sameGeneration = (generation: number) => ({
  ConditionExpression: generation === 0 ? 'attribute_not_exists(g) OR g = :g' : 'g = :g',
  ExpressionAttributeValues: { ':g': generation },
});

export class DynamoModelWriteStore implements ModelWriteStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly learningTable: string,
  ) {}

  /** Reads the label sets that keep MAX_LABELS across containers (label-registry.ts); the import writes the change. */
  readonly planLabels: ModelWriteStore['planLabels'] = (workspaceId, generation, field, known, wanted) =>
    planLabels(this.client, this.learningTable, workspaceId, generation, field, known, wanted);

  /** The idempotency record of an import, if one was written (read consistently). */
  async getRecord(pk: string, nowMs: number): Promise<Record<string, unknown> | undefined> {
    const item = await getItem(this.client, this.tableName, pk);
    return item && Number(item.expires_at) > Math.floor(nowMs / 1000) ? item : undefined;
  }

  /**
   * The import's entry, its idempotency record, its audit event and its new labels land together, on the condition
   * that no reset moved the model since its examples were sketched (then the caller sketches them again), that no
   * import with the same key landed first (then it answers as that one did) and that the label sets still have room
   * for its new labels (then the caller reads them again).
   */
  async applyImport(input: ImportWrite): Promise<ImportWriteResult> {
    const { workspaceId, generation, record, deltas, nowMs } = input;
    if (record) {
      const existing = await this.getRecord(record.pk, nowMs);
      if (existing) return { kind: 'recorded', item: existing };
    }
    const item = entryItem(workspaceId, Date.now(), `x.${randomId()}`, generation, { deltas });
    const items: TransactItem[] = [
      {
        ConditionCheck: {
          TableName: this.learningTable,
          Key: { ws: workspaceId, sk: MODEL_KEY },
          ...sameGeneration(generation),
        },
      },
      { Put: { TableName: this.learningTable, Item: item, ConditionExpression: 'attribute_not_exists(sk)' } },
      ...(record ? [{ Put: idempotencyClaim(this.tableName, record.pk, record.item, nowMs) }] : []),
      ...(input.audit ? [auditEventPut(this.tableName, input.audit.event, input.audit.at)] : []),
    ];
    const firstLabels = items.length;
    for (const change of input.labels ?? [])
      items.push({ Update: labelSetWrite(this.learningTable, workspaceId, change) });
    const outcome = await this.transact(items);
    // The entry's key is this attempt's own: it exists only if this transaction landed before (sent again after a
    // lost answer), whatever the other conditions now say.
    if (outcome[1] === 'ConditionalCheckFailed') return { kind: 'applied', entry: entryFrom(item) };
    if (outcome[0] === 'ConditionalCheckFailed') return { kind: 'generation_changed' };
    if (record && outcome[2] === 'ConditionalCheckFailed') {
      // Read with the claim's own now, so a record live to the claim is live here. Gone since (deleted after its
      // window): the attempt runs again, as after a reset.
      const existing = await this.getRecord(record.pk, nowMs);
      return existing ? { kind: 'recorded', item: existing } : { kind: 'generation_changed' };
    }
    if (outcome.slice(firstLabels).includes('ConditionalCheckFailed')) return { kind: 'labels_changed' };
    return { kind: 'applied', entry: entryFrom(item) };
  }

  /**
   * Forgets the workspace's model: the model item moves to a new generation, in one transaction with the reset's
   * entry (containers load the new, empty generation at their next check) and the audit event. The old generation's
   * label items and unfolded entries are never read again, and are deleted right after the switch, with any label
   * item an older generation left (docs/learning.md, "Folding"), even by a forget that has nothing else to forget.
   */
  async forget(workspaceId: string, audit?: ForgetAudit): Promise<number> {
    let forgotten: string[] = [];
    const generation = await retrying('model reset', async () => {
      let model = await getModel(this.client, this.learningTable, workspaceId);
      // Version 3's counts not migrated yet (docs/learning.md, Migrating from version 3) belong to the generation its
      // model item had: the switch must happen, or `migrate-learning` writes them back into it. A model item not made
      // yet is made as a first load makes it, with that generation.
      const old =
        model.migrated === undefined
          ? await getItem(this.client, this.tableName, ITEM_PREFIX.workspaceModel + workspaceId)
          : undefined;
      if (old && model.sketchKey === undefined)
        model = await readModelItem(this.client, this.learningTable, workspaceId, this.tableName);
      const unmigrated = old !== undefined && Number(old.generation ?? 0) === model.generation;
      // What the generation holds: its label items, and entries not folded into them yet.
      const counts = await queryAllCounts(this.client, this.learningTable, workspaceId);
      const labels = counts.filter((c) => c.generation === model.generation).map((c) => c.item);
      forgotten = counts.filter((c) => c.generation < model.generation).map((c) => String(c.item.sk));
      const examples = labels.reduce((sum, i) => sum + Number(i.docs ?? 0), 0);
      const entries = await queryEntryKeys(this.client, this.learningTable, workspaceId, model.folded);
      const moving = entries.filter((e) => e.moves);
      const current = moving.filter((e) => e.generation === model.generation);
      // Older generations' unfolded entries and label sets too (a forget retried after its deletes never ran): no load
      // reads them.
      forgotten.push(...moving.filter((e) => e.generation < model.generation).map((e) => e.key));
      forgotten.push(...(await olderLabelSetKeys(this.client, this.learningTable, workspaceId, model.generation)));
      if (examples <= 0 && !unmigrated && !current.length) return model.generation;
      const next = model.generation + 1;
      const entry = audit?.({
        // The folded counts, and the entries not folded yet (recent feedback and imports: their counts are not read).
        before: { generation: model.generation, labels: labels.length, version: examples, entries: current.length },
        after: { generation: next, labels: 0, version: 0, entries: 0 },
      });
      // On the fold mark it read too: a fold that finished since wrote labels the read above may not hold, so read
      // again. A fold still in flight loses its claim here, and deletes what it wrote itself (learning-fold.ts).
      const generation = sameGeneration(model.generation);
      const outcome = await this.transact([
        {
          Update: {
            TableName: this.learningTable,
            Key: { ws: workspaceId, sk: MODEL_KEY },
            UpdateExpression: 'SET g = :next REMOVE fw, fa',
            ConditionExpression: `(${generation.ConditionExpression}) AND (attribute_not_exists(f) OR f = :f)`,
            ExpressionAttributeValues: { ':g': model.generation, ':next': next, ':f': model.folded },
          },
        },
        { Put: { TableName: this.learningTable, Item: entryItem(workspaceId, Date.now(), `r.${next}`, next, {}) } },
        ...(entry ? [auditEventPut(this.tableName, entry.event, entry.at)] : []),
      ]);
      if (outcome[0] === 'ConditionalCheckFailed') return AGAIN;
      // Its entries not folded yet too: they have no expiry until a fold (learning-items.ts entryItem). Read again
      // after the switch: a feedback or an import that landed since the read above is in the old generation too (one
      // landing after the switch withdraws its own entry: feedback-store.ts, record).
      const since = await queryEntryKeys(this.client, this.learningTable, workspaceId, model.folded);
      forgotten.push(
        ...labels.map((i) => String(i.sk)),
        ...since.filter((e) => e.moves && e.generation === model.generation).map((e) => e.key),
        ...LEARNED_FIELDS.map((field) => labelSetKey(model.generation, field)),
      );
      return next;
    });
    // Storage, not correctness: a failure leaves them behind (the new generation never reads them; its next fold gives
    // the entries their expiry, the next forget deletes the label items).
    if (forgotten.length) {
      const keys = forgotten.map((sk) => ({ DeleteRequest: { Key: { ws: workspaceId, sk } } }));
      await batchWriteAll(this.client, this.learningTable, keys).catch(() => undefined);
    }
    return generation;
  }

  /**
   * Runs one transaction, again while it meets another on the same items; answers each item's cancellation reason
   * (all 'None' when it landed). Given up after OVERLAP_MS / 2, so its entry lands within half the overlap or never.
   */
  private transact(items: TransactItem[]): Promise<string[]> {
    const abortSignal = AbortSignal.timeout(OVERLAP_MS / 2);
    return retrying('model write', async () => {
      try {
        await this.client.send(new TransactWriteCommand({ TransactItems: items }), { abortSignal });
        return items.map(() => 'None');
      } catch (err) {
        if (abortSignal.aborted) throw new ModelBusyError(err);
        if (!transactionCancelled(err) || isDatabaseUnavailable(err)) throw err;
        const reasons = cancellationReasons(err);
        return reasons.includes('ConditionalCheckFailed') ? reasons : AGAIN;
      }
    });
  }
}
