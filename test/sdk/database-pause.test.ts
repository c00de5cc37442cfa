// The SDK through a real database outage: DynamoDB Local is stopped while a partner's analyze is in flight, the
// service answers 503 with Retry-After, the client waits and retries with the same Idempotency-Key, the database
// comes back, and the call ends with exactly one stored decision.
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
import { SignalAnalysisClient } from '../../sdk/src';

jest.setTimeout(180_000);

let dataDir: string;
let port: number;
let db: RunningDynamoDb | undefined;
let server: RunningServer;
let service: Service;
let key: string;
const names = tableNamesWithPrefix('sdk-pause-');

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'sas-sdk-pause-'));
  port = await freePort();
  db = await startDynamoDbLocal({ port, dataDir });
  const client = createDocumentClient({ endpoint: db.endpoint, requestTimeoutMs: 10_000 });
  await ensureTables(client, names);
  const admin = new AdminService(new DynamoAccessStore(client, names.access, names.decisions));
  await admin.createPartner({ id: 'acme', name: 'Acme' });
  key = (await admin.createKey({ partnerId: 'acme', workspaces: ['ws_a'] })).key;
  client.destroy();
  service = createService({
    ...DEFAULT_SETTINGS,
    dynamodbEndpoint: db.endpoint,
    accessTableName: names.access,
    decisionsTableName: names.decisions,
    authCacheTtlSeconds: 300,
    // Long enough that a JVM pause on a loaded machine, or the restarted database warming up, is not an outage.
    dynamodbRequestTimeoutMs: 4_000,
    logLevel: 'SILENT',
    metricsEnabled: false,
  });
  server = await startLocalServer({ port: 0, handlers: service });
});

afterAll(async () => {
  await server?.close();
  service?.close();
  await db?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function storedDecisions(): Promise<string[]> {
  const client = createDocumentClient({ endpoint: db!.endpoint, requestTimeoutMs: 10_000 });
  try {
    const scan = await client.send(new ScanCommand({ TableName: names.decisions }));
    return (scan.Items ?? []).filter((i) => String(i.pk).startsWith('decision#')).map((i) => i.decision.decision_id);
  } finally {
    client.destroy();
  }
}

it('retries through a real 503 while the database is down and ends with exactly one decision', async () => {
  const statuses: number[] = [];
  // The real fetch, with each status noted: the test restarts the database once the client has seen a 503.
  const noting: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    statuses.push(res.status);
    return res;
  };
  const client = new SignalAnalysisClient({ apiKey: key, baseUrl: server.baseUrl, fetch: noting, maxRetries: 20, timeoutMs: 30_000 });
  // Warm the key into the authorizer's cache, so the outage hits the decision write itself.
  await client.listDecisions({ workspace_id: 'ws_a' });
  expect(await storedDecisions()).toEqual([]);

  await db!.stop();
  const pending = client.analyzeWithResponse({ workspace_id: 'ws_a', source: 'email', subject: 'Production outage', body: 'Checkout is down.', sender: 'ops@example.com' });
  while (!statuses.includes(503)) await new Promise((r) => setTimeout(r, 50));
  db = await startDynamoDbLocal({ port, dataDir });

  const { decision } = await pending;
  expect(statuses.filter((s) => s === 503).length).toBeGreaterThanOrEqual(1);
  expect(statuses[statuses.length - 1]).toBe(200);
  expect(await storedDecisions()).toEqual([decision.decision_id]);
  expect(await client.getDecision(decision.decision_id)).toEqual(decision);
});
