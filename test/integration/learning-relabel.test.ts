// A partner corrects its own corrections through one container (docs/learning.md, "Online"): that container decides
// with each decision counted once, under its latest label, at once — not under both labels until its cache's TTL
// has passed (a relabel's removals wait for the read that returns its entry; the next request makes that read).
import { apiEvents, inProcess } from '../../bin/bench/requests';
import { type Service, createService } from '../../lambdas/service';
import { AdminService } from '../../lib/admin';
import { DynamoAccessStore } from '../../lambdas/stores/access-store';
import { type TestTables, createTestTables } from '../support/dynamodb';
import { partnerWithKey, testSettings } from '../support/local-api';

let tables: TestTables;
let key: string;
let service: Service;

beforeAll(async () => {
  tables = await createTestTables('relabel');
  const admin = new AdminService(new DynamoAccessStore(tables.client, tables.names.access, tables.names.decisions));
  ({ key } = await partnerWithKey(admin, 'acme', ['ws_relabel']));
  service = createService({ ...testSettings(tables), workspaceCacheTtlSeconds: 300 }, { client: tables.client });
});
afterAll(async () => {
  service?.close();
  await tables?.drop();
});

async function send(path: string, body: unknown) {
  const reply = await inProcess(
    service,
    apiEvents({ key, method: 'POST', path: `/api/v1${path}`, body: JSON.stringify(body) }),
  );
  return { status: reply.statusCode, json: JSON.parse(reply.body) };
}

const statement = (n: number | string) => ({
  workspace_id: 'ws_relabel',
  source: 'email',
  subject: `Quarterly supplier statement ${n}`,
  body: 'Attached is the quarterly statement of account for your records.',
  sender: 'statements@supplier.example',
});

it('counts a relabelled decision once, under its new label, in the container that took the relabel', async () => {
  const ids: string[] = [];
  for (let n = 0; n < 5; n++) ids.push((await send('/signals/analyze', statement(n))).json.decision_id);
  for (const id of ids)
    expect((await send(`/decisions/${id}/feedback`, { category: 'cat_wrong', queue: 'q_wrong' })).status).toBe(200);
  expect((await send('/signals/analyze', statement('a'))).json).toMatchObject({ category: 'cat_wrong' });

  for (const id of ids.slice(0, 3))
    expect((await send(`/decisions/${id}/feedback`, { category: 'cat_right', queue: 'q_right' })).status).toBe(200);
  const after = (await send('/signals/analyze', statement('b'))).json;
  // Three of five now say cat_right: five decisions, each counted once for category and once for queue.
  expect(after).toMatchObject({ category: 'cat_right', queue: 'q_right' });
  expect(after.model_version).toMatch(/\+ws\.10$/);

  // A fresh container's load agrees.
  const fresh = createService(testSettings(tables), { client: tables.client });
  const state = await fresh.dependencies.workspaceStore.loadState('ws_relabel');
  fresh.close();
  expect(state.model.labels.map((l) => [l.field, l.label, l.docs]).sort()).toEqual([
    ['category', 'cat_right', 3],
    ['category', 'cat_wrong', 2],
    ['queue', 'q_right', 3],
    ['queue', 'q_wrong', 2],
  ]);
});
