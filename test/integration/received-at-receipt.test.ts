// A signal without `received_at` is stamped with the time the service received it (docs/partners.md, "The signal"),
// which is the gateway's receipt time (requestContext.timeEpoch), not the moment its handler ran: a cold start or a
// large batch can start the handler seconds later. The local server's gateway clock is set 20 s back here, as such a
// request sees it; the handler's was used, so the stamp was up to the whole wait late.
import { AdminService } from '../../lib/admin';
import { type RunningServer, startLocalServer } from '../../lib/local/server';
import { toUtcString } from '../../lambdas/domain/timestamps';
import { type Service, createService } from '../../lambdas/service';
import { DynamoAccessStore } from '../../lambdas/stores/access-store';
import { call } from '../support/http';
import { type TestTables, createTestTables } from '../support/dynamodb';
import { testSettings } from '../support/local-api';

jest.setTimeout(60_000);

let tables: TestTables;
let service: Service;
let server: RunningServer;
let key: string;
/** The gateway's receipt time of the last request. */
let received = 0;

beforeAll(async () => {
  tables = await createTestTables('receivedat');
  service = createService(testSettings(tables));
  server = await startLocalServer({ port: 0, handlers: service, clock: () => (received = Date.now() - 20_000) });
  const admin = new AdminService(new DynamoAccessStore(tables.client, tables.names.access, tables.names.decisions));
  await admin.createPartner({ id: 'acme', name: 'Acme' });
  ({ key } = await admin.createKey({ partnerId: 'acme', workspaces: ['ws_a'] }));
});
afterAll(async () => {
  await server?.close();
  service?.close();
  await tables?.drop();
});

const signal = { workspace_id: 'ws_a', source: 'task', subject: 'Renew the certificate' };

it('stamps an analyzed signal with the time the gateway received it, and stores it so', async () => {
  const reply = await call(server.baseUrl, 'POST', '/signals/analyze', { key, body: signal });
  expect(reply.status).toBe(200);
  const stamp = toUtcString(received);
  expect(reply.json.received_at).toBe(stamp);
  const stored = await call(server.baseUrl, 'GET', `/decisions/${reply.json.decision_id}`, { key });
  expect(stored.json.received_at).toBe(stamp);
});

it("stamps each of a batch's signals with the batch's receipt, and a replay answers the same", async () => {
  const body = { signals: [signal, { ...signal, subject: 'Rotate the keys' }] };
  const headers = { 'Idempotency-Key': 'batch-received-at-1' };
  const reply = await call(server.baseUrl, 'POST', '/signals/analyze-batch', { key, body, headers });
  expect(reply.status).toBe(200);
  const stamp = toUtcString(received);
  expect(reply.json.data.map((item: { decision: { received_at: string } }) => item.decision.received_at)).toEqual([
    stamp,
    stamp,
  ]);
  const replay = await call(server.baseUrl, 'POST', '/signals/analyze-batch', { key, body, headers });
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(replay.json).toEqual(reply.json);
});

it('keeps a received_at the signal names', async () => {
  const reply = await call(server.baseUrl, 'POST', '/signals/analyze', {
    key,
    body: { ...signal, received_at: '2026-11-21T09:30:00Z' },
  });
  expect(reply.json.received_at).toBe('2026-11-21T09:30:00Z');
});
