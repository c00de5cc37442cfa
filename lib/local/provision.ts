// Creates the tables local mode and the tests need, from the one set of definitions in lambdas/contract/tables.ts.
import {
  CreateTableCommand,
  DescribeTableCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ACCESS_TABLE, DECISIONS_TABLE, type TableDefinition, createTableInput } from '../../lambdas/contract/tables';

export interface TableNames {
  access: string;
  decisions: string;
}

export const tableNamesWithPrefix = (prefix: string): TableNames => ({
  access: `${prefix}access`,
  decisions: `${prefix}decisions`,
});

async function tableExists(client: DynamoDBDocumentClient, name: string, def?: TableDefinition): Promise<boolean> {
  try {
    const out = await client.send(new DescribeTableCommand({ TableName: name }));
    if (def) await addMissingIndexes(client, def, name, new Set((out.Table?.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName!)));
    return true;
  } catch (err) {
    if ((err as { name?: string }).name === 'ResourceNotFoundException') return false;
    throw err;
  }
}

/** A table made by an older version (data kept in LOCAL_DATA_DIR) gets the indexes added since. */
async function addMissingIndexes(client: DynamoDBDocumentClient, def: TableDefinition, name: string, present: Set<string>) {
  const full = createTableInput(def, name);
  for (const index of full.GlobalSecondaryIndexes ?? []) {
    if (present.has(index.IndexName)) continue;
    const keys = new Set(index.KeySchema.map((k) => k.AttributeName));
    await client.send(
      new UpdateTableCommand({
        TableName: name,
        AttributeDefinitions: full.AttributeDefinitions.filter((a) => keys.has(a.AttributeName)),
        GlobalSecondaryIndexUpdates: [{ Create: index }],
      }),
    );
  }
}

async function ensureTable(client: DynamoDBDocumentClient, def: TableDefinition, name: string) {
  if (await tableExists(client, name, def)) return;
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
}
