// Grants as items in the access table (docs/operations.md, "Grants"). Per grant: `grant#<key_id>#<grant>` (read by the
// request path with a consistent GetItem; indexed under `k#<key_id>` to list a key's grants) and
// `holder#<grant>#<key_id>` (indexed under `w#<head>` or `p#<head>` for the cross-partner check), written together in
// one transaction. A key's prefix grants are also kept as one set, `prefixes#<key_id>`, so the request path reads them
// in one consistent read.
import { type DynamoDBDocumentClient, GetCommand, paginateQuery, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ITEM_PREFIX } from '../contract/tables';
import { MAX_PREFIX_GRANTS, grantHead, grantsOverlap, isPrefixGrant, prefixOf } from '../domain/grants';
import {
  type AuditActor,
  type GrantHolder,
  type GrantOwner,
  type GrantStore,
  TooManyPrefixGrantsError,
} from '../domain/ports';
import { auditEventPut, auditTableFor } from './audit-log';
import { batchGet } from './batch-writes';
import { chunks, inParallel } from '../domain/in-parallel';
import { cancellationReasons, transactionConflict } from './database-faults';
import { getItem } from './dynamodb-client';
import { ADMIN_CONTENTION_RETRY, AGAIN, retrying } from '../domain/retry';

const INDEX = 'grants_by_head';
/**
 * Exact grants per transaction (two items each; DynamoDB allows 100 items): small enough that one call stays short on a
 * busy DynamoDB Local.
 */
const GRANTS_PER_TRANSACTION = 25;
/**
 * Calls in flight at once when granting or ungranting thousands: the transactions, and before them the BatchGetItem
 * reads of what the key holds (all 200 reads of a 20,000-line file at once outran the SDK's connection timeout).
 */
const PARALLEL_TRANSACTIONS = 4;
/** From this many exact grants under one head, read the head's holders once instead of one query per grant. */
const WHOLE_HEAD_THRESHOLD = 200;
const PARALLEL_QUERIES = 16;

type Item = Record<string, unknown>;

const grantPk = (keyId: string, grant: string) => `${ITEM_PREFIX.grant}${keyId}#${grant}`;
const holderPk = (keyId: string, grant: string) => `${ITEM_PREFIX.grantHolder}${grant}#${keyId}`;
const prefixesPk = (keyId: string) => ITEM_PREFIX.prefixGrants + keyId;
const keyHead = (keyId: string) => `k#${keyId}`;
const holderHead = (grant: string) => `${isPrefixGrant(grant) ? 'p' : 'w'}#${grantHead(grant)}`;

const prefixLimitHit = (err: unknown) => cancellationReasons(err).includes('ConditionalCheckFailed');

const toHolder = (item: Item): GrantHolder => ({
  grant: item.grant_value as string,
  key_id: item.grant_key as string,
  partner_id: item.grant_partner as string,
});

export class DynamoGrantStore implements GrantStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    /** Where audit events go (the decisions table); without it the store only reads. */
    private readonly auditTableName?: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async checkGrant(keyId: string, workspaceId: string, knownPrefixes?: string[]) {
    if (knownPrefixes) {
      const out = await this.client.send(
        new GetCommand({
          TableName: this.tableName,
          Key: { pk: grantPk(keyId, workspaceId) },
          ConsistentRead: true,
          ProjectionExpression: 'pk',
        }),
      );
      return { exact: out.Item !== undefined };
    }
    // Both items in one round trip: the exact grant and the key's prefix set.
    const { items } = await batchGet(this.client, this.tableName, [grantPk(keyId, workspaceId), prefixesPk(keyId)]);
    const prefixItem = items.get(prefixesPk(keyId));
    return {
      exact: items.has(grantPk(keyId, workspaceId)),
      prefixes: prefixItem ? [...((prefixItem.prefixes as Set<string> | undefined) ?? [])] : [],
    };
  }

  async prefixGrants(keyId: string): Promise<string[]> {
    const item = await getItem(this.client, this.tableName, prefixesPk(keyId));
    return [...((item?.prefixes as Set<string> | undefined) ?? [])].sort();
  }

  async listGrants(keyId: string): Promise<string[]> {
    return (await this.queryHead(keyHead(keyId))).map((i) => i.grant_value as string);
  }

  async ownerOf(keyId: string): Promise<GrantOwner | undefined> {
    const [item] = await this.queryHead(keyHead(keyId), undefined, undefined, () => Promise.resolve(true));
    return item ? { key_id: keyId, partner_id: item.grant_partner as string } : undefined;
  }

  /**
   * `key rotate` copies these. listGrants reads the grants_by_head index, which on AWS is eventually consistent: an
   * ungrant made a second before could still be listed, and copied to the new key. A key's grants cannot be read from
   * the table itself with one consistent Query (each grant is its own partition, `grant#<key_id>#<grant>`, in a table
   * without a sort key; a consistent Scan would read the whole table), so the index only proposes: each exact grant
   * it lists is confirmed by a consistent BatchGetItem of its item, and the prefix grants come from the key's prefix
   * set, one consistent GetItem that the same transactions as the grant items change. What stays: an exact grant made
   * a second before may be missing (the new key then holds less, never more); docs/operations.md, "Grants".
   */
  async currentGrants(keyId: string): Promise<string[]> {
    const [listed, prefixes] = await Promise.all([this.listGrants(keyId), this.prefixGrants(keyId)]);
    const exact = await this.held(
      keyId,
      listed.filter((g) => !isPrefixGrant(g)),
    );
    return [...exact, ...prefixes].sort();
  }

  private async queryHead(
    head: string,
    condition?: { beginsWith?: string; equals?: string },
    excludePartner?: string,
    /** Read on only until an item for which this holds, and answer that one. */
    firstWhere?: (item: Item) => Promise<boolean>,
  ): Promise<Item[]> {
    const items: Item[] = [];
    const values: Item = { ':h': head };
    let keyCondition = 'grant_head = :h';
    if (condition?.equals !== undefined) {
      keyCondition += ' AND grant_value = :v';
      values[':v'] = condition.equals;
    } else if (condition?.beginsWith !== undefined) {
      keyCondition += ' AND begins_with(grant_value, :v)';
      values[':v'] = condition.beginsWith;
    }
    if (excludePartner !== undefined) values[':p'] = excludePartner;
    const pages = paginateQuery(
      { client: this.client },
      {
        TableName: this.tableName,
        IndexName: INDEX,
        KeyConditionExpression: keyCondition,
        FilterExpression: excludePartner !== undefined ? 'grant_partner <> :p' : undefined,
        ExpressionAttributeValues: values,
        ProjectionExpression: 'grant_value, grant_key, grant_partner',
      },
    );
    for await (const page of pages) {
      if (!firstWhere) {
        items.push(...(page.Items ?? []));
        continue;
      }
      for (const item of page.Items ?? []) if (await firstWhere(item)) return [item];
    }
    return items;
  }

  async foreignHolders(
    partnerId: string,
    grants: string[],
    counts: (keyId: string) => Promise<boolean>,
  ): Promise<{ grant: string; held: GrantHolder }[]> {
    const conflicts: { grant: string; held: GrantHolder }[] = [];
    const prefixHolders = new Map<string, GrantHolder[]>();
    const heads = [...new Set(grants.map(grantHead))];
    // Prefix grants of other partners, per head (few: a key holds at most 100 prefix grants).
    await inParallel(heads, PARALLEL_QUERIES, async (head) => {
      prefixHolders.set(head, (await this.queryHead(`p#${head}`, undefined, partnerId)).map(toHolder));
    });
    for (const grant of grants) {
      for (const held of prefixHolders.get(grantHead(grant)) ?? [])
        if (grantsOverlap(grant, held.grant)) conflicts.push({ grant, held });
    }

    const exact = grants.filter((g) => !isPrefixGrant(g));
    const byHead = new Map<string, string[]>();
    for (const g of exact) byHead.set(grantHead(g), [...(byHead.get(grantHead(g)) ?? []), g]);
    const perGrant: string[] = [];
    await inParallel([...byHead], PARALLEL_QUERIES, async ([head, inHead]) => {
      if (inHead.length < WHOLE_HEAD_THRESHOLD) {
        perGrant.push(...inHead);
        return;
      }
      // Granting in bulk: one paged read of the head's holders beats thousands of queries.
      const wanted = new Set(inHead);
      for (const item of await this.queryHead(`w#${head}`, undefined, partnerId)) {
        if (wanted.has(item.grant_value as string))
          conflicts.push({ grant: item.grant_value as string, held: toHolder(item) });
      }
    });
    await inParallel(perGrant, PARALLEL_QUERIES, async (grant) => {
      for (const item of await this.queryHead(holderHead(grant), { equals: grant }, partnerId))
        conflicts.push({ grant, held: toHolder(item) });
    });
    // A prefix grant collides with any other partner's workspace it would cover, held by a key that counts: holders
    // of keys that do not are read past, or one of them first would hide a live holder after it.
    const countsItem = (item: Item) => counts(item.grant_key as string);
    await inParallel(grants.filter(isPrefixGrant), PARALLEL_QUERIES, async (grant) => {
      const head = `w#${grantHead(grant)}`;
      const [item] = await this.queryHead(head, { beginsWith: prefixOf(grant) }, partnerId, countsItem);
      if (item) conflicts.push({ grant, held: toHolder(item) });
    });
    const live = await Promise.all(conflicts.map(({ held }) => counts(held.key_id)));
    return conflicts.filter((_, i) => live[i]);
  }

  async addGrants(owner: GrantOwner, grants: string[], by: AuditActor): Promise<void> {
    // Only what the key does not hold yet: granting a held workspace again is no change, and leaves no event.
    const held = new Set(await this.held(owner.key_id, grants));
    const added = grants.filter((g) => !held.has(g));
    if (added.length) await this.write(owner, added, 'add', by);
  }

  async removeGrants(owner: GrantOwner, grants: string[], by: AuditActor): Promise<string[]> {
    // Only what the key holds, read consistently: a grant it never held is no change, and leaves no event.
    const held = await this.held(owner.key_id, grants);
    if (held.length) await this.write(owner, held, 'remove', by);
    return held;
  }

  /** Which of `grants` the key holds now: its exact grants' items and its prefix set, read consistently. */
  private async held(keyId: string, grants: string[]): Promise<string[]> {
    const unique = [...new Set(grants)];
    const exact = unique.filter((g) => !isPrefixGrant(g));
    const [{ items }, prefixes] = await Promise.all([
      batchGet(
        this.client,
        this.tableName,
        exact.map((g) => grantPk(keyId, g)),
        true,
        PARALLEL_TRANSACTIONS,
      ),
      unique.some(isPrefixGrant) ? this.prefixGrants(keyId) : Promise.resolve([]),
    ]);
    return unique.filter((g) => (isPrefixGrant(g) ? prefixes.includes(g) : items.has(grantPk(keyId, g))));
  }

  /**
   * Each transaction carries the event of its own grants: a command of thousands of grants leaves one event per
   * transaction.
   */
  private async write(owner: GrantOwner, grants: string[], change: 'add' | 'remove', by: AuditActor): Promise<void> {
    const auditTable = auditTableFor(this.auditTableName);
    const unique = [...new Set(grants)];
    const batches = [
      ...chunks(
        unique.filter((g) => !isPrefixGrant(g)),
        GRANTS_PER_TRANSACTION,
      ),
      // One prefix per transaction: each also changes the key's prefix set, under its size condition.
      ...unique.filter(isPrefixGrant).map((g) => [g]),
    ];
    await inParallel(batches, PARALLEL_TRANSACTIONS, async (batch) => {
      const items = batch.flatMap((grant) => (change === 'add' ? this.puts(owner, grant) : this.deletes(owner, grant)));
      items.push(
        auditEventPut(
          auditTable,
          {
            actor: by.actor,
            action: change === 'add' ? 'key.grant' : 'key.ungrant',
            target: { partner_id: owner.partner_id, key_id: owner.key_id },
            before: change === 'add' ? null : { grants: batch },
            after: change === 'add' ? { grants: batch } : null,
          },
          this.now(),
        ),
      );
      // Another change to the same key's prefix set or the same grant: back off with jitter, apply ours again.
      await retrying(
        'grant change',
        async () => {
          try {
            await this.client.send(new TransactWriteCommand({ TransactItems: items }));
            return undefined;
          } catch (err) {
            if (change === 'add' && prefixLimitHit(err) && !transactionConflict(err))
              throw new TooManyPrefixGrantsError(MAX_PREFIX_GRANTS);
            if (!transactionConflict(err)) throw err;
            return AGAIN;
          }
        },
        ADMIN_CONTENTION_RETRY,
      );
    });
  }

  private puts(owner: GrantOwner, grant: string) {
    const common = { kind: 'grant', grant_value: grant, grant_key: owner.key_id, grant_partner: owner.partner_id };
    const items: object[] = [
      {
        Put: {
          TableName: this.tableName,
          Item: { pk: grantPk(owner.key_id, grant), grant_head: keyHead(owner.key_id), ...common },
        },
      },
      {
        Put: {
          TableName: this.tableName,
          Item: { pk: holderPk(owner.key_id, grant), grant_head: holderHead(grant), ...common, kind: 'grant_holder' },
        },
      },
    ];
    if (isPrefixGrant(grant)) {
      items.push(
        this.prefixSetUpdate(owner, grant, 'ADD prefixes :p SET kind = :kind', {
          // At most 100 prefix grants, counted atomically with the add (a grant already held always fits).
          ConditionExpression: 'attribute_not_exists(prefixes) OR size(prefixes) < :max OR contains(prefixes, :one)',
          ExpressionAttributeValues: { ':one': grant, ':max': MAX_PREFIX_GRANTS, ':kind': 'prefix_grants' },
        }),
      );
    }
    return items;
  }

  private deletes(owner: GrantOwner, grant: string) {
    const items: object[] = [
      { Delete: { TableName: this.tableName, Key: { pk: grantPk(owner.key_id, grant) } } },
      { Delete: { TableName: this.tableName, Key: { pk: holderPk(owner.key_id, grant) } } },
    ];
    if (isPrefixGrant(grant)) items.push(this.prefixSetUpdate(owner, grant, 'DELETE prefixes :p'));
    return items;
  }

  /** The change of the key's prefix set (`:p`, the grant) that goes with a prefix grant's items. */
  private prefixSetUpdate(
    owner: GrantOwner,
    grant: string,
    UpdateExpression: string,
    more: { ConditionExpression?: string; ExpressionAttributeValues?: Record<string, unknown> } = {},
  ) {
    return {
      Update: {
        TableName: this.tableName,
        Key: { pk: prefixesPk(owner.key_id) },
        UpdateExpression,
        ConditionExpression: more.ConditionExpression,
        ExpressionAttributeValues: { ':p': new Set([grant]), ...more.ExpressionAttributeValues },
      },
    };
  }
}
