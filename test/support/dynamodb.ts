// Per-test-file tables in the run's DynamoDB Local (started by global-setup.ts).
import { randomBytes } from 'node:crypto';
import { type CreateTableCommandInput, CreateTableCommand, DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { type TableNames, ensureTables, tableNamesWithPrefix } from '../../lib/local/provision';
import { DECISIONS_TABLE, createTableInput } from '../../lambdas/contract/tables';
import { createDocumentClient } from '../../lambdas/stores/dynamodb-client';

export function testEndpoint(): string {
  const endpoint = process.env.TEST_DYNAMODB_ENDPOINT;
  if (!endpoint)
    throw new Error(
      'TEST_DYNAMODB_ENDPOINT is not set: run the tests through jest (global-setup starts DynamoDB Local)',
    );
  return endpoint;
}

export interface TestTables {
  client: DynamoDBDocumentClient;
  names: TableNames;
  drop(): Promise<void>;
}

/** Fresh, uniquely named tables for one test file. */
export async function createTestTables(label: string): Promise<TestTables> {
  const client = createDocumentClient({ endpoint: testEndpoint(), requestTimeoutMs: 4_000 });
  const names = tableNamesWithPrefix(`t-${label}-${randomBytes(4).toString('hex')}-`);
  await ensureTables(client, names);
  return {
    client,
    names,
    async drop() {
      for (const name of Object.values(names))
        await client.send(new DeleteTableCommand({ TableName: name })).catch(() => undefined);
      client.destroy();
    },
  };
}

/**
 * A Decisions table named `name` as version 2 deployed it (its retired listing index, decision_list, where
 * decisions_by_priority is now), for upgrade tests, with a client of its own: the test deletes the table and closes
 * the client. `input` is what created it.
 */
export async function createRetiredListTable(
  name: string,
): Promise<{ client: DynamoDBDocumentClient; input: CreateTableCommandInput }> {
  const input = createTableInput(
    { ...DECISIONS_TABLE, indexes: [...DECISIONS_TABLE.retiredIndexes!, ...DECISIONS_TABLE.indexes.slice(1)] },
    name,
  );
  const client = createDocumentClient({ endpoint: testEndpoint(), requestTimeoutMs: 4_000 });
  await client.send(new CreateTableCommand(input));
  return { client, input };
}

/** The decisions table's items whose `pk` starts with `prefix` (one strongly consistent Scan: small test tables). */
export async function decisionItemsStartingWith(
  tables: TestTables,
  prefix: string,
): Promise<Record<string, unknown>[]> {
  const out = await tables.client.send(
    new ScanCommand({
      TableName: tables.names.decisions,
      FilterExpression: 'begins_with(pk, :p)',
      ExpressionAttributeValues: { ':p': prefix },
      ConsistentRead: true,
    }),
  );
  return out.Items ?? [];
}
