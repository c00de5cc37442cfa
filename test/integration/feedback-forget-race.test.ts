// A feedback whose transaction is still on the wire while another container forgets the model and records feedback on
// the same decision (docs/learning.md, "Importing history and forgetting it"): its retry must not write in the
// generation it started in, marking the decision as counted there while its count in the new generation stays for
// good. The transaction is held in the first container's own client (a slow network, caused for real; nothing
// answers in its place).
import { GetCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
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

let holds = 0;
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
    // Inert once it held one; a name of its own, so one client can hold again in a later test.
    { step: 'initialize', name: `holdNextTransaction${++holds}` },
  );
  return { release, held };
}

beforeAll(async () => {
  tables = await createTestTables('fbforget');
  const admin = new AdminService(new DynamoAccessStore(tables.client, tables.names.access, tables.names.decisions));
  ({ key } = await partnerWithKey(admin, 'acme', ['ws_race', 'ws_race_after', 'ws_race_between', 'ws_race_read']));
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

/** Entries of `generation` in `ws` that hold counts and no expiry: only a forget or a fold ever deletes them. */
async function countsKeptFor(ws: string, generation: number): Promise<string[]> {
  const out = await tables.client.send(
    new QueryCommand({
      TableName: tables.names.learning,
      KeyConditionExpression: 'ws = :ws AND begins_with(sk, :e)',
      ExpressionAttributeValues: { ':ws': ws, ':e': 'e#' },
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? [])
    .filter((i) => Number(i.g ?? 0) === generation && i.expires_at === undefined && Array.isArray(i.ch))
    .map((i) => String(i.sk));
}

// What a forget removes must not come back as an entry it could not see (docs/learning.md, "Corrections at the price
// of a write": entries that hold counts have no expiry until a fold, and no load of the new generation reads the old).
describe('a feedback racing a forget leaves nothing of the forgotten generation', () => {
  /** A decision of `ws` to give feedback on, after one feedback of another decision taught generation 0. */
  async function learnedWorkspace(ws: string): Promise<string> {
    const [a, b] = services;
    const analyze = async (subject: string) =>
      (await send(a, 'POST', '/signals/analyze', { workspace_id: ws, source: 'email', subject })).json.decision_id;
    const taught = await analyze('Invoice 7 is overdue');
    expect((await send(b, 'POST', `/decisions/${taught}/feedback`, { category: 'billing' })).status).toBe(200);
    expect(await countsKeptFor(ws, 0)).toHaveLength(1);
    return analyze('Invoice 8 is overdue');
  }

  it('when the feedback lands after the forget moved the model on', async () => {
    const [a, b] = services;
    const id = await learnedWorkspace('ws_race_after');
    const hold = holdNextTransaction(a.dependencies.client);
    const held = send(a, 'POST', `/decisions/${id}/feedback`, { category: 'refund_request' });
    await hold.held;
    expect((await send(b, 'DELETE', '/workspaces/ws_race_after/model')).status).toBe(200);
    hold.release();
    expect((await held).status).toBe(200);
    expect(await countsKeptFor('ws_race_after', 0)).toEqual([]);
  });

  it('when the feedback lands between what the forget read and its switch', async () => {
    const [a, b] = services;
    const id = await learnedWorkspace('ws_race_between');
    const hold = holdNextTransaction(b.dependencies.client);
    const forget = send(b, 'DELETE', '/workspaces/ws_race_between/model');
    await hold.held;
    expect((await send(a, 'POST', `/decisions/${id}/feedback`, { category: 'refund_request' })).status).toBe(200);
    expect(await countsKeptFor('ws_race_between', 0)).toHaveLength(2);
    hold.release();
    expect((await forget).status).toBe(200);
    expect(await countsKeptFor('ws_race_between', 0)).toEqual([]);
  });
});

it('answers 200 for a feedback that landed when the read after it fails', async () => {
  const [a] = services;
  const analyze = async (subject: string) =>
    (await send(a, 'POST', '/signals/analyze', { workspace_id: 'ws_race_read', source: 'email', subject })).json
      .decision_id;
  const id = await analyze('Invoice 9 is overdue');
  await send(a, 'POST', '/signals/analyze', { workspace_id: 'ws_race_read', source: 'email', subject: 'warm up' });
  // A mock: the database refusing the one read after the transaction, a fault DynamoDB Local cannot be made to give.
  let landed = false;
  let failed = 0;
  a.dependencies.client.middlewareStack.add(
    (next, context) => async (args) => {
      if (String(context.commandName).startsWith('TransactWrite')) {
        const out = await next(args);
        landed = true;
        return out;
      }
      if (landed && failed === 0 && String(context.commandName).startsWith('Get')) {
        failed++;
        throw Object.assign(new Error('Throughput exceeds the current capacity'), {
          name: 'ProvisionedThroughputExceededException',
        });
      }
      return next(args);
    },
    { step: 'initialize', name: `failReadAfterTransaction${++holds}` },
  );
  expect((await send(a, 'POST', `/decisions/${id}/feedback`, { category: 'billing' })).status).toBe(200);
  expect(failed).toBe(1);
  expect(await countsKeptFor('ws_race_read', 0)).toHaveLength(1);
});
