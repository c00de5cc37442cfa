// Creates the tables local mode and the tests need, from the one set of definitions in lambdas/contract/tables.ts.
import {
  CreateTableCommand,
  DescribeTableCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  ACCESS_TABLE,
  DECISIONS_TABLE,
  DECISION_LIST_INDEX,
  LEARNING_TABLE,
  type TableDefinition,
  createTableInput,
} from '../../lambdas/contract/tables';
import { type Settings, learningTableOf } from '../../lambdas/contract/settings';
import { backfillDecisionListPartitions } from '../../lambdas/stores/decision-list-backfill';
import { AGAIN, retrying } from '../../lambdas/domain/retry';

export interface TableNames {
  access: string;
  decisions: string;
  learning: string;
}

/** The tables the service reads under these settings: what local mode and the admin CLI create. */
export const tableNamesOf = (
  settings: Pick<Settings, 'accessTableName' | 'decisionsTableName' | 'learningTableName'>,
): TableNames => ({
  access: settings.accessTableName,
  decisions: settings.decisionsTableName,
  learning: learningTableOf(settings),
});

export const tableNamesWithPrefix = (prefix: string): TableNames => ({
  access: `${prefix}access`,
  decisions: `${prefix}decisions`,
  learning: `${prefix}decisions-learning`,
});

/** The table's indexes and whether each is built (ACTIVE), or undefined when there is no such table. */
async function existingIndexes(
  client: DynamoDBDocumentClient,
  name: string,
): Promise<{ name: string; active: boolean }[] | undefined> {
  try {
    const out = await client.send(new DescribeTableCommand({ TableName: name }));
    return (out.Table?.GlobalSecondaryIndexes ?? []).map((index) => ({
      name: index.IndexName ?? '',
      active: index.IndexStatus === 'ACTIVE',
    }));
  } catch (err) {
    if ((err as { name?: string }).name === 'ResourceNotFoundException') return undefined;
    throw err;
  }
}

/**
 * Data kept from an older version: its table gets the indexes added since (e.g. decisions_by_priority), then loses the
 * ones retired (e.g. decision_list, partitioned by workspace alone). One index change per call, as DynamoDB asks.
 */
async function addMissingIndexes(
  client: DynamoDBDocumentClient,
  def: TableDefinition,
  name: string,
  indexes: { name: string; active: boolean }[],
) {
  const have = indexes.map((index) => index.name);
  // Decisions kept from before the decisions_by_priority index get its partition before the index it replaces goes
  // (docs/deploy.md, the step between the two deploys; here first, as DynamoDB Local fails writes while it builds one).
  // Any table without it: one of version 3 holds decision_list, one of 0.2.0 an index no later version knows.
  if (def === DECISIONS_TABLE && !have.includes(DECISION_LIST_INDEX))
    await backfillDecisionListPartitions(client, name);
  const input = createTableInput(def, name);
  // Built or being built, by this process or another (local mode and the admin CLI share the database): an index
  // still being built fails every Query on it (DynamoDB Local: InternalFailure), so nothing is served before it is.
  let building = indexes.some((index) => !index.active);
  for (const index of input.GlobalSecondaryIndexes ?? []) {
    if (have.includes(index.IndexName)) continue;
    // DynamoDB builds one index of a table at a time: a second Create while one builds is refused.
    if (building) await indexesSettled(client, name);
    building = true;
    const keys = index.KeySchema.map((k) => k.AttributeName);
    await client.send(
      new UpdateTableCommand({
        TableName: name,
        AttributeDefinitions: input.AttributeDefinitions.filter((a) => keys.includes(a.AttributeName)),
        GlobalSecondaryIndexUpdates: [{ Create: index }],
      }),
    );
  }
  for (const retired of def.retiredIndexes ?? []) {
    if (!have.includes(retired.indexName)) continue;
    // DynamoDB changes one index at a time: the one just created must be built before another goes.
    await indexesSettled(client, name);
    building = true;
    await client.send(
      new UpdateTableCommand({
        TableName: name,
        GlobalSecondaryIndexUpdates: [{ Delete: { IndexName: retired.indexName } }],
      }),
    );
  }
  if (building) await indexesSettled(client, name);
}

/** Waits, with the stores' back-off, until no index of the table is being created or deleted. */
function indexesSettled(client: DynamoDBDocumentClient, name: string): Promise<void> {
  return retrying(
    `indexes of ${name} settling`,
    async () => {
      const out = await client.send(new DescribeTableCommand({ TableName: name }));
      const busy = (out.Table?.GlobalSecondaryIndexes ?? []).some((index) => index.IndexStatus !== 'ACTIVE');
      return busy ? AGAIN : undefined;
    },
    { attempts: 60, baseMs: 50, capMs: 1_000, budgetMs: 60_000 },
  );
}

async function ensureTable(client: DynamoDBDocumentClient, def: TableDefinition, name: string) {
  const indexes = await existingIndexes(client, name);
  if (indexes) return addMissingIndexes(client, def, name, indexes);
  try {
    await client.send(new CreateTableCommand(createTableInput(def, name)));
  } catch (err) {
    // Another process (a second CLI, a parallel test) created it first: that is the state we want.
    if ((err as { name?: string }).name !== 'ResourceInUseException') throw err;
  }
  if (def.ttlAttribute) {
    try {
      await client.send(
        new UpdateTimeToLiveCommand({
          TableName: name,
          TimeToLiveSpecification: { AttributeName: def.ttlAttribute, Enabled: true },
        }),
      );
    } catch (err) {
      if (!/already enabled/i.test((err as Error).message)) throw err;
    }
  }
}

/** Creates any missing table; existing tables and their data are left alone. */
export async function ensureTables(client: DynamoDBDocumentClient, names: TableNames): Promise<void> {
  await ensureTable(client, ACCESS_TABLE, names.access);
  await ensureTable(client, DECISIONS_TABLE, names.decisions);
  await ensureTable(client, LEARNING_TABLE, names.learning);
}
