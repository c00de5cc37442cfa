// A service on its own DynamoDB Local, with a data directory on disk, so a test can stop the database under
// traffic and start it again on the same data: a real outage, not a mock.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { AdminService } from '../../lib/admin';
import { type RunningDynamoDb, freePort, startDynamoDbLocal } from '../../lib/local/dynamodb-local';
import { ensureTables, tableNamesWithPrefix } from '../../lib/local/provision';
import { type RunningServer, startLocalServer } from '../../lib/local/server';
import { DEFAULT_SETTINGS } from '../../lambdas/contract/settings';
import { type Service, createService } from '../../lambdas/service';
import { DynamoAccessStore } from '../../lambdas/stores/access-store';
import { createDocumentClient } from '../../lambdas/stores/dynamodb-client';

export interface OutageWorld {
  /** The local HTTP API's base URL. */
  baseUrl: string;
  /** A key of partner `acme` for workspace `ws_a`. */
  key: string;
  stopDatabase(): Promise<void>;
  /** The same port and data directory again. */
  startDatabase(): Promise<void>;
  /** The ids of the decisions stored, read straight from the table. */
  storedDecisionIds(): Promise<string[]>;
  close(): Promise<void>;
}

export async function startOutageWorld(label: string, authCacheTtlSeconds: number): Promise<OutageWorld> {
  const dataDir = mkdtempSync(join(tmpdir(), `sas-${label}-`));
  const port = await freePort();
  let db: RunningDynamoDb | undefined = await startDynamoDbLocal({ port, dataDir });
  const names = tableNamesWithPrefix(`${label}-`);
  const client = createDocumentClient({ endpoint: db.endpoint, requestTimeoutMs: 10_000 });
  await ensureTables(client, names);
  const admin = new AdminService(new DynamoAccessStore(client, names.access, names.decisions));
  await admin.createPartner({ id: 'acme', name: 'Acme' });
  const { key } = await admin.createKey({ partnerId: 'acme', workspaces: ['ws_a'] });
  client.destroy();
  const service: Service = createService({
    ...DEFAULT_SETTINGS,
    dynamodbEndpoint: db.endpoint,
    accessTableName: names.access,
    decisionsTableName: names.decisions,
    authCacheTtlSeconds,
    // Long enough that a JVM pause on a loaded machine, or a restarted database warming up, is not an outage; a
    // refused connection is still a 503 at once.
    dynamodbRequestTimeoutMs: 4_000,
    logLevel: 'SILENT',
    metricsEnabled: false,
  });
  const server: RunningServer = await startLocalServer({ port: 0, handlers: service });
  return {
    baseUrl: server.baseUrl,
    key,
    async stopDatabase() {
      await db?.stop();
      db = undefined;
    },
    async startDatabase() {
      db = await startDynamoDbLocal({ port, dataDir });
    },
    async storedDecisionIds() {
      const reader = createDocumentClient({ endpoint: db!.endpoint, requestTimeoutMs: 10_000 });
      try {
        const scan = await reader.send(new ScanCommand({ TableName: names.decisions }));
        return (scan.Items ?? [])
          .filter((item) => String(item.pk).startsWith('decision#'))
          .map((item) => String(item.decision_id));
      } finally {
        reader.destroy();
      }
    },
    async close() {
      await server.close();
      service.close();
      await db?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
