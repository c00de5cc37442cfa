// The learning store under the faults a partner meets (docs/learning.md, "Storage layout"): every write of a feedback
// or an import may land with its answer lost, or fail before it is sent, and the partner retries until it gets a 200.
// Whatever happened, a freshly loaded workspace holds each correction exactly once. The faults are injected in the
// DynamoDB client (a lost answer cannot be caused for real against DynamoDB Local); everything else is real.
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { AdminService } from '../../lib/admin';
import { MAX_LABELS } from '../../lambdas/domain/learning/model';
import { startLocalServer, type RunningServer } from '../../lib/local/server';
import { type Service, createService } from '../../lambdas/service';
import { DynamoAccessStore } from '../../lambdas/stores/access-store';
import { createDocumentClient } from '../../lambdas/stores/dynamodb-client';
import { labelSetKey } from '../../lambdas/stores/label-registry';
import { type TestTables, createTestTables, testEndpoint } from '../support/dynamodb';
import { call, expectError } from '../support/http';
import { partnerWithKey, testSettings } from '../support/local-api';

type Fault = 'lost' | 'unsent';
/** Decides, per write call sent, whether it fails and how (calls counted from 0 since `arm`). */
let faultAt: ((n: number) => Fault | undefined) | undefined;
let writesSent = 0;
const WRITES = new Set(['PutCommand', 'UpdateCommand', 'TransactWriteCommand', 'BatchWriteCommand']);

let tables: TestTables;
let service: Service;
let server: RunningServer;
let key: string;

function faultyClient() {
  const client = createDocumentClient({ endpoint: testEndpoint(), requestTimeoutMs: 4_000 });
  const send = client.send.bind(client) as (command: unknown, ...rest: unknown[]) => Promise<unknown>;
  (client as { send: unknown }).send = async (command: { constructor: { name: string } }, ...rest: unknown[]) => {
    if (!WRITES.has(command.constructor.name)) return send(command, ...rest);
    const n = writesSent++;
    const fault = faultAt?.(n);
    const timeout = () => Object.assign(new Error('injected: no answer'), { name: 'TimeoutError' });
    if (fault === 'unsent') throw timeout();
    const out = await send(command, ...rest);
    if (fault === 'lost') throw timeout();
    return out;
  };
  return client;
}

beforeAll(async () => {
  tables = await createTestTables('learnstore');
  // Every request loads its workspace afresh (no cache): what a new container would see.
  service = createService(testSettings(tables, { workspaceCacheTtlSeconds: 0 }), { client: faultyClient() });
  server = await startLocalServer({ port: 0, handlers: service });
  const admin = new AdminService(new DynamoAccessStore(tables.client, tables.names.access, tables.names.decisions));
  ({ key } = await partnerWithKey(admin, 'p_learn', [
    'ws_learn_retry',
    'ws_learn_move',
    'ws_learn_import',
    'ws_learn_forget',
    'ws_learn_limit',
    'ws_learn_limit_race',
    'ws_learn_forget_sets',
    'ws_learn_conflict',
  ]));
});

afterAll(async () => {
  await server?.close();
  service?.close();
  await tables?.drop();
});

const api = (method: string, path: string, body?: unknown) => call(server.baseUrl, method, path, { key, body });

async function decide(ws: string, i: number): Promise<string> {
  const body = `Card payment declined at the shop again, order ${i}`;
  const out = await api('POST', '/signals/analyze', { workspace_id: ws, source: 'support_message', body });
  expect(out.status).toBe(200);
  return out.json.decision_id as string;
}

/** Sends until a 200 (a partner's retries), with `fault` armed for the first attempt only. */
async function untilOk(send: () => ReturnType<typeof api>, fault?: (n: number) => Fault | undefined) {
  writesSent = 0;
  faultAt = fault;
  const first = await send();
  faultAt = undefined;
  if (first.status === 200) return first;
  expect(first.status).toBe(503);
  const again = await send();
  expect(again.status).toBe(200);
  return again;
}

/** Each label's examples as a new container loads them. */
async function examples(ws: string): Promise<Record<string, number>> {
  const state = await service.dependencies.workspaceStore.loadState(ws);
  return Object.fromEntries(state.model.labels.map((l) => [`${l.field}:${l.label}`, l.docs]));
}

/** How many writes one feedback makes when nothing fails. */
async function writesOfOneFeedback(ws: string): Promise<number> {
  const id = await decide(ws, 0);
  writesSent = 0;
  expect((await api('POST', `/decisions/${id}/feedback`, { category: 'card_declined' })).status).toBe(200);
  return writesSent;
}

it('a feedback retried after any of its writes failed, sent or not, teaches exactly once', async () => {
  const ws = 'ws_learn_retry';
  const writes = await writesOfOneFeedback(ws);
  expect(writes).toBeGreaterThan(0);
  let taught = 1;
  for (const fault of ['lost', 'unsent'] as const) {
    for (let k = 0; k < writes; k++) {
      const id = await decide(ws, ++taught);
      await untilOk(
        () => api('POST', `/decisions/${id}/feedback`, { category: 'card_declined' }),
        (n) => (n === k ? fault : undefined),
      );
      expect(await examples(ws)).toEqual({ 'category:card_declined': taught });
    }
  }
});

it('a changed label retried after a lost answer moves the decision once, out of the old label and into the new', async () => {
  const ws = 'ws_learn_move';
  const id = await decide(ws, 1);
  await untilOk(() => api('POST', `/decisions/${id}/feedback`, { category: 'card_declined' }));
  const writes = await writesOfOneFeedback(ws);
  for (let k = 0; k < writes; k++) {
    const label = k % 2 === 0 ? 'refund' : 'card_declined';
    await untilOk(
      () => api('POST', `/decisions/${id}/feedback`, { category: label }),
      (n) => (n === k ? 'lost' : undefined),
    );
    const held = await examples(ws);
    expect(held[`category:${label}`]).toBe(label === 'refund' ? 1 : 2);
    expect(held[`category:${label === 'refund' ? 'card_declined' : 'refund'}`] ?? 0).toBe(label === 'refund' ? 1 : 0);
  }
});

it('an import retried after a lost answer, with its Idempotency-Key, teaches its examples once', async () => {
  const ws = 'ws_learn_import';
  const body = {
    examples: [1, 2, 3].map((i) => ({
      signal: { source: 'support_message', body: `Parcel stuck at customs, case ${i}` },
      labels: { category: 'customs_hold', priority: 'high' },
    })),
  };
  const send = () =>
    call(server.baseUrl, 'POST', `/workspaces/${ws}/examples`, {
      key,
      body,
      headers: { 'idempotency-key': 'learn-import-1' },
    });
  const first = await untilOk(send, (n) => (n === 0 ? 'lost' : undefined));
  expect(first.json.learned).toBe(3);
  expect(await examples(ws)).toEqual({ 'category:customs_hold': 3, 'priority:high': 3 });
});

it('a forget of a workspace that learned nothing since its last reset writes nothing', async () => {
  const ws = 'ws_learn_forget';
  const forget = async () => {
    writesSent = 0;
    expect((await api('DELETE', `/workspaces/${ws}/model`)).status).toBe(200);
    return writesSent;
  };
  // A first load makes the model item (its sketch key): that is the load's write, not the forget's.
  await examples(ws);
  expect(await forget()).toBe(0);
  expect(await forget()).toBe(0);
  await writesOfOneFeedback(ws);
  expect(await forget()).toBeGreaterThan(0);
  expect(await examples(ws)).toEqual({});
  expect(await forget()).toBe(0);
  const events = await service.dependencies.client.send(
    new (await import('@aws-sdk/lib-dynamodb')).ScanCommand({
      TableName: tables.names.decisions,
      FilterExpression: 'begins_with(pk, :p) AND #action = :forget AND target.workspace_id = :ws',
      ExpressionAttributeNames: { '#action': 'action' },
      ExpressionAttributeValues: { ':p': 'audit#', ':forget': 'model.forget', ':ws': ws },
      ConsistentRead: true,
    }),
  );
  expect(events.Items).toHaveLength(1);
});

it('imports at once never take a workspace past the per-field limit, and a forget gives the places back', async () => {
  // Each request checked the limit against the workspace as its container had it cached, so two at once (or two
  // containers within the cache's 30 s) both added labels up to the limit: 590 held, two imports of 100 new ended at 790.
  const ws = 'ws_learn_limit_race';
  const example = (category: string, i: number) => ({
    signal: { source: 'support_message', body: `Question number ${i} about ${category}` },
    labels: { category },
  });
  const importOf = (names: string[]) =>
    call(server.baseUrl, 'POST', `/workspaces/${ws}/examples`, {
      key,
      body: { examples: names.map((name, i) => example(name, i)) },
    });
  const held = MAX_LABELS - 10;
  for (let start = 0; start < held; start += 100) {
    const names = Array.from({ length: Math.min(100, held - start) }, (_, i) => `topic_${start + i}`);
    expect((await importOf(names)).json.learned).toBe(names.length);
  }
  const replies = await Promise.all(
    ['left', 'right'].map((side) => importOf(Array.from({ length: 100 }, (_, i) => `${side}_${i}`))),
  );
  expect(replies.map((r) => r.status)).toEqual([200, 200]);
  // Ten places were left: the two imports share them, and every other example is refused.
  expect(replies[0].json.learned + replies[1].json.learned).toBe(10);
  const categories = Object.keys(await examples(ws)).filter((label) => label.startsWith('category:'));
  expect(categories).toHaveLength(MAX_LABELS);

  expect((await api('DELETE', `/workspaces/${ws}/model`)).status).toBe(200);
  expect((await importOf(['after_forget'])).json.learned).toBe(1);
  expect(await examples(ws)).toEqual({ 'category:after_forget': 1 });
});

it('an example naming a new label past the per-field limit is refused, and the rest of the import is learned', async () => {
  const ws = 'ws_learn_limit';
  const example = (category: string, i: number) => ({
    signal: { source: 'support_message', body: `Question number ${i} about ${category}` },
    labels: { category },
  });
  for (let start = 0; start < MAX_LABELS; start += 100) {
    const examples = Array.from({ length: 100 }, (_, i) => example(`topic_${start + i}`, start + i));
    const out = await call(server.baseUrl, 'POST', `/workspaces/${ws}/examples`, { key, body: { examples } });
    expect(out.json.learned).toBe(100);
  }
  const out = await call(server.baseUrl, 'POST', `/workspaces/${ws}/examples`, {
    key,
    body: { examples: [example('one_too_many', 1), example('topic_7', 2)] },
  });
  expect(out.status).toBe(200);
  expect(out.json.learned).toBe(1);
  expect(out.json.data[0].error.code).toBe('VALIDATION_ERROR');
  expect(out.json.data[0].error.details[0].field).toBe('examples[0].labels.category');
  expect(out.json.data[1]).toEqual({ index: 1, status: 'learned' });
  const held = await examples(ws);
  expect(held['category:one_too_many']).toBeUndefined();
  expect(held['category:topic_7']).toBe(2);

  // Feedback naming a new label past the limit is refused the same way; one the workspace holds is learned.
  const id = await decide(ws, 1);
  const refused = await api('POST', `/decisions/${id}/feedback`, { queue: 'billing', category: 'one_too_many' });
  expectError(refused, 400, 'VALIDATION_ERROR');
  expect(refused.json.error.details).toEqual([
    { field: 'category', message: 'a workspace learns at most 600 labels per field; this one would be one more' },
  ]);
  // Refused whole: its new queue took no place among the workspace's labels either.
  const queues = await tables.client.send(
    new GetCommand({
      TableName: tables.names.learning,
      Key: { ws, sk: labelSetKey(0, 'queue') },
      ConsistentRead: true,
    }),
  );
  expect([...((queues.Item?.labels as Set<string> | undefined) ?? [])]).not.toContain('billing');
  expect((await api('POST', `/decisions/${id}/feedback`, { category: 'topic_7' })).status).toBe(200);
  const after = await examples(ws);
  expect(after['category:one_too_many']).toBeUndefined();
  expect(after['queue:billing']).toBeUndefined();
  expect(after['category:topic_7']).toBe(3);
});

it("a forget whose deletes failed leaves the old generation's label names to the next forget, which deletes them", async () => {
  const ws = 'ws_learn_forget_sets';
  const example = { signal: { source: 'email', subject: 'Project Falcon board pack' }, labels: { category: 'falcon' } };
  expect((await api('POST', `/workspaces/${ws}/examples`, { examples: [example] })).json.learned).toBe(1);
  // The forget's switch lands (its first write); its deletes (the second) fail, which it answers 200 for.
  writesSent = 0;
  faultAt = (n) => (n === 1 ? 'unsent' : undefined);
  expect((await api('DELETE', `/workspaces/${ws}/model`)).status).toBe(200);
  faultAt = undefined;
  const keys = async () =>
    (
      await tables.client.send(
        new QueryCommand({
          TableName: tables.names.learning,
          KeyConditionExpression: 'ws = :ws',
          ExpressionAttributeValues: { ':ws': ws },
          ConsistentRead: true,
        }),
      )
    ).Items?.map((i) => String(i.sk)) ?? [];
  expect(await keys()).toContain(labelSetKey(0, 'category'));
  expect((await api('DELETE', `/workspaces/${ws}/model`)).status).toBe(200);
  expect((await keys()).filter((sk) => sk.startsWith('l#'))).toEqual([]);
});

it('an import refused as an Idempotency-Key conflict takes no place among the labels', async () => {
  const ws = 'ws_learn_conflict';
  const importing = (category: string) =>
    call(server.baseUrl, 'POST', `/workspaces/${ws}/examples`, {
      key,
      headers: { 'idempotency-key': 'import-once' },
      body: { examples: [{ signal: { source: 'email', subject: `About ${category}` }, labels: { category } }] },
    });
  expect((await importing('first_label')).status).toBe(200);
  expect((await importing('conflict_label')).status).toBe(409);
  const set = await tables.client.send(
    new GetCommand({
      TableName: tables.names.learning,
      Key: { ws, sk: labelSetKey(0, 'category') },
      ConsistentRead: true,
    }),
  );
  expect([...((set.Item?.labels as Set<string> | undefined) ?? [])]).toEqual(['first_label']);
});
