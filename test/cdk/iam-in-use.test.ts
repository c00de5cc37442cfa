// Local mode does not enforce IAM, so a store call outside a Lambda's role would pass every other test and fail only
// once deployed. This drives every route over the local HTTP API on DynamoDB Local (fresh and replayed, prefix and
// exact grants, learning on), records each DynamoDB call the authorizer and each route make with its table, action
// and partition keys, and checks every one against that function's grants (lib/stack/access.ts, which the stack
// writes into the roles and test/cdk/stack.test.ts checks in the template).
import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { learningTableOf } from '../../lambdas/contract/settings';
import { FOLD_AGE_MS } from '../../lambdas/stores/learning-fold';
import { entryItem } from '../../lambdas/stores/learning-items';
import { startLocalServer, type RunningServer } from '../../lib/local/server';
import {
  AUTHORIZER_ACCESS,
  FALLBACK_ACCESS,
  type TableGrant,
  type TableName,
  allows,
  routeAccess,
} from '../../lib/stack/access';
import { ROUTES } from '../../lambdas/contract/routes';
import { type Service, createService } from '../../lambdas/service';
import { createDocumentClient } from '../../lambdas/stores/dynamodb-client';
import { AdminService } from '../../lib/admin';
import { DynamoAccessStore } from '../../lambdas/stores/access-store';
import { type TestTables, createTestTables, testEndpoint } from '../support/dynamodb';
import { call } from '../support/http';
import { testSettings } from '../support/local-api';

interface Recorded {
  fn: string;
  table: TableName;
  action: string;
  keys: string[];
  index?: string;
}

type Input = Record<string, any>;
/** The partition key of a decisions or access item; a learning item's sort key (IAM cannot tell those apart by key). */
const pkOf = (key: Input | undefined): string => {
  const pk = key?.pk ?? key?.sk;
  return typeof pk === 'string' ? pk : String(pk?.S);
};

/** The IAM action(s) one SDK command is authorized as, with the keys of each (a transaction: one per item). */
function callsOf(command: string, input: Input, tableOf: (name: string) => TableName): Omit<Recorded, 'fn'>[] {
  const name = command.replace(/Command$/, '').replace(/Item$/, '');
  const single = (action: string) => [
    { table: tableOf(input.TableName), action, keys: [pkOf(input.Key ?? input.Item)] },
  ];
  switch (name) {
    case 'Get':
    case 'Put':
    case 'Update':
    case 'Delete':
      return single(`${name}Item`);
    case 'Query':
    case 'Scan':
      return [{ table: tableOf(input.TableName), action: name, keys: [], index: input.IndexName }];
    case 'BatchGet':
      return Object.entries(input.RequestItems as Record<string, Input>).map(([table, r]) => ({
        table: tableOf(table),
        action: 'BatchGetItem',
        keys: (r.Keys as Input[]).map(pkOf),
      }));
    case 'BatchWrite':
      return Object.entries(input.RequestItems as Record<string, Input[]>).map(([table, rs]) => ({
        table: tableOf(table),
        action: 'BatchWriteItem',
        keys: rs.map((r) => pkOf(r.PutRequest?.Item ?? r.DeleteRequest?.Key)),
      }));
    case 'TransactWrite':
      return (input.TransactItems as Input[]).map((item) => {
        const [kind, op] = Object.entries(item)[0] as [string, Input];
        const action = kind === 'ConditionCheck' ? 'ConditionCheckItem' : `${kind}Item`;
        return { table: tableOf(op.TableName), action, keys: [pkOf(op.Key ?? op.Item)] };
      });
    default:
      throw new Error(`unexpected DynamoDB command ${command}`);
  }
}

let tables: TestTables;
let server: RunningServer;
let services: Service[] = [];
const recorded: Recorded[] = [];
/** Which function the route-side client's calls belong to: requests go one at a time. */
let current = '';
/**
 * Fails the route side's BatchWriteItem calls while set: the one injected fault (DynamoDB Local never throttles), for
 * a batch whose decisions were not stored and the replay that stores them.
 */
let failBatchWrites = false;

/** A document client that records each call under `fnName()` before sending it. */
function recordingClient(fnName: () => string): DynamoDBDocumentClient {
  const client = createDocumentClient({ endpoint: testEndpoint(), requestTimeoutMs: 4_000 });
  const tableOf = (name: string): TableName => {
    if (name === tables.names.access) return 'access';
    if (name === tables.names.decisions) return 'decisions';
    if (name === learningTableOf(testSettings(tables))) return 'learning';
    throw new Error(`call on an unknown table ${name}`);
  };
  const send = client.send.bind(client) as (command: unknown, ...rest: unknown[]) => Promise<unknown>;
  (client as { send: unknown }).send = async (
    command: { constructor: { name: string }; input: Input },
    ...rest: unknown[]
  ) => {
    for (const c of callsOf(command.constructor.name, command.input, tableOf)) recorded.push({ fn: fnName(), ...c });
    if (failBatchWrites && command.constructor.name === 'BatchWriteCommand') {
      throw Object.assign(new Error('injected: throughput exceeded'), {
        name: 'ProvisionedThroughputExceededException',
        $metadata: {},
      });
    }
    return send(command, ...rest);
  };
  return client;
}

beforeAll(async () => {
  tables = await createTestTables('iam');
  // The authorizer's calls come from its own service's client; every route's from the other's.
  const authSide = createService(testSettings(tables), { client: recordingClient(() => 'Authorizer') });
  // Workspaces are loaded on every request (no cache), and grants take both the batch and the cached-prefix path.
  const routeSide = createService(testSettings(tables, { authCacheTtlSeconds: 30, workspaceCacheTtlSeconds: 0 }), {
    client: recordingClient(() => current),
  });
  services = [authSide, routeSide];
  server = await startLocalServer({
    port: 0,
    handlers: { authorizer: authSide.authorizer, fallback: routeSide.fallback, routes: routeSide.routes },
  });
}, 60_000);

afterAll(async () => {
  await server?.close();
  for (const s of services) s.dependencies.client.destroy();
  await tables?.drop();
});

const grantsOf = (fn: string): readonly TableGrant[] => {
  if (fn === 'Authorizer') return AUTHORIZER_ACCESS;
  if (fn === 'Fallback') return FALLBACK_ACCESS;
  const route = ROUTES.find((r) => r.id === fn);
  if (!route) throw new Error(`no function ${fn}`);
  return routeAccess(route);
};

it("makes only DynamoDB calls that each function's role allows, on every route", async () => {
  const admin = new AdminService(new DynamoAccessStore(tables.client, tables.names.access, tables.names.decisions));
  await admin.createPartner({ id: 'iam', name: 'IAM partner', status: 'active' });
  // A rate limit on one key: every route then writes its counter (docs/deploy.md, IAM layout: `rate#` items).
  const exact = (
    await admin.createKey({ partnerId: 'iam', workspaces: ['ws_iam'], allowShared: true, rateLimit: '1000/h' })
  ).key;
  const prefixed = (await admin.createKey({ partnerId: 'iam', workspaces: ['iam:*'], allowShared: true })).key;
  const base = `${server.baseUrl}`;
  const as = async (fn: string, method: string, path: string, options: Parameters<typeof call>[3] = {}) => {
    current = fn;
    return call(base, method, path, options);
  };
  const signal = (workspace: string, i: number) => ({
    workspace_id: workspace,
    source: 'email',
    sender: `ops${i}@carrier.example`,
    subject: `Shipment ${i} delayed at customs`,
    body: 'The container is held at customs pending paperwork.',
  });

  for (const [key, ws] of [
    [exact, 'ws_iam'],
    [prefixed, 'iam:one'],
  ] as const) {
    const first = await as('Analyze', 'POST', '/signals/analyze', { key, body: signal(ws, 1) });
    expect(first.status).toBe(200);
    const idem = { 'idempotency-key': `iam-${ws}` };
    for (let i = 0; i < 2; i++) {
      expect(
        (await as('Analyze', 'POST', '/signals/analyze', { key, body: signal(ws, 2), headers: idem })).status,
      ).toBe(200);
    }
    const batch = { signals: [signal(ws, 3), signal(ws, 4)] };
    expect((await as('AnalyzeBatch', 'POST', '/signals/analyze-batch', { key, body: batch })).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const r = await as('AnalyzeBatch', 'POST', '/signals/analyze-batch', {
        key,
        body: batch,
        headers: { 'idempotency-key': `iam-batch-${ws}` },
      });
      expect(r.status).toBe(200);
    }
    // A batch whose decisions were not stored: its record is marked failed, and the replay puts them one by one.
    failBatchWrites = true;
    const lost = { 'idempotency-key': `iam-batch-lost-${ws}` };
    const failed = await as('AnalyzeBatch', 'POST', '/signals/analyze-batch', { key, body: batch, headers: lost });
    failBatchWrites = false;
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect(
      (await as('AnalyzeBatch', 'POST', '/signals/analyze-batch', { key, body: batch, headers: lost })).status,
    ).toBe(200);
    const id = first.json.decision_id as string;
    expect((await as('GetDecision', 'GET', `/decisions/${id}`, { key })).status).toBe(200);
    const list = await as('ListDecisions', 'GET', `/decisions?workspace_id=${encodeURIComponent(ws)}&limit=1`, { key });
    expect(list.status).toBe(200);
    const after = list.json.data[0].decision_id as string;
    expect(
      (
        await as('ListDecisions', 'GET', `/decisions?workspace_id=${encodeURIComponent(ws)}&starting_after=${after}`, {
          key,
        })
      ).status,
    ).toBe(200);
    const policyPath = `/workspaces/${encodeURIComponent(ws)}/policy`;
    expect((await as('GetPolicy', 'GET', policyPath, { key })).status).toBe(200);
    expect(
      (
        await as('PutPolicy', 'PUT', policyPath, {
          key,
          body: { keywords: [{ phrase: 'customs', weight: 5 }] },
          headers: { 'if-match': '"0"' },
        })
      ).status,
    ).toBe(200);
    // Feedback that teaches the workspace a category: the decision, its feedback and the model's label counts.
    const feedback = await as('Feedback', 'POST', `/decisions/${id}/feedback`, {
      key,
      body: { category: 'customs_hold', queue: 'logistics' },
    });
    expect(feedback.status).toBeLessThan(300);
    // Importing history (its record, counts, model item and audit event in transactions; a replay reads the record),
    // then forgetting it (the model item's new generation and its audit event).
    const examplesPath = `/workspaces/${encodeURIComponent(ws)}/examples`;
    const imported = { examples: [{ signal: signal(ws, 7), labels: { category: 'customs_hold' } }] };
    for (let i = 0; i < 2; i++) {
      expect(
        (
          await as('ImportExamples', 'POST', examplesPath, {
            key,
            body: imported,
            headers: { 'idempotency-key': `iam-import-${ws}` },
          })
        ).status,
      ).toBe(200);
    }
    // An entry an hour old: the next load folds it into the label items.
    const old = entryItem(ws, Date.now() - 2 * FOLD_AGE_MS, `f.iam${ws}.1`, 0, {
      sketch: { t: [1, 2, 3] },
      changes: [{ field: 'category', label: 'customs_hold', sign: 1 }],
    });
    await tables.client.send(new PutCommand({ TableName: learningTableOf(testSettings(tables)), Item: old }));
    const again = await as('Feedback', 'POST', `/decisions/${id}/feedback`, { key, body: { category: 'billing' } });
    expect(again.status).toBeLessThan(300);
    expect((await as('Analyze', 'POST', '/signals/analyze', { key, body: signal(ws, 5) })).status).toBe(200);
    expect((await as('ForgetModel', 'DELETE', `/workspaces/${encodeURIComponent(ws)}/model`, { key })).status).toBe(
      200,
    );
  }
  // Another workspace for a key whose (empty) prefix set is cached: only the exact grant is read.
  expect((await as('Analyze', 'POST', '/signals/analyze', { key: exact, body: signal('ws_other', 6) })).status).toBe(
    403,
  );
  expect((await as('Fallback', 'GET', '/nowhere')).status).toBe(404);
  expect((await as('Fallback', 'DELETE', '/signals/analyze')).status).toBe(405);

  const refused = recorded.filter((r) => !allows(grantsOf(r.fn), r.table, r.action, r.keys, r.index));
  expect(refused).toEqual([]);
  // The paths that matter were exercised: every function called, learning written, both grant paths taken.
  const seen = (fn: string, action: string, prefix: string) =>
    recorded.some((r) => r.fn === fn && r.action === action && r.keys.some((k) => k.startsWith(prefix)));
  for (const route of ROUTES) expect([route.id, recorded.some((r) => r.fn === route.id)]).toEqual([route.id, true]);
  // A feedback's entry, and a fold's claim and label shares (learning.ts: the item kinds are sort-key prefixes).
  expect(seen('Feedback', 'PutItem', 'e#')).toBe(true);
  expect(seen('Feedback', 'PutItem', 'c#')).toBe(true);
  expect(seen('Feedback', 'UpdateItem', 'm')).toBe(true);
  // An import is an entry, on the condition that the model's generation did not move, with its record.
  expect(seen('ImportExamples', 'PutItem', 'e#')).toBe(true);
  expect(seen('ImportExamples', 'ConditionCheckItem', 'm')).toBe(true);
  expect(seen('ForgetModel', 'PutItem', 'audit#')).toBe(true);
  expect(seen('ForgetModel', 'UpdateItem', 'm')).toBe(true);
  expect(seen('PutPolicy', 'PutItem', 'e#')).toBe(true);
  expect(seen('Analyze', 'PutItem', 'idem#')).toBe(true);
  expect(seen('AnalyzeBatch', 'BatchGetItem', 'decision#')).toBe(true);
  expect(seen('AnalyzeBatch', 'UpdateItem', 'idem#')).toBe(true);
  expect(seen('AnalyzeBatch', 'PutItem', 'decision#')).toBe(true);
  // The grant check's second path: the key's prefix set known, the exact grant read alone.
  expect(recorded.some((r) => r.action === 'GetItem' && r.keys[0].startsWith('grant#'))).toBe(true);
  expect(seen('Authorizer', 'GetItem', 'partner#')).toBe(true);
  expect(recorded.some((r) => r.fn === 'Fallback')).toBe(false);
});
