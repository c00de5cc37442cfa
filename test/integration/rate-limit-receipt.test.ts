// A request counts in the window of the moment the service receives it (docs/partners.md, "Scopes and rate limits"):
// the gateway's receipt time (requestContext.timeEpoch), not the moment its handler gets to spend, which a cold start
// or a batch's body can put in the next window. The gateway's and the handler's clocks are set apart here, as a
// request received at the end of one window and handled after the next began sees them; it was counted in the next
// window, so a key could pass its limit at every boundary.
import { AdminService } from '../../lib/admin';
import { type RunningServer, startLocalServer } from '../../lib/local/server';
import { type Service, createService } from '../../lambdas/service';
import { DynamoAccessStore } from '../../lambdas/stores/access-store';
import { call, expectError } from '../support/http';
import { type TestTables, createTestTables } from '../support/dynamodb';
import { testSettings } from '../support/local-api';

jest.setTimeout(60_000);

const HOUR = 3_600_000;
// An hour boundary a day ahead: counters expire (TTL, applied at once by DynamoDB Local) an hour after their window.
const BOUNDARY = Math.ceil(Date.now() / HOUR) * HOUR + 24 * HOUR;
let received = BOUNDARY - 10_000;
let handled = received;
let tables: TestTables;
let service: Service;
let server: RunningServer;
let admin: AdminService;

beforeAll(async () => {
  tables = await createTestTables('ratereceipt');
  service = createService(testSettings(tables), { clock: () => handled });
  server = await startLocalServer({ port: 0, handlers: service, clock: () => received });
  admin = new AdminService(new DynamoAccessStore(tables.client, tables.names.access, tables.names.decisions));
  await admin.createPartner({ id: 'acme', name: 'Acme' });
});
afterAll(async () => {
  await server?.close();
  service?.close();
  await tables?.drop();
});

/** A key of 1 request an hour for one test: each test spends its own windows, whichever ran before it. */
async function newKey(): Promise<string> {
  return (await admin.createKey({ partnerId: 'acme', workspaces: ['ws_a'], rateLimit: '1/h' })).key;
}

const analyze = (key: string) =>
  call(server.baseUrl, 'POST', '/signals/analyze', {
    key,
    body: { workspace_id: 'ws_a', source: 'task', subject: 'Renew the certificate' },
  });

it('counts a request in the window it was received in, not the one its handler ran in', async () => {
  const key = await newKey();
  received = BOUNDARY - 10_000;
  handled = received;
  expect((await analyze(key)).status).toBe(200);
  // Received a second before the boundary, in the hour its one request was spent in; handled a second after it.
  received = BOUNDARY - 1_000;
  handled = BOUNDARY + 1_000;
  expectError(await analyze(key), 429, 'RATE_LIMITED');
  // Received in the next hour: its own window.
  received = BOUNDARY + 2_000;
  handled = BOUNDARY + 3_000;
  expect((await analyze(key)).status).toBe(200);
});

it("uses the handler's clock when the receipt time is further from it than a request can wait", async () => {
  // 40 s apart: no request waits that long in the gateway (its integration timeout is 30 s), so the clocks disagree
  // and the handler's is the service's own.
  const key = await newKey();
  received = BOUNDARY + HOUR + 5_000;
  handled = received + 40_000;
  expect((await analyze(key)).status).toBe(200);
  received = BOUNDARY + 2 * HOUR - 20_000;
  handled = BOUNDARY + 2 * HOUR + 20_000;
  expect((await analyze(key)).status).toBe(200);
});
