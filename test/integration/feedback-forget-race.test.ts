// A feedback whose transaction is still on the wire while another container forgets the model and records feedback on
// the same decision (docs/learning.md, "Importing history and forgetting it"): its retry must not write in the
// generation it started in, marking the decision as counted there while its count in the new generation stays for
// good. The transaction is held in the first container's own client (a slow network, caused for real; nothing
// answers in its place).
import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { apiEvents, inProcess } from '../../bin/bench/requests';
import { type Service, createService } from '../../lambdas/service';
import { createDocumentClient } from '../../lambdas/stores/dynamodb-client';
import { AdminService } from '../../lib/admin';
import { DynamoAccessStore } from '../../lambdas/stores/access-store';
import { type TestTables, createTestTables, testEndpoint } from '../support/dynamodb';
import { partnerWithKey, testSettings } from '../support/local-api';

let tables: TestTables;
let key: string;
const services: Service[] = [];

/** Holds the client's next TransactWriteItems until `release()`; `reached` resolves when it is held. */
function holdNextTransaction(client: DynamoDBDocumentClient) {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let reached!: () => void;
  const held = new Promise<void>((r) => (reached = r));
  let armed = true;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (armed && String(context.commandName).startsWith('TransactWrite')) {
        armed = false;
        reached();
        await released;
      }
      return next(args);
    },
    { step: 'initialize', name: 'holdNextTransaction' },
  );
  return { release, held };
}

beforeAll(async () => {
  tables = await createTestTables('fbforget');
  const admin = new AdminService(new DynamoAccessStore(tables.client, tables.names.access, tables.names.decisions));
  ({ key } = await partnerWithKey(admin, 'acme', ['ws_race']));
  // Two containers of the same service, each its own client and caches.
  for (let i = 0; i < 2; i++)
    services.push(
      createService(testSettings(tables), {
        client: createDocumentClient({ endpoint: testEndpoint(), requestTimeoutMs: 4_000 }),
      }),
    );
});
afterAll(async () => {
  // Their clients are this file's own (close() leaves a client it was given alone).
  for (const s of services) s.dependencies.client.destroy();
  await tables?.drop();
});

async function send(service: Service, method: 'POST' | 'DELETE', path: string, body?: unknown) {
  const reply = await inProcess(
    service,
    apiEvents({ key, method, path: `/api/v1${path}`, body: body === undefined ? undefined : JSON.stringify(body) }),
  );
  return { status: reply.statusCode, json: reply.body ? JSON.parse(reply.body) : undefined };
}

it('does not record a held feedback in the generation a forget left, after a newer feedback landed', async () => {
  const [a, b] = services;
  const signal = (i: number) => ({ workspace_id: 'ws_race', source: 'email', subject: `Invoice ${i} is overdue` });
  const earlier = (await send(a, 'POST', '/signals/analyze', signal(0))).json.decision_id;
  const id = (await send(a, 'POST', '/signals/analyze', signal(1))).json.decision_id;
  // Something learned, so the forget moves the model to a new generation.
  expect((await send(b, 'POST', `/decisions/${earlier}/feedback`, { category: 'billing' })).status).toBe(200);

  const hold = holdNextTransaction(a.dependencies.client);
  const held = send(a, 'POST', `/decisions/${id}/feedback`, { category: 'refund_request' });
  await hold.held;
  expect((await send(b, 'DELETE', '/workspaces/ws_race/model')).status).toBe(200);
  expect((await send(b, 'POST', `/decisions/${id}/feedback`, { category: 'card_fraud' })).status).toBe(200);
  hold.release();
  // The held feedback lost its race: the client is told to retry, and its retry lands in the new generation.
  expect((await held).status).toBe(503);
  expect((await send(a, 'POST', `/decisions/${id}/feedback`, { category: 'refund_request' })).status).toBe(200);

  const decision = await tables.client.send(
    new GetCommand({ TableName: tables.names.decisions, Key: { pk: `decision#${id}` }, ConsistentRead: true }),
  );
  expect(decision.Item).toMatchObject({ learned: { category: 'refund_request' }, learned_generation: 1 });
  // A fresh container's load: the decision counted once, under its latest label, in the new generation.
  const fresh = createService(testSettings(tables), { client: tables.client });
  const state = await fresh.dependencies.workspaceStore.loadState('ws_race');
  fresh.close();
  expect(state.generation).toBe(1);
  expect(state.model.labels.map((l) => [l.field, l.label, l.docs])).toEqual([['category', 'refund_request', 1]]);
});
