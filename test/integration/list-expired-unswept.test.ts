// Listing a workspace whose older decisions are past their retention but not yet deleted (docs/operations.md:
// DynamoDB's TTL sweep can lag a day or more). The listing index still holds them; a page after the last live decision
// read through every one of them, 101 a round trip, and tens of thousands outlasted the function's timeout (a 500).
// Only the retention period is read now. The route in process, its reads counted on its own client.
import { apiEvents, inProcess } from '../../bin/bench/requests';
import { buildDecision } from '../../lambdas/domain/decision';
import { scoreSignal } from '../../lambdas/domain/engine';
import { ulidTime } from '../../lambdas/domain/ids';
import { type Service, createService } from '../../lambdas/service';
import { batchWriteAll } from '../../lambdas/stores/batch-writes';
import { createDocumentClient } from '../../lambdas/stores/dynamodb-client';
import { decisionItem } from '../../lambdas/stores/decision-store';
import { AdminService } from '../../lib/admin';
import { DynamoAccessStore } from '../../lambdas/stores/access-store';
import { type TestTables, createTestTables, testEndpoint } from '../support/dynamodb';
import { partnerWithKey, testSettings } from '../support/local-api';

const DAY_MS = 24 * 60 * 60 * 1000;
const RETENTION_DAYS = 90; // the test settings keep DECISION_RETENTION_DAYS's default
const EXPIRED = 600;

let tables: TestTables;
let service: Service;
let key: string;
let queries = 0;

beforeAll(async () => {
  tables = await createTestTables('list-unswept');
  const admin = new AdminService(new DynamoAccessStore(tables.client, tables.names.access, tables.names.decisions));
  ({ key } = await partnerWithKey(admin, 'acme', ['ws_unswept']));
  const client = createDocumentClient({ endpoint: testEndpoint(), requestTimeoutMs: 4_000 });
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'QueryCommand') queries++;
      return next(args);
    },
    { step: 'initialize', name: 'countQueries' },
  );
  service = createService(testSettings(tables), { client });
  // Decisions made 91 to 95 days ago, stored with the retention of their day: expired, and not swept yet.
  const signal = { workspace_id: 'ws_unswept', source: 'task' as const, subject: 'Weekly report' };
  const owner = { partner_id: 'acme', key_id: 'key_seed' };
  const items = Array.from({ length: EXPIRED }, (_, i) => {
    const madeMs = Date.now() - (RETENTION_DAYS + 1) * DAY_MS - i * 600_000;
    const id = `dec_${ulidTime(madeMs)}${String(i).padStart(16, '0')}`;
    const made = new Date(madeMs).toISOString();
    const ids = {
      decision_id: id,
      workspace_id: signal.workspace_id,
      source: signal.source,
      received_at: made,
      created_at: made,
    };
    const decision = buildDecision(ids, scoreSignal({ ...signal, received_at: made }, new Date(madeMs)));
    return { PutRequest: { Item: decisionItem(decision, owner, madeMs, RETENTION_DAYS) } };
  });
  await batchWriteAll(tables.client, tables.names.decisions, items);
});
afterAll(async () => {
  service?.dependencies.client.destroy();
  await tables?.drop();
});

const list = async (query: string) => {
  const reply = await inProcess(service, apiEvents({ key, method: 'GET', path: '/api/v1/decisions', query }));
  return { status: reply.statusCode, json: JSON.parse(reply.body ?? 'null') };
};

it('answers the page after the last live decision without reading the expired ones behind it', async () => {
  const live = [];
  for (let i = 0; i < 2; i++) {
    const body = JSON.stringify({ workspace_id: 'ws_unswept', source: 'task', subject: `Report ${i}` });
    const reply = await inProcess(service, apiEvents({ key, method: 'POST', path: '/api/v1/signals/analyze', body }));
    live.push(JSON.parse(reply.body ?? '{}').decision_id);
  }
  // The store's first Query of a container also asks whether the table still has the retired listing index.
  await list('workspace_id=ws_unswept&limit=1');
  queries = 0;
  const page = await list('workspace_id=ws_unswept&limit=100');
  expect(page.status).toBe(200);
  expect(page.json.data.map((d: { decision_id: string }) => d.decision_id)).toEqual([...live].reverse());
  expect(page.json.has_more).toBe(false);
  // One Query per priority partition, however many expired decisions the index still holds.
  expect(queries).toBeLessThanOrEqual(4);
  // And a cursor at the older live one: the same, an empty page with nothing more.
  queries = 0;
  const next = await list(`workspace_id=ws_unswept&limit=100&starting_after=${live[0]}`);
  expect(next.json).toEqual({ object: 'list', data: [], has_more: false });
  expect(queries).toBeLessThanOrEqual(4);
});
