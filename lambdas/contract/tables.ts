// The one set of DynamoDB table definitions. The CDK stack and local mode (and the tests) both build their tables
// from these, so the deployed and local schemas cannot drift. Pure data: no AWS SDK or CDK imports here, because
// the Lambda bundles import the attribute and index names too.

export interface IndexDefinition {
  indexName: string;
  partitionKey: string;
  sortKey?: string;
  /**
   * The non-key attributes the index copies (INCLUDE); every attribute (ALL) when absent. An update that changes no
   * key or projected attribute of an item writes nothing to the index, so an index that copies only what its readers
   * need is not billed for the item's other updates.
   */
  projected?: readonly string[];
}

export interface TableDefinition {
  /** Logical id in the stack and suffix of the local table name. */
  id: string;
  partitionKey: string;
  /** The sort key, when the table keeps item collections (the learning table). */
  sortKey?: string;
  /** Attribute holding an epoch-seconds expiry that DynamoDB TTL deletes after. */
  ttlAttribute?: string;
  indexes: IndexDefinition[];
  /**
   * Indexes an earlier version created, kept on a deployed table only for the first step of its upgrade (`cdk deploy
   * -c keepRetiredIndexes=true`, docs/deploy.md): CloudFormation creates or deletes one index per update, and an
   * index's projection cannot change in place.
   */
  retiredIndexes?: IndexDefinition[];
}

/** API keys (by SHA-256 hash) and partner accounts, in one table keyed by `pk`. */
export const ACCESS_TABLE: TableDefinition = {
  id: 'Access',
  partitionKey: 'pk',
  indexes: [
    // Admin look-ups only; the authorizer reads keys by hash through the table itself.
    { indexName: 'by_key_id', partitionKey: 'key_id' },
    { indexName: 'keys_by_partner', partitionKey: 'partner_id', sortKey: 'created_at' },
    // Grants (one item per key and grant, plus a holder item per grant): `k#<key_id>` lists a key's grants,
    // `w#<head>` / `p#<head>` find who holds a workspace or a prefix (the cross-partner check). One index for both,
    // because CloudFormation adds only one index to an existing table per update.
    { indexName: 'grants_by_head', partitionKey: 'grant_head', sortKey: 'grant_value' },
  ],
};

/**
 * The index the list route queries (with the one it replaced, the only things its Lambda may query); `feedback report`
 * reads it too. Partition `workspace_priority` (`<workspace_id>#<priority>`, written on every decision), sort key the
 * decision id: a page filtered by priority reads about `limit` items of those partitions, and an unfiltered page
 * merges the four (docs/deploy.md, "Upgrading a deployed stack: the listing index").
 */
export const DECISION_LIST_INDEX = 'decisions_by_priority';
/** The listing index's partition attribute on a decision item. */
export const DECISION_LIST_PARTITION = 'workspace_priority';
/**
 * The listing index of the versions before it (partition `workspace_id`): kept on a table upgraded in place until its
 * decisions carry `workspace_priority`; while it exists the list reads it (docs/deploy.md).
 */
export const RETIRED_DECISION_LIST_INDEX = 'decision_list';
/** What a listed decision needs from its item: the decision as answered, and its expiry (the page's filter). */
const DECISION_LIST_PROJECTION = ['decision', 'expires_at'] as const;

/** The index `admin audit list` queries (audit events, newest first). */
export const AUDIT_BY_TIME_INDEX = 'audit_by_time';

/** Decisions, idempotency records, rate limit counters, workspace items and audit events, keyed by `pk`. */
export const DECISIONS_TABLE: TableDefinition = {
  id: 'Decisions',
  partitionKey: 'pk',
  ttlAttribute: 'expires_at',
  indexes: [
    // Listing (GET /decisions?workspace_id=) and `feedback report`: Queries on a workspace's partition per priority,
    // newest first (an unfiltered page merges the four). The sort key is the decision id, a ULID whose time is
    // `created_at`, so id order is time order and a cursor is an id. Only decision items carry these top-level
    // attributes, so other items stay out of the index. One index for filtered and unfiltered pages alike: each
    // decision pays one index write, as before.
    // It copies only the decision and its expiry: feedback (`feedback`, `learned`, ...) and the sketch stay in the
    // table, so a feedback's update of its decision writes nothing here, and an index entry is about 200 bytes smaller.
    {
      indexName: DECISION_LIST_INDEX,
      partitionKey: DECISION_LIST_PARTITION,
      sortKey: 'decision_id',
      projected: DECISION_LIST_PROJECTION,
    },
    // `admin audit list`: newest first, over the audit events' own partitions (`audit_log` = "<month>#<shard>", eight
    // a month, and "audit" on events written before version 4; set only on audit items, so nothing else is in the
    // index), merged by lambdas/stores/audit-store.ts. The sort key is the event id, a ULID whose time is `at`, so
    // `--since` is a key condition; the other filters are a FilterExpression over those partitions.
    { indexName: AUDIT_BY_TIME_INDEX, partitionKey: 'audit_log', sortKey: 'event_id' },
  ],
  retiredIndexes: [
    {
      indexName: RETIRED_DECISION_LIST_INDEX,
      partitionKey: 'workspace_id',
      sortKey: 'decision_id',
      projected: DECISION_LIST_PROJECTION,
    },
  ],
};

/** The projection of an index, as CreateTable and CloudFormation write it. */
function projectionOf(index: IndexDefinition) {
  return index.projected
    ? { ProjectionType: 'INCLUDE' as const, NonKeyAttributes: [...index.projected] }
    : { ProjectionType: 'ALL' as const };
}

/**
 * What workspaces learn: one item collection per workspace (`ws`), sorted by `sk` (docs/learning.md, "Storage
 * layout"): `m` the model item, `c#<generation>#<field>:<label>` a label's folded counts, `e#<time>#<id>` an entry.
 */
export const LEARNING_TABLE: TableDefinition = {
  id: 'Learning',
  partitionKey: 'ws',
  sortKey: 'sk',
  ttlAttribute: 'expires_at',
  indexes: [],
};

export const TABLES = [ACCESS_TABLE, DECISIONS_TABLE, LEARNING_TABLE] as const;

/** Key prefixes inside the tables. */
export const ITEM_PREFIX = {
  key: 'key#',
  partner: 'partner#',
  decision: 'decision#',
  idempotency: 'idem#',
  /** Access table: `grant#<key_id>#<grant>` (what the request path reads), `holder#<grant>#<key_id>` (index only). */
  grant: 'grant#',
  grantHolder: 'holder#',
  /** Access table: `prefixes#<key_id>`, the key's prefix grants as one set (at most 100). */
  prefixGrants: 'prefixes#',
  /**
   * Decisions table: `rate#<key_id>#<window seconds>#<window index>`, a rate limit counter (of the key's
   * `rate_counter`, the old key's id, for a rotated key).
   */
  rateWindow: 'rate#',
  /** Decisions table: `policy#<workspace>`, a workspace's policy. */
  policy: 'policy#',
  /**
   * Decisions table, before version 4 (read only by `admin workspace migrate-learning`): `wsmodel#<workspace>` the
   * model item, `wslabel#<workspace>#[g<n>#]<field>:<label>` a label's counts, `wshead#` and `wsjournal#` the journal.
   */
  workspaceModel: 'wsmodel#',
  workspaceLabel: 'wslabel#',
  workspaceHead: 'wshead#',
  workspaceJournal: 'wsjournal#',
  /** Decisions table: `audit#<event_id>`, an audit event (lambdas/stores/audit-log.ts), kept 400 days. */
  audit: 'audit#',
} as const;

/** CreateTable input for a definition (local mode and tests); the stack builds the same shape with CDK. */
export function createTableInput(def: TableDefinition, tableName: string) {
  const attributes = new Set<string>([def.partitionKey, ...(def.sortKey ? [def.sortKey] : [])]);
  for (const index of def.indexes) {
    attributes.add(index.partitionKey);
    if (index.sortKey) attributes.add(index.sortKey);
  }
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: [...attributes].map((name) => ({ AttributeName: name, AttributeType: 'S' as const })),
    KeySchema: [
      { AttributeName: def.partitionKey, KeyType: 'HASH' as const },
      ...(def.sortKey ? [{ AttributeName: def.sortKey, KeyType: 'RANGE' as const }] : []),
    ],
    GlobalSecondaryIndexes: def.indexes.length
      ? def.indexes.map((index) => ({
          IndexName: index.indexName,
          KeySchema: [
            { AttributeName: index.partitionKey, KeyType: 'HASH' as const },
            ...(index.sortKey ? [{ AttributeName: index.sortKey, KeyType: 'RANGE' as const }] : []),
          ],
          Projection: projectionOf(index),
        }))
      : undefined,
  };
}
