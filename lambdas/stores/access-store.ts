// Partners and API keys in DynamoDB. The authorizer only reads (getKeyByHash, getPartner); the admin CLI writes.
// A key item stays small: its grants are items of their own (grant-store.ts).
import {
  type DynamoDBDocumentClient,
  paginateQuery,
  paginateScan,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { SCOPES, type Scope } from '../contract/routes';
import { ITEM_PREFIX } from '../contract/tables';
import type { RateLimit } from '../domain/rate-limit';
import { type AuditEventInput, changedFields } from '../domain/audit';
import {
  type AccessStore,
  type AuditActor,
  type KeyRetirement,
  AlreadyExistsError,
  type KeyRecord,
  type KeyStatus,
  KeyChangedError,
  NotFoundError,
  type PartnerRecord,
  type PartnerStatus,
} from '../domain/ports';
import { DynamoGrantStore } from './grant-store';
import { auditEventPut, auditTableFor } from './audit-log';
import { cancellationReasons, transactionConflict } from './database-faults';
import { getItem } from './dynamodb-client';
import { ADMIN_CONTENTION_RETRY, AGAIN, retrying } from '../domain/retry';

/** The first item of a transaction failed its condition (the change's own item; the event's never does). */
const firstConditionFailed = (err: unknown) => cancellationReasons(err)[0] === 'ConditionalCheckFailed';
/**
 * Runs `attempt` (a read, then a write conditional on what was read) again, after the retry policy's wait, while
 * another writer got there first: it changed the item between our read and our write (the condition fails), or its
 * transaction held the item while ours ran (DynamoDB cancels ours with TransactionConflict).
 */
function readModifyWrite<T>(attempt: () => Promise<T>): Promise<T> {
  return retrying<T>(
    'access change',
    async () => {
      try {
        return await attempt();
      } catch (err) {
        if (!firstConditionFailed(err) && !transactionConflict(err)) throw err;
        return AGAIN;
      }
    },
    // Only the admin CLI changes partners and keys: no request waits, and a loaded machine may take most of a
    // request's 2 s budget for one read and write.
    ADMIN_CONTENTION_RETRY,
  );
}

type Item = Record<string, unknown>;

function toKey(item: Item): KeyRecord {
  return {
    key_hash: String(item.pk).slice(ITEM_PREFIX.key.length),
    key_id: item.key_id as string,
    partner_id: item.partner_id as string,
    prefix: item.prefix as string,
    status: item.status as KeyStatus,
    expires_at: item.expires_at as string | undefined,
    created_at: item.created_at as string,
    description: item.description as string | undefined,
    // Keys issued before scopes existed could do everything; they keep that.
    scopes: Array.isArray(item.scopes) ? (item.scopes as Scope[]) : [...SCOPES],
    rate_limit: item.rate_limit ? (item.rate_limit as RateLimit) : undefined,
    rate_counter: typeof item.rate_counter === 'string' ? item.rate_counter : undefined,
    replaced_by: typeof item.replaced_by === 'string' ? item.replaced_by : undefined,
    ...(item.workspaces !== undefined ? { legacy_workspaces: true as const } : {}),
  };
}

function toPartner(item: Item): PartnerRecord {
  const { name, status, created_at, updated_at } = item as unknown as PartnerRecord;
  return { partner_id: String(item.pk).slice(ITEM_PREFIX.partner.length), name, status, created_at, updated_at };
}

export class DynamoAccessStore implements AccessStore {
  readonly grants: DynamoGrantStore;

  /** `auditTableName`: the decisions table, where every write records its audit event; without it the store only reads. */
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly auditTableName?: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.grants = new DynamoGrantStore(client, tableName, auditTableName, now);
  }

  /** The audit event's Put for a change made by `by`. */
  private audited(by: AuditActor, event: Omit<AuditEventInput, 'actor'>) {
    return auditEventPut(auditTableFor(this.auditTableName), { actor: by.actor, ...event }, this.now());
  }

  async getKeyByHash(keyHash: string): Promise<KeyRecord | undefined> {
    // Consistent: a key used a moment after `key create` must not read as unknown (and be cached as such).
    const item = await getItem(this.client, this.tableName, ITEM_PREFIX.key + keyHash);
    return item ? toKey(item) : undefined;
  }

  async getPartner(partnerId: string): Promise<PartnerRecord | undefined> {
    const item = await getItem(this.client, this.tableName, ITEM_PREFIX.partner + partnerId);
    return item ? toPartner(item) : undefined;
  }

  /** One transaction: the change to one item of ours, then the audit event that records it. */
  private async writeAudited(change: object, by: AuditActor, event: Omit<AuditEventInput, 'actor'>): Promise<void> {
    await this.client.send(new TransactWriteCommand({ TransactItems: [change, this.audited(by, event)] }));
  }

  async createPartner(partner: PartnerRecord, by: AuditActor): Promise<void> {
    const { partner_id: id, name, status, created_at, updated_at } = partner;
    const put = {
      Put: {
        TableName: this.tableName,
        // Partner items carry no `partner_id` attribute, so they stay out of the keys_by_partner index.
        Item: { pk: ITEM_PREFIX.partner + id, kind: 'partner', name, status, created_at, updated_at },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
    try {
      const target = { partner_id: id };
      await this.writeAudited(put, by, { action: 'partner.create', target, before: null, after: { name, status } });
    } catch (err) {
      if (firstConditionFailed(err)) throw new AlreadyExistsError(`partner ${id}`);
      throw err;
    }
  }

  async setPartnerStatus(
    partnerId: string,
    status: PartnerStatus,
    now: string,
    by: AuditActor,
  ): Promise<PartnerRecord> {
    return readModifyWrite(async () => {
      const partner = await this.getPartner(partnerId);
      if (!partner) throw new NotFoundError(`partner ${partnerId}`);
      if (partner.status === status) return partner;
      const update = {
        Update: {
          TableName: this.tableName,
          Key: { pk: ITEM_PREFIX.partner + partnerId },
          UpdateExpression: 'SET #status = :status, updated_at = :now',
          // The status we read is the event's `before`: a concurrent change makes us read again.
          ConditionExpression: '#status = :was',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':status': status, ':now': now, ':was': partner.status },
        },
      };
      const target = { partner_id: partnerId };
      const before = { status: partner.status };
      await this.writeAudited(update, by, { action: 'partner.set_status', target, before, after: { status } });
      return { ...partner, status, updated_at: now };
    });
  }

  async putKey(key: KeyRecord, by: AuditActor, retiring?: KeyRetirement): Promise<void> {
    const created = {
      status: key.status,
      scopes: key.scopes,
      rate_limit: key.rate_limit ?? null,
      expires_at: key.expires_at ?? null,
      ...(key.description ? { description: key.description } : {}),
      ...(key.rate_counter ? { rate_counter: key.rate_counter } : {}),
    };
    const items: object[] = [
      {
        Put: {
          TableName: this.tableName,
          // Named field by field: a wider object passed as the key must not write anything else into the item.
          Item: {
            pk: ITEM_PREFIX.key + key.key_hash,
            kind: 'key',
            key_id: key.key_id,
            partner_id: key.partner_id,
            prefix: key.prefix,
            status: key.status,
            expires_at: key.expires_at,
            created_at: key.created_at,
            description: key.description,
            scopes: key.scopes,
            rate_limit: key.rate_limit,
            rate_counter: key.rate_counter,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ];
    if (retiring) {
      const old = retiring.key;
      items.push({
        Update: {
          TableName: this.tableName,
          Key: { pk: ITEM_PREFIX.key + old.key_hash },
          UpdateExpression: 'SET expires_at = :exp, replaced_by = :new',
          // Still the key we read (active, same expiry, not rotated meanwhile): the event's `before` is then exact.
          ConditionExpression:
            (old.expires_at === undefined
              ? '#status = :active AND attribute_not_exists(expires_at)'
              : '#status = :active AND expires_at = :was') + ' AND attribute_not_exists(replaced_by)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':exp': retiring.expires_at,
            ':new': key.key_id,
            ':active': 'active',
            ...(old.expires_at === undefined ? {} : { ':was': old.expires_at }),
          },
        },
      });
      items.push(
        this.audited(by, {
          action: 'key.rotate',
          target: { partner_id: old.partner_id, key_id: old.key_id },
          before: { expires_at: old.expires_at ?? null },
          after: { expires_at: retiring.expires_at, new_key_id: key.key_id, new_key_settings: created },
        }),
      );
    } else {
      const target = { partner_id: key.partner_id, key_id: key.key_id };
      items.push(this.audited(by, { action: 'key.create', target, before: null, after: created }));
    }
    const write = async () => {
      try {
        await this.client.send(new TransactWriteCommand({ TransactItems: items }));
        return undefined;
      } catch (err) {
        if (retiring && cancellationReasons(err)[1] === 'ConditionalCheckFailed') {
          throw new KeyChangedError(
            `key ${retiring.key.key_id} changed during the rotation (revoked, rotated, or its expiry set); nothing was rotated`,
          );
        }
        // Cancelled whole while another transaction held one of its items (a change of the key being retired): the
        // same transaction is sent again, and its conditions judge what that change did.
        if (transactionConflict(err) && !cancellationReasons(err).includes('ConditionalCheckFailed')) return AGAIN;
        throw err;
      }
    };
    await retrying('key write', write, ADMIN_CONTENTION_RETRY);
  }

  async findKeyById(keyId: string): Promise<KeyRecord | undefined> {
    const out = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: 'by_key_id',
        KeyConditionExpression: 'key_id = :id',
        ExpressionAttributeValues: { ':id': keyId },
      }),
    );
    const item = out.Items?.[0];
    return item ? toKey(item) : undefined;
  }

  async updateKey(
    keyId: string,
    change: { status?: KeyStatus; expires_at?: string; rate_limit?: RateLimit | null },
    by: AuditActor & { action: 'key.revoke' | 'key.set_rate_limit' },
  ): Promise<KeyRecord> {
    return readModifyWrite(async () => {
      // The index finds the key; the item itself is read consistently, so a retry sees the change it lost to.
      const found = await this.findKeyById(keyId);
      const key = found && (await this.getKeyByHash(found.key_hash));
      if (!key) throw new NotFoundError(`key ${keyId}`);
      const was: Item = {};
      const is: Item = {};
      for (const [field, value] of Object.entries(change)) {
        if (value === undefined) continue;
        was[field] = (key as unknown as Item)[field] ?? null;
        is[field] = value;
      }
      const diff = changedFields(was, is);
      const fields = Object.keys(diff.after);
      // Nothing changes (revoking a revoked key, the same limit again): nothing written, no event.
      if (fields.length === 0) return key;
      const sets: string[] = [];
      const removes: string[] = [];
      const conditions: string[] = ['attribute_exists(pk)'];
      const names: Record<string, string> = {};
      const values: Record<string, unknown> = {};
      for (const field of fields) {
        names[`#${field}`] = field;
        if (diff.after[field] === null) removes.push(`#${field}`);
        else {
          sets.push(`#${field} = :${field}`);
          values[`:${field}`] = diff.after[field];
        }
        // The value we read is the event's `before`: a concurrent change makes us read again.
        if (diff.before[field] === null) conditions.push(`attribute_not_exists(#${field})`);
        else {
          conditions.push(`#${field} = :was_${field}`);
          values[`:was_${field}`] = diff.before[field];
        }
      }
      const update = {
        Update: {
          TableName: this.tableName,
          Key: { pk: ITEM_PREFIX.key + key.key_hash },
          UpdateExpression: [
            sets.length ? `SET ${sets.join(', ')}` : '',
            removes.length ? `REMOVE ${removes.join(', ')}` : '',
          ]
            .join(' ')
            .trim(),
          ConditionExpression: conditions.join(' AND '),
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: Object.keys(values).length ? values : undefined,
        },
      };
      const target = { partner_id: key.partner_id, key_id: key.key_id };
      await this.writeAudited(update, by, { action: by.action, target, ...diff });
      const updated: Item = { ...key };
      for (const field of fields) updated[field] = diff.after[field] ?? undefined;
      return updated as unknown as KeyRecord;
    });
  }

  /**
   * Version 1 kept a key's workspaces as a list on the key item. Moves every such list into grant items (as they
   * were: no cross-partner check), then removes the list. Safe to run again; answers what it moved.
   */
  async migrateLegacyGrants(by: AuditActor): Promise<{ keys: number; grants: number }> {
    let keys = 0;
    let grants = 0;
    const scan = {
      TableName: this.tableName,
      FilterExpression: 'kind = :key AND attribute_exists(workspaces)',
      ExpressionAttributeValues: { ':key': 'key' },
    };
    for await (const page of paginateScan({ client: this.client }, scan)) {
      for (const item of page.Items ?? []) {
        const list = (item.workspaces as string[] | undefined) ?? [];
        await this.grants.addGrants({ key_id: item.key_id as string, partner_id: item.partner_id as string }, list, by);
        // Moving the list is not a change of what the key may do: its grant events above are its record.
        await this.client.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: { pk: item.pk as string },
            UpdateExpression: 'REMOVE workspaces',
          }),
        );
        keys++;
        grants += new Set(list).size;
      }
    }
    return { keys, grants };
  }

  async listKeys(partnerId: string): Promise<KeyRecord[]> {
    const keys: KeyRecord[] = [];
    const query = {
      TableName: this.tableName,
      IndexName: 'keys_by_partner',
      KeyConditionExpression: 'partner_id = :p',
      ExpressionAttributeValues: { ':p': partnerId },
    };
    for await (const page of paginateQuery({ client: this.client }, query)) keys.push(...(page.Items ?? []).map(toKey));
    return keys;
  }
}
