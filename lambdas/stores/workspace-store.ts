// Policies and learned models in the decisions table: the `policy#`, `wsmodel#` and `wslabel#` items (docs/learning.md,
// Storage layout; the head and the journal: workspace-head.ts).
import { createHash } from 'node:crypto';
import { type DynamoDBDocumentClient, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { changedFields } from '../domain/audit';
import { auditEventPut } from './audit-log';
import type { LabelCounts, WorkspaceModel } from '../domain/learning/model';
import { newSketchKey } from '../domain/learning/sketch';
import { EMPTY_POLICY, type StoredPolicy, type WorkspacePolicy } from '../domain/policy';
import type { AuditActor, PolicyWrite, WorkspaceState, WorkspaceStore } from '../domain/ports';
import { addDeltaToCounts } from '../domain/learning/label-delta';
import { type JournalEntry, applyJournal, entriesToRead, journalCursor } from '../domain/learning/journal';
import { JournalFolder } from './journal-fold';
import { FOLD_LAG, FOLD_WINDOW, type FoldOptions, foldDue } from './fold-schedule';
import {
  WORKSPACE_PREFIX,
  countsFrom,
  fieldAndLabel,
  headFrom,
  headPk,
  initHead,
  labelPk,
  readJournal,
} from './workspace-head';
import { batchGet } from './batch-writes';
import { cancellationReasons } from './database-faults';
import { getItem } from './dynamodb-client';
import { AGAIN, retrying } from './retry';

export { labelPk };

/** Loads that start again when a reset or a fold moved under them (then the load goes ahead anyway). */
const LOAD_ATTEMPTS = 6;
/** A head check (analyze) folds by age or a full window, not by import weight: the import that crossed it folds. */
const CHECK_FOLDS: FoldOptions = { window: FOLD_WINDOW, lag: FOLD_LAG, importWeight: Number.POSITIVE_INFINITY };
/** A container this far behind the journal loads the workspace again instead of reading every entry. */
const MAX_ENTRIES_PER_REFRESH = 1_000;

export const POLICY_FIELDS = [
  'vip_senders',
  'trusted_senders',
  'blocked_senders',
  'keywords',
  'categories',
  'routing',
  'thresholds',
  'response_minutes',
  'learning',
] as const;

function policyFrom(item: Record<string, unknown> | undefined): StoredPolicy {
  if (!item) return { ...EMPTY_POLICY };
  const stored = (item.policy ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const field of POLICY_FIELDS) if (stored[field] !== undefined) out[field] = stored[field];
  out.version = Number(item.version);
  out.updated_at = item.updated_at;
  return out as unknown as StoredPolicy;
}

/**
 * The model item's attribute holding one label's version: it grows with every change to that label's counts, so a
 * container reads again only the label items whose version moved. Named `v` + 8 hex digits of the label's SHA-256
 * (10 bytes, not the label's 20 to 70), so the model item of 77 labels stays under 4 KB: half a read unit. Two labels
 * sharing a name only means both are read again when either changes.
 */
export const labelVersionAttribute = (label: string) =>
  `v${createHash('sha256').update(label).digest('hex').slice(0, 8)}`;

/** The version of every label the model item lists (0 for labels taught before versions were kept). */
function labelVersionsOf(meta: Record<string, unknown>): Map<string, number> {
  const out = new Map<string, number>();
  for (const label of (meta.labels as Set<string> | undefined) ?? [])
    out.set(label, Number(meta[labelVersionAttribute(label)] ?? 0));
  return out;
}

const approxBytes = (item: Record<string, unknown>) => {
  let bytes = 0;
  for (const [k, val] of Object.entries(item))
    bytes += k.length + (typeof val === 'number' ? 3 : JSON.stringify(val).length);
  return bytes;
};

/**
 * The entries of a fold's window (up to `end`) without what they move in labels that fold already wrote (mark `lf` at
 * or past `end`): those label items hold it, and applying it again would count it twice.
 */
function withoutFolded(entries: Map<number, JournalEntry | undefined>, end: number, marks: Map<string, number>): void {
  const folded = (id: string) => (marks.get(id) ?? 0) >= end;
  for (const [seq, entry] of entries) {
    if (!entry || seq > end) continue;
    entries.set(seq, {
      ...entry,
      changes: entry.changes.filter((c) => !folded(`${c.field}:${c.label}`)),
      deltas: entry.deltas?.filter((d) => !folded(`${d.field}:${d.label}`)),
    });
  }
}

export class DynamoWorkspaceStore implements WorkspaceStore {
  /** Folds a quiet workspace's journal when a check finds entries unfolded for a while (journal-fold.ts). */
  readonly folder: JournalFolder;

  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    this.folder = new JournalFolder(client, tableName, CHECK_FOLDS);
  }

  async getPolicy(workspaceId: string): Promise<StoredPolicy> {
    return policyFrom(await getItem(this.client, this.tableName, WORKSPACE_PREFIX.policy + workspaceId));
  }

  async putPolicy(
    workspaceId: string,
    policy: WorkspacePolicy,
    ifMatch: number | undefined,
    now: string,
    by: AuditActor,
  ): Promise<PolicyWrite> {
    const pk = WORKSPACE_PREFIX.policy + workspaceId;
    const sent: Record<string, unknown> = {};
    for (const field of POLICY_FIELDS)
      if ((policy as Record<string, unknown>)[field] !== undefined)
        sent[field] = (policy as Record<string, unknown>)[field];
    return retrying<PolicyWrite>('policy change', async (attempt) => {
      // A retry is a later write: its updated_at and event time say so (events list in time order).
      if (attempt > 0) now = new Date().toISOString();
      // Read first: the event records what the policy was. The write is conditional on the version read, so a
      // concurrent PUT makes this one read again (and each leaves its own event).
      const read = await getItem(this.client, this.tableName, pk);
      const stored = policyFrom(read);
      const version = read ? stored.version : 0;
      if (ifMatch !== undefined && ifMatch !== version) return { kind: 'precondition_failed' };
      const { version: _v, updated_at: _u, ...was } = stored as unknown as Record<string, unknown>;
      const diff = changedFields(was, sent);
      try {
        await this.client.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: this.tableName,
                  Key: { pk },
                  UpdateExpression: 'SET #policy = :policy, updated_at = :now, workspace_key = :ws, #version = :next',
                  ConditionExpression: read ? '#version = :read' : 'attribute_not_exists(pk)',
                  ExpressionAttributeNames: { '#policy': 'policy', '#version': 'version' },
                  ExpressionAttributeValues: {
                    ':policy': policy,
                    ':now': now,
                    ':ws': workspaceId,
                    ':next': version + 1,
                    ...(read ? { ':read': version } : {}),
                  },
                },
              },
              // Containers check the head each TTL: its policy counter tells them to read the policy again.
              {
                Update: {
                  TableName: this.tableName,
                  Key: { pk: headPk(workspaceId) },
                  UpdateExpression: 'ADD pv :one',
                  ExpressionAttributeValues: { ':one': 1 },
                },
              },
              auditEventPut(
                this.tableName,
                {
                  actor: by.actor,
                  action: 'policy.put',
                  target: { workspace_id: workspaceId },
                  before: { ...diff.before, version },
                  after: { ...diff.after, version: version + 1 },
                },
                new Date(now),
              ),
            ],
          }),
        );
        return { kind: 'stored', policy: policyFrom({ policy, version: version + 1, updated_at: now }) };
      } catch (err) {
        const raced = cancellationReasons(err).some(
          (c) => c === 'ConditionalCheckFailed' || c === 'TransactionConflict',
        );
        if (!raced) throw err;
        return AGAIN;
      }
    });
  }

  /**
   * A container's first load of a workspace: policy, model item and head, the label items (the counts folded so far),
   * then the journal entries after the fold marker. The label items are read while no fold is in flight (a fold writes
   * them in several updates): the head is read before and after, and the load starts again if a fold moved between.
   */
  async loadState(workspaceId: string): Promise<WorkspaceState> {
    const policyPk = WORKSPACE_PREFIX.policy + workspaceId;
    const modelPk = WORKSPACE_PREFIX.model + workspaceId;
    const hPk = headPk(workspaceId);
    let requests = 0;
    for (let attempt = 0; ; attempt++) {
      const first = await this.batchGet([policyPk, modelPk, hPk]);
      requests++;
      const policy = policyFrom(first.get(policyPk));
      let meta = first.get(modelPk);
      if (!meta?.sketch_key) {
        // A workspace's first load makes its sketch key; concurrent first loads agree on whichever was written first.
        const out = await this.client.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: { pk: modelPk },
            UpdateExpression: 'SET sketch_key = if_not_exists(sketch_key, :key)',
            ExpressionAttributeValues: { ':key': newSketchKey() },
            ReturnValues: 'ALL_NEW',
          }),
        );
        meta = out.Attributes ?? {};
      }
      const generation = Number(meta.generation ?? 0);
      let head = headFrom(first.get(hPk));
      if (head.generation === undefined) head = await initHead(this.client, this.tableName, workspaceId, generation);
      const retry = attempt < LOAD_ATTEMPTS;
      // A reset between the two reads, or a fold writing the label items: read again in a moment.
      if (retry && (head.generation !== generation || head.folding !== undefined)) {
        await new Promise((r) => setTimeout(r, 25 * (attempt + 1)));
        continue;
      }
      const labels = [...((meta.labels as Set<string> | undefined) ?? [])].sort();
      const read = await this.readLabels(workspaceId, generation, labels);
      const after = headFrom((await this.batchGet([hPk])).get(hPk));
      requests += read.requests + 1;
      if (retry && (after.folded !== head.folded || after.folding !== undefined || after.generation !== generation))
        continue;
      // Its version counts what this generation learned: a reset's new generation decides as a fresh workspace.
      const model: WorkspaceModel = {
        version: Number(meta.version ?? 0) + after.seq - after.generationStart,
        labels: read.labels,
      };
      const journal = journalCursor(after.folded);
      const entries = await readJournal(
        this.client,
        this.tableName,
        workspaceId,
        generation,
        entriesToRead(journal, after.seq),
      );
      // Loading while a fold stays in flight (its runner crashed): the labels it already wrote hold its window.
      if (after.folding !== undefined) withoutFolded(entries.entries, after.folding, read.marks);
      applyJournal(model, journal, after.seq, entries.entries, Date.now());
      return {
        policy,
        model,
        sketchKey: String(meta.sketch_key),
        generation,
        labelVersions: labelVersionsOf(meta),
        head: { policyChanges: after.policyChanges, modelChanges: after.modelChanges, folded: after.folded },
        journal,
        loadCost: {
          requests: requests + entries.requests,
          bytes: approxBytes(meta) + read.bytes + entries.bytes,
        },
      };
    }
  }

  /**
   * What changed since `cached` was loaded, from one eventually consistent read of the head (well under 1 KB: half a
   * read unit, whatever the model's size): undefined when nothing did. Otherwise only what changed is read: the
   * policy; the journal entries not applied yet (applied in place to the cached model, its index kept in step); after
   * an import, the label items whose version moved; after a reset, the new (empty) generation.
   */
  async refreshState(workspaceId: string, cached: WorkspaceState): Promise<WorkspaceState | undefined> {
    const head = headFrom((await this.batchGet([headPk(workspaceId)], false)).get(headPk(workspaceId)));
    const generation = cached.generation ?? 0;
    // Entries an hour unfolded (a workspace whose feedback stopped) are folded before they expire with their decisions.
    if (foldDue(head, Date.now(), CHECK_FOLDS)) {
      try {
        await this.folder.maybeFold(workspaceId, head, Date.now());
      } catch {
        // Left in flight: the next check or feedback takes it over.
      }
    }
    const seen = cached.head;
    const journal = cached.journal;
    if (!seen || !journal || (head.generation ?? 0) !== generation) return this.loadState(workspaceId);
    // Far behind the journal: a load reads less than the entries would.
    if (head.seq - journal.applied > MAX_ENTRIES_PER_REFRESH) return this.loadState(workspaceId);
    let requests = 1;
    let bytes = 0;
    let policy = cached.policy;
    let model = cached.model;
    let labelVersions = cached.labelVersions;
    if (head.policyChanges !== seen.policyChanges) {
      policy = await this.getPolicy(workspaceId);
      requests++;
    }
    if (head.modelChanges !== seen.modelChanges) {
      // An import wrote label items. Read again only those whose version moved, when no fold changed the label items
      // since this container read them (the journal entries it applied are added back); otherwise load again.
      if (head.folded !== seen.folded || head.folding !== undefined) return this.loadState(workspaceId);
      const meta = (await this.batchGet([WORKSPACE_PREFIX.model + workspaceId])).get(
        WORKSPACE_PREFIX.model + workspaceId,
      );
      const versions = labelVersionsOf(meta ?? {});
      const before = cached.labelVersions ?? new Map<string, number>();
      const changed = [...versions.keys()].sort().filter((l) => versions.get(l) !== before.get(l));
      const read = await this.readLabels(workspaceId, generation, changed);
      const after = headFrom((await this.batchGet([headPk(workspaceId)])).get(headPk(workspaceId)));
      requests += 2 + read.requests;
      bytes += read.bytes + approxBytes(meta ?? {});
      if (after.folded !== seen.folded || after.folding !== undefined) return this.loadState(workspaceId);
      for (const counts of read.labels) {
        const delta = journal.overlay.get(`${counts.field}:${counts.label}`);
        if (delta) addDeltaToCounts(counts, delta);
      }
      const again = new Set(changed);
      model = {
        version: cached.model.version + 1,
        labels: [...cached.model.labels.filter((l) => !again.has(`${l.field}:${l.label}`)), ...read.labels],
      };
      labelVersions = versions;
    }
    const toRead = entriesToRead(journal, head.seq);
    if (toRead.length || journal.applied < head.seq) {
      const read = await readJournal(this.client, this.tableName, workspaceId, generation, toRead);
      requests += read.requests;
      bytes += read.bytes;
      // Applied in place: the cached model's index follows (applyChanges), nothing is rebuilt.
      applyJournal(model, journal, head.seq, read.entries, Date.now());
    }
    const nothingChanged =
      model === cached.model && policy === cached.policy && toRead.length === 0 && journal.applied >= head.seq;
    if (nothingChanged) return undefined;
    return {
      ...cached,
      policy,
      model,
      labelVersions,
      head: { policyChanges: head.policyChanges, modelChanges: head.modelChanges, folded: seen.folded },
      loadCost: { requests, bytes },
    };
  }

  /** Label items by `<field>:<label>`, in BatchGets of 100 (labels never taught or emptied are skipped). */
  private async readLabels(workspaceId: string, generation: number, labels: string[]) {
    const out: LabelCounts[] = [];
    /** Each label's fold mark (`lf`: the end of the last window folded into it). */
    const marks = new Map<string, number>();
    let bytes = 0;
    let requests = 0;
    for (let i = 0; i < labels.length; i += 100) {
      const slice = labels.slice(i, i + 100);
      const pks = slice.map((l) => labelPk(workspaceId, ...fieldAndLabel(l), generation));
      const items = await this.batchGet(pks);
      requests += 1;
      slice.forEach((l, j) => {
        const item = items.get(pks[j]);
        if (!item) return;
        bytes += approxBytes(item);
        const counts = countsFrom(...fieldAndLabel(l), item);
        if (counts.docs > 0) out.push(counts);
        if (item.lf !== undefined) marks.set(l, Number(item.lf));
      });
    }
    return { labels: out, bytes, requests, marks };
  }

  private async batchGet(pks: string[], consistent = true): Promise<Map<string, Record<string, unknown>>> {
    return (await batchGet(this.client, this.tableName, pks, consistent)).items;
  }
}
