// Writes that change a workspace's learned model as a whole: an import (one journal entry, with its idempotency
// record and audit event in one transaction) and a reset (a new, empty generation): docs/learning.md, "Importing
// history and forgetting it".
import { type DynamoDBDocumentClient, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { encodeDeltas } from '../domain/learning/label-delta';
import type { AuditEntry, ImportWrite, ImportWriteResult, ModelWriteStore } from '../domain/learning/model-writes';
import { ModelBusyError } from '../domain/ports';
import { auditEventPut } from './audit-log';
import { batchWriteAll } from './batch-writes';
import { cancellationReasons, conditionFailed, transactionCancelled } from './database-faults';
import { idempotencyClaim } from './decision-store';
import { getItem } from './dynamodb-client';
import { JournalFolder } from './journal-fold';
import type { FoldOptions } from './fold-schedule';
import { WORKSPACE_PREFIX, fieldAndLabel, headPk, journalPk, labelPk, takeJournalNumber } from './workspace-head';

/** One TransactWriteItems entry (the audit writer's Put). */
export type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

const ATTEMPTS = 10;
/** The longest pause between two attempts: a conflict is another transaction on the same model item, over in milliseconds. */
const MAX_BACKOFF_MS = 300;
/** An import's journal entry is kept 30 days: folded long before (FOLD_AGE_MS), like a fold's plan. */
const IMPORT_ENTRY_SECONDS = 30 * 24 * 60 * 60;

export class DynamoModelWriteStore implements ModelWriteStore {
  /** Folds the journal when the imports not folded weigh enough (its stats are the bench's fold cost). */
  readonly folder: JournalFolder;

  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    foldOptions?: FoldOptions,
  ) {
    this.folder = new JournalFolder(client, tableName, foldOptions);
  }

  /** The idempotency record of an import, if one was written (read consistently). */
  async getRecord(pk: string): Promise<Record<string, unknown> | undefined> {
    const item = await getItem(this.client, this.tableName, pk);
    return item && Number(item.expires_at) > Math.floor(Date.now() / 1000) ? item : undefined;
  }

  async applyImport(input: ImportWrite): Promise<ImportWriteResult> {
    const { workspaceId, generation, record, deltas, nowMs } = input;
    if (record) {
      const existing = await this.getRecord(record.pk);
      if (existing) return { kind: 'recorded', item: existing };
    }
    const examples = input.examples;
    // The journal's next number, the generation the workspace is in now, and the import weight not folded.
    const head = await takeJournalNumber(this.client, this.tableName, workspaceId, nowMs, examples);
    const pk = journalPk(workspaceId, head.generation ?? 0, head.seq);
    const nowSeconds = Math.floor(nowMs / 1000);
    if ((head.generation ?? 0) !== generation) {
      // A reset landed since the examples were sketched for `generation`: the caller sketches them again.
      await this.putEmpty(pk, nowSeconds, examples);
      return { kind: 'generation_changed' };
    }
    const encoded = encodeDeltas(deltas);
    const entry = {
      pk,
      ...(deltas.length ? { dl: encoded.labels, dx: encoded.bytes } : {}),
      xn: examples,
      expires_at: nowSeconds + IMPORT_ENTRY_SECONDS,
    };
    const audit = input.audit && auditEventPut(this.tableName, input.audit.event, input.audit.at);
    const items: TransactItem[] = [
      ...(record ? [{ Put: idempotencyClaim(this.tableName, record.pk, record.item, nowSeconds) }] : []),
      { Put: { TableName: this.tableName, Item: entry, ConditionExpression: 'attribute_not_exists(pk)' } },
      ...(audit ? [audit] : []),
    ];
    let outcome: Awaited<ReturnType<DynamoModelWriteStore['transact']>>;
    try {
      outcome =
        items.length === 1
          ? await this.client.send(new PutCommand(items[0].Put!)).then(() => 'done' as const)
          : await this.transact(items, record ? 0 : -1);
    } catch (err) {
      // Not written (a 503 for the caller to retry): the number moves nothing, so no reader waits on it.
      await this.putEmpty(pk, nowSeconds, examples).catch(() => undefined);
      throw err;
    }
    if (outcome === 'claimed_before') {
      // A concurrent request with the same key recorded the import first: this number moves nothing.
      await this.putEmpty(pk, nowSeconds, examples);
      return { kind: 'recorded', item: (await this.getRecord(record!.pk)) ?? {} };
    }
    try {
      await this.folder.maybeFold(workspaceId, head, nowMs);
    } catch {
      // The import is journaled; the fold stays in flight and a later write or check takes it over.
    }
    return { kind: 'applied', journal: { seq: head.seq, generation } };
  }

  /**
   * An entry that moves nothing, for a number taken whose import was not written (so no reader waits on it). It keeps
   * the examples the number added to the head's import weight, for the fold to take them off.
   */
  private async putEmpty(pk: string, nowSeconds: number, examples: number): Promise<void> {
    await this.client
      .send(
        new PutCommand({
          TableName: this.tableName,
          Item: { pk, xn: examples, expires_at: nowSeconds + IMPORT_ENTRY_SECONDS },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      )
      .catch((err: unknown) => {
        if (!conditionFailed(err)) throw err;
      });
  }

  /**
   * Forgets the workspace's model: the model item moves to a new generation with no labels and version 0 (the sketch
   * key stays), in one transaction with the audit event. The old generation's label items are never read again, and
   * are deleted right after the switch.
   */
  async forget(
    workspaceId: string,
    audit?: (change: { before: Record<string, unknown>; after: Record<string, unknown> }) => AuditEntry,
  ): Promise<number> {
    const pk = WORKSPACE_PREFIX.model + workspaceId;
    for (let attempt = 0; ; attempt++) {
      const item = await getItem(this.client, this.tableName, pk);
      const generation = Number(item?.generation ?? 0);
      const taught = [...((item?.labels as Set<string> | undefined) ?? [])];
      const before = { generation, labels: taught.length, version: Number(item?.version ?? 0) };
      const after = { generation: generation + 1, labels: 0, version: 0 };
      const entry = audit?.({ before, after });
      const items: TransactItem[] = [
        {
          Update: {
            TableName: this.tableName,
            Key: { pk },
            UpdateExpression: 'SET #gen = :next, #version = :zero REMOVE #labels',
            ConditionExpression: generation === 0 ? 'attribute_not_exists(#gen) OR #gen = :gen' : '#gen = :gen',
            ExpressionAttributeNames: { '#gen': 'generation', '#version': 'version', '#labels': 'labels' },
            ExpressionAttributeValues: { ':gen': generation, ':next': generation + 1, ':zero': 0 },
          },
        },
        ...(entry ? [auditEventPut(this.tableName, entry.event, entry.at)] : []),
        // The head moves to the new generation with the model item; the journal of the new generation starts after
        // the feedback numbered so far (those entries, of the old generation, are never read again).
        {
          Update: {
            TableName: this.tableName,
            Key: { pk: headPk(workspaceId) },
            UpdateExpression:
              'SET #gen = :next, folded = if_not_exists(seq, :zero), gs = if_not_exists(seq, :zero) REMOVE folding, folding_at, unfolded_since, iw, gap_seq, gap_at, gap_checked_at',
            ExpressionAttributeNames: { '#gen': 'generation' },
            ExpressionAttributeValues: { ':next': generation + 1, ':zero': 0 },
          },
        },
      ];
      const outcome = await this.transact(items, -1, 0);
      if (outcome === 'done') {
        await this.deleteLabelItems(workspaceId, generation, taught);
        return generation + 1;
      }
      if (attempt >= ATTEMPTS) throw new ModelBusyError(new Error('the model kept changing during the reset'));
    }
  }

  /**
   * Deletes a forgotten generation's label items (up to MAX_LABELS: 24 calls of 25). Storage, not correctness: the new
   * generation never reads them, so a failure leaves them behind rather than failing a reset that already happened.
   */
  private async deleteLabelItems(workspaceId: string, generation: number, taught: string[]): Promise<void> {
    const requests = taught.map((name) => ({
      DeleteRequest: { Key: { pk: labelPk(workspaceId, ...fieldAndLabel(name), generation) } },
    }));
    // Left for a later clean-up when it fails (docs/learning.md, "Importing history and forgetting it").
    await batchWriteAll(this.client, this.tableName, requests).catch(() => undefined);
  }

  /**
   * Runs one transaction, retried on conflicts. `claimAt`: the position of a claim whose failed condition means this
   * part (or import) was written before; `guardAt`: a condition whose failure is the caller's to handle.
   */
  private async transact(
    items: TransactItem[],
    claimAt: number,
    guardAt = -1,
  ): Promise<'done' | 'claimed_before' | 'guard_failed'> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.client.send(new TransactWriteCommand({ TransactItems: items }));
        return 'done';
      } catch (err) {
        const reasons = cancellationReasons(err);
        if (!transactionCancelled(err)) throw err;
        if (claimAt >= 0 && reasons[claimAt] === 'ConditionalCheckFailed') return 'claimed_before';
        if (guardAt >= 0 && reasons[guardAt] === 'ConditionalCheckFailed') return 'guard_failed';
        // Kept losing to concurrent writes: the route answers 503 with Retry-After.
        if (attempt >= ATTEMPTS) throw new ModelBusyError(err);
        await new Promise((r) => setTimeout(r, Math.random() * Math.min(MAX_BACKOFF_MS, 20 * 2 ** attempt)));
      }
    }
  }
}
