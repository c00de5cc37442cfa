// The one set of DynamoDB table definitions. The CDK stack and local mode (and the tests) both build their tables
// from these, so the deployed and local schemas cannot drift. Pure data: no AWS SDK or CDK imports here, because
// the Lambda bundles import the attribute and index names too.

export interface IndexDefinition {
  indexName: string;
  partitionKey: string;
  sortKey?: string;
}

export interface TableDefinition {
  /** Logical id in the stack and suffix of the local table name. */
  id: string;
  partitionKey: string;
  /** Attribute holding an epoch-seconds expiry that DynamoDB TTL deletes after. */
  ttlAttribute?: string;
  indexes: IndexDefinition[];
}

/** API keys (by SHA-256 hash) and partner accounts, in one table keyed by `pk`. */
export const ACCESS_TABLE: TableDefinition = {
  id: 'Access',
  partitionKey: 'pk',
  indexes: [
    // Admin look-ups only; the authorizer reads keys by hash through the table itself.
    { indexName: 'by_key_id', partitionKey: 'key_id' },
    { indexName: 'keys_by_partner', partitionKey: 'partner_id', sortKey: 'created_at' },
  ],
};

export const DECISIONS_BY_WORKSPACE_INDEX = 'decisions_by_workspace';

/** Decisions and idempotency records, keyed by `pk`; both expire through TTL. */
export const DECISIONS_TABLE: TableDefinition = {
  id: 'Decisions',
  partitionKey: 'pk',
  ttlAttribute: 'expires_at',
  indexes: [
    // A workspace's decisions by time, for `feedback report` (a Query, never a Scan). Sparse: only decision items
    // carry `workspace_id` and `created_at` at the top level.
    { indexName: DECISIONS_BY_WORKSPACE_INDEX, partitionKey: 'workspace_id', sortKey: 'created_at' },
  ],
};

export const TABLES = [ACCESS_TABLE, DECISIONS_TABLE] as const;

/** Key prefixes inside the tables. */
export const ITEM_PREFIX = {
  key: 'key#',
  partner: 'partner#',
  decision: 'decision#',
  idempotency: 'idem#',
} as const;

/** CreateTable input for a definition (local mode and tests); the stack builds the same shape with CDK. */
export function createTableInput(def: TableDefinition, tableName: string) {
  const attributes = new Set<string>([def.partitionKey]);
  for (const index of def.indexes) {
    attributes.add(index.partitionKey);
    if (index.sortKey) attributes.add(index.sortKey);
  }
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: [...attributes].map((name) => ({ AttributeName: name, AttributeType: 'S' as const })),
    KeySchema: [{ AttributeName: def.partitionKey, KeyType: 'HASH' as const }],
    GlobalSecondaryIndexes: def.indexes.length
      ? def.indexes.map((index) => ({
          IndexName: index.indexName,
          KeySchema: [
            { AttributeName: index.partitionKey, KeyType: 'HASH' as const },
            ...(index.sortKey ? [{ AttributeName: index.sortKey, KeyType: 'RANGE' as const }] : []),
          ],
          Projection: { ProjectionType: 'ALL' as const },
        }))
      : undefined,
  };
}
