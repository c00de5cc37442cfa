// A real database outage: DynamoDB Local is stopped under traffic and started again on the same data. Clients see
// 503 SERVICE_UNAVAILABLE with Retry-After while it is down, 200 again after; every decision answered 200 is
// stored, and clients retrying with their idempotency keys create no duplicates.
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
import { call, expectError } from '../support/http';

jest.setTimeout(180_000);

let dataDir: string;
let port: number;
let db: RunningDynamoDb | undefined;
let server: RunningServer;
let service: Service;
let key: string;
const names = tableNamesWithPrefix('faults-');

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'sas-faults-'));
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
    authCacheTtlSeconds: 0,
    // A JVM just restarted on a loaded machine is slow; a refused connection is still a 503 at once.
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

const body = (i: number) => ({ workspace_id: 'ws_a', source: 'task', subject: `Task ${i}`, body: 'Please review the quarterly report.' });

it('answers 503 while the database is down and recovers without losing or duplicating decisions', async () => {
  const answered = new Map<string, string>(); // idempotency key -> decision id answered with 200
  const send = async (i: number) => {
    const idem = `job-${i}`;
    const reply = await call(server.baseUrl, 'POST', '/signals/analyze', { key, body: body(i), headers: { 'idempotency-key': idem } });
    if (reply.status === 200) {
      const previous = answered.get(idem);
      if (previous) expect(reply.json.decision_id).toBe(previous);
      answered.set(idem, reply.json.decision_id);
    }
    return reply;
  };

  for (let i = 0; i < 20; i++) expect((await send(i)).status).toBe(200);

  await db!.stop();
  const during = [];
  for (let i = 20; i < 30; i++) during.push(await send(i));
  for (const reply of during) {
    expectError(reply, 503, 'SERVICE_UNAVAILABLE');
    expect(Number(reply.headers.get('retry-after'))).toBeGreaterThan(0);
  }
  // A GET is refused the same way.
  expectError(await call(server.baseUrl, 'GET', '/decisions/dec_01JD2X5R8Q4T7W9Y3K6M1N0P2S', { key }), 503, 'SERVICE_UNAVAILABLE');

  db = await startDynamoDbLocal({ port, dataDir });
  // Clients retry everything they sent, with the same idempotency keys.
  for (let i = 0; i < 30; i++) expect((await send(i)).status).toBe(200);

  const client = createDocumentClient({ endpoint: db.endpoint, requestTimeoutMs: 10_000 });
  const scan = await client.send(new ScanCommand({ TableName: names.decisions }));
  client.destroy();
  const stored = (scan.Items ?? []).filter((item) => String(item.pk).startsWith('decision#'));
  expect(stored).toHaveLength(30);
  const storedIds = new Set(stored.map((item) => item.decision.decision_id));
  for (const id of answered.values()) expect(storedIds.has(id)).toBe(true);
});
