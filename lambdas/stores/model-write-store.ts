// Writes that change a workspace's learned model as a whole (contract section 13): an import's counts, and a reset.
//
// An import adds its label deltas with atomic ADDs inside TransactWriteItems. With an Idempotency-Key, each
// transaction also claims a part record (`idem#...#g<generation>#p<i>`), and the last one the import's own record
// (the answer a replay gets), the model item's version and labels, and the audit event: a replay after a crash
// re-runs only the parts that did not land, and a finished import is answered from its record, so nothing is taught
// twice. A reset moves the model item to a new, empty generation in one transaction with its audit event.
import { type DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { LabelDelta } from '../domain/learning/label-delta';
import type { LearnedField } from '../domain/learning/model';
import type { AuditEntry, ImportWrite, ImportWriteResult, ModelWriteStore } from '../domain/learning/model-writes';
import { ModelBusyError } from '../domain/ports';
import { auditEventPut } from './audit-log';
import { batchWriteAll } from './batch-writes';
import { headPk } from './workspace-head';
import { WORKSPACE_PREFIX, labelPk, labelVersionAttribute } from './workspace-store';

/** One TransactWriteItems entry (the audit writer's Put). */
export type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

/** Attributes ADDed by one update: its expression stays well under DynamoDB's 4 KB. */
const TERMS_PER_UPDATE = 250;
/** Actions per transaction (DynamoDB's limit is 100; room for the records, the model item and the audit event). */
const UPDATES_PER_TRANSACTION = 90;
const ATTEMPTS = 10;
/** The longest pause between two attempts: a conflict is another transaction on the same model item, over in milliseconds. */
const MAX_BACKOFF_MS = 300;
/** An import's idempotency records are kept 24 hours, like every Idempotency-Key. */
const RECORD_SECONDS = 24 * 60 * 60;

interface Update {
  pk: string;
  /** `<field>:<label>`: whose version the transaction holding this update bumps. */
  label: string;
  adds: [string, number][];
}

/** Each delta as ADD updates of at most TERMS_PER_UPDATE counts (the first also adds docs and total). */
function updatesOf(workspaceId: string, generation: number, deltas: LabelDelta[]): Update[] {
  const out: Update[] = [];
  for (const d of deltas) {
    const pk = labelPk(workspaceId, d.field, d.label, generation);
    const entries: [string, number][] = [['docs', d.docs], ['total', d.total], ...d.counts];
    // `iv` moves with every import update: a fold rewriting the item whole (journal-fold.ts) sees it changed.
    for (let i = 0; i < entries.length; i += TERMS_PER_UPDATE)
      out.push({ pk, label: `${d.field}:${d.label}`, adds: [...entries.slice(i, i + TERMS_PER_UPDATE), ['iv', 1]] });
  }
  return out;
}

/** Groups updates into transactions: at most UPDATES_PER_TRANSACTION each, never one item twice in a transaction. */
function groupsOf(updates: Update[]): Update[][] {
  const groups: { items: Update[]; pks: Set<string> }[] = [];
  for (const u of updates) {
    let g = groups.find((x) => x.items.length < UPDATES_PER_TRANSACTION && !x.pks.has(u.pk));
    if (!g) groups.push((g = { items: [], pks: new Set() }));
    g.items.push(u);
    g.pks.add(u.pk);
  }
  return groups.map((g) => g.items);
}

function addItem(tableName: string, u: Update): TransactItem {
  const names: Record<string, string> = {};
  const values: Record<string, number> = {};
  const valueOf = new Map<number, string>();
  const terms = u.adds.map(([name, n], i) => {
    names[`#${i}`] = name;
    let v = valueOf.get(n);
    if (!v) {
      v = `:${valueOf.size}`;
      valueOf.set(n, v);
      values[v] = n;
    }
    return `#${i} ${v}`;
  });
  return {
    Update: {
      TableName: tableName,
      Key: { pk: u.pk },
      UpdateExpression: `ADD ${terms.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

function headUpdate(
  tableName: string,
  workspaceId: string,
  expression: string,
  values: Record<string, number>,
): TransactItem {
  return {
    Update: {
      TableName: tableName,
      Key: { pk: headPk(workspaceId) },
      UpdateExpression: expression,
      ...(expression.includes('#gen') ? { ExpressionAttributeNames: { '#gen': 'generation' } } : {}),
      ExpressionAttributeValues: values,
    },
  };
}

const reasonsOf = (err: unknown): string[] =>
  ((err as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? []).map((r) => r.Code ?? 'None');

/** Writes that kept losing to concurrent ones: the route answers 503 with Retry-After (lambdas/stores/database-faults.ts). */
const busy = (cause: unknown) => new ModelBusyError(cause);

const isCancelled = (err: unknown) => (err as { name?: string }).name === 'TransactionCanceledException';

export class DynamoModelWriteStore implements ModelWriteStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** The idempotency record of an import, if one was written (read consistently). */
  async getRecord(pk: string): Promise<Record<string, unknown> | undefined> {
    const out = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: { pk }, ConsistentRead: true }),
    );
    const item = out.Item;
    return item && Number(item.expires_at) > Math.floor(Date.now() / 1000) ? item : undefined;
  }

  async applyImport(input: ImportWrite): Promise<ImportWriteResult> {
    const { workspaceId, generation, record } = input;
    const audit = input.audit && this.auditPut(input.audit);
    if (record) {
      const existing = await this.getRecord(record.pk);
      if (existing) return { kind: 'recorded', item: existing };
    }
    const expiresAt = Math.floor(input.nowMs / 1000) + RECORD_SECONDS;
    const groups = groupsOf(updatesOf(workspaceId, generation, input.deltas));
    if (groups.length === 0) groups.push([]);
    const claim = (pk: string, item: Record<string, unknown>): TransactItem => ({
      Put: {
        TableName: this.tableName,
        Item: { ...item, pk, expires_at: expiresAt },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    });
    // Each transaction bumps the versions of the labels it updates (other containers read those items again), in its
    // one update of the model item: at most UPDATES_PER_TRANSACTION names, well within the 4 KB expression limit.
    const modelUpdate = (updates: Update[], last: boolean): TransactItem => {
      const labels = [...new Set(updates.map((u) => u.label))];
      const added = last ? input.labels : [];
      return {
        Update: {
          TableName: this.tableName,
          Key: { pk: WORKSPACE_PREFIX.model + workspaceId },
          UpdateExpression: `ADD ${[...(last ? ['#version :one'] : []), ...(added.length ? ['#labels :labels'] : []), ...labels.map((_, i) => `#v${i} :one`)].join(', ')}`,
          ...(last
            ? { ConditionExpression: generation === 0 ? 'attribute_not_exists(#gen) OR #gen = :gen' : '#gen = :gen' }
            : {}),
          ExpressionAttributeNames: {
            ...(last ? { '#version': 'version', '#gen': 'generation' } : {}),
            ...(added.length ? { '#labels': 'labels' } : {}),
            ...Object.fromEntries(labels.map((l, i) => [`#v${i}`, labelVersionAttribute(l)])),
          },
          ExpressionAttributeValues: {
            ':one': 1,
            ...(last ? { ':gen': generation } : {}),
            ...(added.length ? { ':labels': new Set(added) } : {}),
          },
        },
      };
    };
    // Every part but the last, each with its own claim; one after the other (they all update the model item, and
    // concurrent transactions on one item cancel each other).
    for (const [i, updates] of groups.slice(0, -1).entries()) {
      const items = [
        ...(record ? [claim(`${record.pk}#g${generation}#p${i}`, { kind: 'import_part' })] : []),
        ...updates.map((u) => addItem(this.tableName, u)),
        modelUpdate(updates, false),
      ];
      await this.transact(items, record ? 0 : -1);
    }

    const lastUpdates = groups[groups.length - 1];
    const model = modelUpdate(lastUpdates, true);
    const last = [
      model,
      ...(record ? [claim(record.pk, record.item)] : []),
      ...(audit ? [audit] : []),
      ...lastUpdates.map((u) => addItem(this.tableName, u)),
      // Containers check the head each TTL: its import counter tells them to read the changed label items again.
      headUpdate(this.tableName, workspaceId, 'ADD mv :one', { ':one': 1 }),
    ];
    const outcome = await this.transact(last, record ? 1 : -1, 0);
    if (outcome === 'claimed_before') return { kind: 'recorded', item: (await this.getRecord(record!.pk)) ?? {} };
    if (outcome === 'guard_failed') return { kind: 'generation_changed' };
    return { kind: 'applied' };
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
      const out = await this.client.send(
        new GetCommand({ TableName: this.tableName, Key: { pk }, ConsistentRead: true }),
      );
      const generation = Number(out.Item?.generation ?? 0);
      const taught = [...((out.Item?.labels as Set<string> | undefined) ?? [])];
      const before = { generation, labels: taught.length, version: Number(out.Item?.version ?? 0) };
      const after = { generation: generation + 1, labels: 0, version: 0 };
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
        ...(audit ? [this.auditPut(audit({ before, after }))] : []),
        // The head moves to the new generation with the model item; the journal of the new generation starts after
        // the feedback numbered so far (those entries, of the old generation, are never read again).
        headUpdate(
          this.tableName,
          workspaceId,
          'SET #gen = :next, folded = if_not_exists(seq, :zero) REMOVE folding, folding_at, unfolded_since',
          { ':next': generation + 1, ':zero': 0 },
        ),
      ];
      const outcome = await this.transact(items, -1, 0);
      if (outcome === 'done') {
        await this.deleteLabelItems(workspaceId, generation, taught);
        return generation + 1;
      }
      if (attempt >= ATTEMPTS) throw busy(new Error('the model kept changing during the reset'));
    }
  }

  /**
   * Deletes a forgotten generation's label items (up to MAX_LABELS: 24 calls of 25). Storage, not correctness: the new
   * generation never reads them, so a failure leaves them behind rather than failing a reset that already happened.
   */
  private async deleteLabelItems(workspaceId: string, generation: number, taught: string[]): Promise<void> {
    const requests = taught.map((name) => {
      const colon = name.indexOf(':');
      const pk = labelPk(workspaceId, name.slice(0, colon) as LearnedField, name.slice(colon + 1), generation);
      return { DeleteRequest: { Key: { pk } } };
    });
    // Left for a later clean-up when it fails (docs/learning.md, "Importing history and forgetting it").
    await batchWriteAll(this.client, this.tableName, requests).catch(() => undefined);
  }

  private auditPut({ event, at }: AuditEntry): TransactItem {
    return auditEventPut(this.tableName, event, at);
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
        if (!isCancelled(err)) throw err;
        const reasons = reasonsOf(err);
        if (claimAt >= 0 && reasons[claimAt] === 'ConditionalCheckFailed') return 'claimed_before';
        if (guardAt >= 0 && reasons[guardAt] === 'ConditionalCheckFailed') return 'guard_failed';
        if (attempt >= ATTEMPTS) throw busy(err);
        await new Promise((r) => setTimeout(r, Math.random() * Math.min(MAX_BACKOFF_MS, 20 * 2 ** attempt)));
      }
    }
  }
}
