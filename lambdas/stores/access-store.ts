// Partners and API keys in DynamoDB. The authorizer only reads (getKeyByHash, getPartner); the admin CLI writes.
// A key item stays small: its grants are items of their own (grant-store.ts).
import {
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { SCOPES, type Scope } from '../contract/routes';
import { ITEM_PREFIX } from '../contract/tables';
import type { RateLimit } from '../domain/rate-limit';
import {
  type AccessStore,
  AlreadyExistsError,
  type KeyRecord,
  type KeyStatus,
  NotFoundError,
  type PartnerRecord,
  type PartnerStatus,
} from '../domain/ports';
import { DynamoGrantStore } from './grant-store';

const isConditionFailure = (err: unknown) => (err as { name?: string })?.name === 'ConditionalCheckFailedException';

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
  };
}

function toPartner(item: Item): PartnerRecord {
  return {
    partner_id: String(item.pk).slice(ITEM_PREFIX.partner.length),
    name: item.name as string,
    status: item.status as PartnerStatus,
    created_at: item.created_at as string,
    updated_at: item.updated_at as string,
  };
}

export class DynamoAccessStore implements AccessStore {
  readonly grants: DynamoGrantStore;

  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    this.grants = new DynamoGrantStore(client, tableName);
  }

  async getKeyByHash(keyHash: string): Promise<KeyRecord | undefined> {
    const out = await this.client.send(
      // Consistent: a key used a moment after `key create` must not read as unknown (and be cached as such).
      new GetCommand({ TableName: this.tableName, Key: { pk: ITEM_PREFIX.key + keyHash }, ConsistentRead: true }),
    );
    return out.Item ? toKey(out.Item) : undefined;
  }

  async getPartner(partnerId: string): Promise<PartnerRecord | undefined> {
    const out = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: { pk: ITEM_PREFIX.partner + partnerId }, ConsistentRead: true }),
    );
    return out.Item ? toPartner(out.Item) : undefined;
  }

  async createPartner(partner: PartnerRecord): Promise<void> {
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.tableName,
          // Partner items carry no `partner_id` attribute, so they stay out of the keys_by_partner index.
          Item: {
            pk: ITEM_PREFIX.partner + partner.partner_id,
            kind: 'partner',
            name: partner.name,
            status: partner.status,
            created_at: partner.created_at,
            updated_at: partner.updated_at,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    } catch (err) {
      if (isConditionFailure(err)) throw new AlreadyExistsError(`partner ${partner.partner_id}`);
      throw err;
    }
  }

  async setPartnerStatus(partnerId: string, status: PartnerStatus, now: string): Promise<PartnerRecord> {
    try {
      const out = await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: ITEM_PREFIX.partner + partnerId },
          UpdateExpression: 'SET #status = :status, updated_at = :now',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':status': status, ':now': now },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return toPartner(out.Attributes as Item);
    } catch (err) {
      if (isConditionFailure(err)) throw new NotFoundError(`partner ${partnerId}`);
      throw err;
    }
  }

  async putKey(key: KeyRecord): Promise<void> {
    await this.client.send(
      new PutCommand({
        TableName: this.tableName,
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
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
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

  async updateKey(keyId: string, change: { status?: KeyStatus; expires_at?: string; rate_limit?: RateLimit | null }): Promise<KeyRecord> {
    const key = await this.findKeyById(keyId);
    if (!key) throw new NotFoundError(`key ${keyId}`);
    const sets: string[] = [];
    const removes: string[] = [];
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(change)) {
      if (value === undefined) continue;
      names[`#${field}`] = field;
      if (value === null) {
        removes.push(`#${field}`);
        continue;
      }
      sets.push(`#${field} = :${field}`);
      values[`:${field}`] = value;
    }
    if (sets.length === 0 && removes.length === 0) return key;
    try {
      const out = await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: ITEM_PREFIX.key + key.key_hash },
          UpdateExpression: [sets.length ? `SET ${sets.join(', ')}` : '', removes.length ? `REMOVE ${removes.join(', ')}` : ''].join(' ').trim(),
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: Object.keys(values).length ? values : undefined,
          ReturnValues: 'ALL_NEW',
        }),
      );
      return toKey(out.Attributes as Item);
    } catch (err) {
      if (isConditionFailure(err)) throw new NotFoundError(`key ${keyId}`);
      throw err;
    }
  }

  /**
   * Version 1 kept a key's workspaces as a list on the key item. Moves every such list into grant items (as they
   * were: no cross-partner check), then removes the list. Safe to run again; answers what it moved.
   */
  async migrateLegacyGrants(): Promise<{ keys: number; grants: number }> {
    let keys = 0;
    let grants = 0;
    let start: Record<string, unknown> | undefined;
    do {
      const out = await this.client.send(
        new ScanCommand({
          TableName: this.tableName,
          FilterExpression: 'kind = :key AND attribute_exists(workspaces)',
          ExpressionAttributeValues: { ':key': 'key' },
          ExclusiveStartKey: start,
        }),
      );
      for (const item of out.Items ?? []) {
        const list = (item.workspaces as string[] | undefined) ?? [];
        await this.grants.addGrants({ key_id: item.key_id as string, partner_id: item.partner_id as string }, list);
        await this.client.send(
          new UpdateCommand({ TableName: this.tableName, Key: { pk: item.pk as string }, UpdateExpression: 'REMOVE workspaces' }),
        );
        keys++;
        grants += list.length;
      }
      start = out.LastEvaluatedKey;
    } while (start);
    return { keys, grants };
  }

  async listKeys(partnerId: string): Promise<KeyRecord[]> {
    const keys: KeyRecord[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const out = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: 'keys_by_partner',
          KeyConditionExpression: 'partner_id = :p',
          ExpressionAttributeValues: { ':p': partnerId },
          ExclusiveStartKey: start,
        }),
      );
      keys.push(...(out.Items ?? []).map(toKey));
      start = out.LastEvaluatedKey;
    } while (start);
    return keys;
  }
}
