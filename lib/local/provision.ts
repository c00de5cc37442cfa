// Creates the tables local mode and the tests need, from the one set of definitions in lambdas/contract/tables.ts.
import {
  CreateTableCommand,
  DescribeTableCommand,
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

async function tableExists(client: DynamoDBDocumentClient, name: string): Promise<boolean> {
  try {
    await client.send(new DescribeTableCommand({ TableName: name }));
    return true;
  } catch (err) {
    if ((err as { name?: string }).name === 'ResourceNotFoundException') return false;
    throw err;
  }
}

async function ensureTable(client: DynamoDBDocumentClient, def: TableDefinition, name: string) {
  if (await tableExists(client, name)) return;
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
