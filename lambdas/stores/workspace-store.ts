// Policies and learned models, in the decisions table (layout: docs/learning.md).
//   policy#<ws>                      the policy as sent, its version and updated_at
//   wsmodel#<ws>                     the workspace's sketch key, model version and the labels it was taught
//   wslabel#<ws>#<field>:<label>     one label's counts: docs, total, t<bucket>, s<bucket>, d<bucket> (base 36)
//   wslabel#<ws>#g<n>#<field>:<label> the same in model generation n > 0 (after n resets: DELETE .../model)
// A label item holds at most 3 x 16,384 counts (about 340 KB), so every item stays under DynamoDB's 400 KB.
import { createHash } from 'node:crypto';
import {
  BatchGetCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { changedFields } from '../domain/audit';
import { auditEventPut } from './audit-log';
import { type LabelCounts, type LearnedField, type WorkspaceModel, labelCounts } from '../domain/learning/model';
import { SENDER_BUCKETS, TEXT_BUCKETS, newSketchKey } from '../domain/learning/sketch';
import { EMPTY_POLICY, type StoredPolicy, type WorkspacePolicy } from '../domain/policy';
import type { AuditActor, PolicyWrite, WorkspaceState, WorkspaceStore } from '../domain/ports';
import { ITEM_PREFIX } from '../contract/tables';

export const WORKSPACE_PREFIX = {
  policy: ITEM_PREFIX.policy,
  model: ITEM_PREFIX.workspaceModel,
  label: ITEM_PREFIX.workspaceLabel,
} as const;
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

/** A label item's key in a model generation (generation 0 keeps the layout of before resets existed). */
export const labelPk = (workspaceId: string, field: LearnedField, label: string, generation = 0) =>
  `${WORKSPACE_PREFIX.label}${workspaceId}#${generation > 0 ? `g${generation}#` : ''}${field}:${label}`;

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

/** A count's attribute: its kind, then its bucket in base 36 (below 2^14: at most 3 digits). */
const COUNT_NAME = /^[tsd][0-9a-z]{1,3}$/;

/**
 * A label item's attributes back into counts; zero counts (left by replaced feedback) are skipped. The item's own
 * attributes (`docs`, `total`, `pk`, ...) are not counts even where they look like one: `docs` would read as domain
 * bucket "ocs", out of range.
 */
export function countsFrom(field: LearnedField, label: string, item: Record<string, unknown>): LabelCounts {
  const counts = labelCounts(field, label);
  counts.docs = Number(item.docs ?? 0);
  counts.total = Number(item.total ?? 0);
  for (const [name, raw] of Object.entries(item)) {
    if (!COUNT_NAME.test(name)) continue;
    const kind = name[0];
    const bucket = parseInt(name.slice(1), 36);
    const n = Number(raw);
    if (bucket >= (kind === 't' ? TEXT_BUCKETS : SENDER_BUCKETS) || !(n > 0)) continue;
    (kind === 't' ? counts.text : kind === 's' ? counts.senders : counts.domains).set(bucket, n);
  }
  return counts;
}

const approxBytes = (item: Record<string, unknown>) => {
  let bytes = 0;
  for (const [k, val] of Object.entries(item))
    bytes += k.length + (typeof val === 'number' ? 3 : JSON.stringify(val).length);
  return bytes;
};

export class DynamoWorkspaceStore implements WorkspaceStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async getPolicy(workspaceId: string): Promise<StoredPolicy> {
    const out = await this.client.send(
      new GetCommand({
        TableName: this.tableName,
        Key: { pk: WORKSPACE_PREFIX.policy + workspaceId },
        ConsistentRead: true,
      }),
    );
    return policyFrom(out.Item);
  }

  async putPolicy(
    workspaceId: string,
    policy: WorkspacePolicy,
    ifMatch: number | undefined,
    now: string,
    by: AuditActor,
  ): Promise<PolicyWrite> {
    const key = { pk: WORKSPACE_PREFIX.policy + workspaceId };
    const sent: Record<string, unknown> = {};
    for (const field of POLICY_FIELDS)
      if ((policy as Record<string, unknown>)[field] !== undefined)
        sent[field] = (policy as Record<string, unknown>)[field];
    for (let attempt = 0; ; attempt++) {
      // A retry is a later write: its updated_at and event time say so (events list in time order).
      if (attempt > 0) now = new Date().toISOString();
      // Read first: the event records what the policy was. The write is conditional on the version read, so a
      // concurrent PUT makes this one read again (and each leaves its own event).
      const read = await this.client.send(
        new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: true }),
      );
      const stored = policyFrom(read.Item);
      const version = read.Item ? stored.version : 0;
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
                  Key: key,
                  UpdateExpression: 'SET #policy = :policy, updated_at = :now, workspace_key = :ws, #version = :next',
                  ConditionExpression: read.Item ? '#version = :read' : 'attribute_not_exists(pk)',
                  ExpressionAttributeNames: { '#policy': 'policy', '#version': 'version' },
                  ExpressionAttributeValues: {
                    ':policy': policy,
                    ':now': now,
                    ':ws': workspaceId,
                    ':next': version + 1,
                    ...(read.Item ? { ':read': version } : {}),
                  },
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
        const e = err as { name?: string; CancellationReasons?: { Code?: string }[] };
        const raced =
          e.name === 'TransactionCanceledException' &&
          e.CancellationReasons?.some((r) => r?.Code === 'ConditionalCheckFailed' || r?.Code === 'TransactionConflict');
        if (!raced || attempt >= 10) throw err;
      }
    }
  }

  async loadState(workspaceId: string): Promise<WorkspaceState> {
    const policyPk = WORKSPACE_PREFIX.policy + workspaceId;
    const modelPk = WORKSPACE_PREFIX.model + workspaceId;
    const requests = 1;
    const first = await this.batchGet([policyPk, modelPk]);
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
    const model: WorkspaceModel = { version: Number(meta.version ?? 0), labels: [] };
    const labels = [...((meta.labels as Set<string> | undefined) ?? [])].sort();
    const read = await this.readLabels(workspaceId, Number(meta.generation ?? 0), labels);
    model.labels = read.labels;
    return {
      policy,
      model,
      sketchKey: String(meta.sketch_key),
      generation: Number(meta.generation ?? 0),
      labelVersions: labelVersionsOf(meta),
      loadCost: { requests: requests + read.requests, bytes: approxBytes(meta) + read.bytes },
    };
  }

  /**
   * What changed since `cached` was loaded, from one eventually consistent read of the policy and model items (small:
   * a read unit for both when nothing changed): undefined when nothing did; else the state with only the label items
   * whose version moved read again (all of them after a reset).
   */
  async refreshState(workspaceId: string, cached: WorkspaceState): Promise<WorkspaceState | undefined> {
    const policyPk = WORKSPACE_PREFIX.policy + workspaceId;
    const modelPk = WORKSPACE_PREFIX.model + workspaceId;
    const first = await this.batchGet([policyPk, modelPk], false);
    const meta = first.get(modelPk);
    const generation = Number(meta?.generation ?? 0);
    if (!meta?.sketch_key || generation !== (cached.generation ?? 0)) return this.loadState(workspaceId);
    const policy = policyFrom(first.get(policyPk));
    const versions = labelVersionsOf(meta);
    const before = cached.labelVersions ?? new Map<string, number>();
    const changed = [...versions.keys()].sort().filter((l) => versions.get(l) !== before.get(l));
    if (
      changed.length === 0 &&
      policy.version === cached.policy.version &&
      policy.updated_at === cached.policy.updated_at
    )
      return undefined;
    const read = await this.readLabels(workspaceId, generation, changed);
    const again = new Set(changed);
    const model: WorkspaceModel = {
      version: Number(meta.version ?? 0),
      labels: [...cached.model.labels.filter((l) => !again.has(`${l.field}:${l.label}`)), ...read.labels],
    };
    return {
      policy,
      model,
      sketchKey: cached.sketchKey,
      generation,
      labelVersions: versions,
      loadCost: { requests: 1 + read.requests, bytes: approxBytes(meta) + read.bytes },
    };
  }

  /** Label items by `<field>:<label>`, in BatchGets of 100 (labels never taught or emptied are skipped). */
  private async readLabels(workspaceId: string, generation: number, labels: string[]) {
    const out: LabelCounts[] = [];
    let bytes = 0;
    let requests = 0;
    for (let i = 0; i < labels.length; i += 100) {
      const slice = labels.slice(i, i + 100);
      const pks = slice.map((l) => {
        const colon = l.indexOf(':');
        return labelPk(workspaceId, l.slice(0, colon) as LearnedField, l.slice(colon + 1), generation);
      });
      const items = await this.batchGet(pks);
      requests += 1;
      slice.forEach((l, j) => {
        const item = items.get(pks[j]);
        if (!item) return;
        bytes += approxBytes(item);
        const colon = l.indexOf(':');
        const counts = countsFrom(l.slice(0, colon) as LearnedField, l.slice(colon + 1), item);
        if (counts.docs > 0) out.push(counts);
      });
    }
    return { labels: out, bytes, requests };
  }

  /** BatchGetItem with its unprocessed keys retried (they come back under throttling). */
  private async batchGet(pks: string[], consistent = true): Promise<Map<string, Record<string, unknown>>> {
    const found = new Map<string, Record<string, unknown>>();
    let keys: Record<string, unknown>[] = pks.map((pk) => ({ pk }));
    for (let attempt = 0; keys.length > 0 && attempt < 5; attempt++) {
      const out = await this.client.send(
        new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys: keys, ConsistentRead: consistent } } }),
      );
      for (const item of out.Responses?.[this.tableName] ?? []) found.set(String(item.pk), item);
      keys = (out.UnprocessedKeys?.[this.tableName]?.Keys as Record<string, unknown>[] | undefined) ?? [];
      if (keys.length) await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
    }
    if (keys.length)
      throw Object.assign(new Error('BatchGetItem left keys unprocessed'), {
        name: 'ProvisionedThroughputExceededException',
      });
    return found;
  }
}
