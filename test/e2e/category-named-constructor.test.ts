// A workspace's own category or queue may be any name matching ^[a-z][a-z0-9_]{0,63}$ (docs/partners.md, Workspace
// policy), `constructor` included: the one such name that is also a property of every JavaScript object. Over a real
// socket: a policy routing it is stored (not a 500), and a decision in that category has a queue (not none at all).
import { call, expectError } from '../support/http';
import { type TestApi, partnerWithKey, startTestApi } from '../support/local-api';

jest.setTimeout(60_000);

let api: TestApi;
let key: string;

beforeAll(async () => {
  api = await startTestApi('ctor-name', { workspaceCacheTtlSeconds: 0 });
  ({ key } = await partnerWithKey(api.admin, 'acme', ['ws_ctor_policy', 'ws_ctor_kw', 'ws_ctor_learn']));
}, 60_000);
afterAll(async () => api?.close());

const analyze = (body: Record<string, unknown>) => call(api.baseUrl, 'POST', '/signals/analyze', { key, body });

it('stores a policy whose routing maps the category `constructor`, and answers it as sent', async () => {
  const policy = { routing: { constructor: 'builders' } };
  const put = await call(api.baseUrl, 'PUT', '/workspaces/ws_ctor_policy/policy', { key, body: policy });
  expect(put.status).toBe(200); // was 500 INTERNAL_ERROR: the DynamoDB marshaller refused the map
  expect(put.json).toEqual({ ...policy, version: 1, updated_at: expect.any(String) });
  const got = await call(api.baseUrl, 'GET', '/workspaces/ws_ctor_policy/policy', { key });
  expect(got.json).toEqual(put.json);
  // Replacing it writes the old routing into the audit event's `before`: that must store too.
  const again = await call(api.baseUrl, 'PUT', '/workspaces/ws_ctor_policy/policy', { key, body: { learning: true } });
  expect(again.status).toBe(200);
  expect(again.json.version).toBe(2);
  const refused = await call(api.baseUrl, 'PUT', '/workspaces/ws_ctor_policy/policy', {
    key,
    body: { routing: { constructor: 'Not A Queue' } },
  });
  expectError(refused, 400, 'VALIDATION_ERROR');
});

it('gives a decision a queue when a keyword sets the category `constructor`', async () => {
  const put = await call(api.baseUrl, 'PUT', '/workspaces/ws_ctor_kw/policy', {
    key,
    body: { keywords: [{ phrase: 'scaffolding', weight: 5, category: 'constructor' }] },
  });
  expect(put.status).toBe(200);
  const decision = await analyze({ workspace_id: 'ws_ctor_kw', source: 'task', subject: 'Order the scaffolding' });
  expect(decision.status).toBe(200);
  expect(decision.json.category).toBe('constructor');
  expect(typeof decision.json.queue).toBe('string'); // was absent: the queue was Object.prototype.constructor
  const stored = await call(api.baseUrl, 'GET', `/decisions/${decision.json.decision_id}`, { key });
  expect(stored.json).toEqual(decision.json);
});

it('gives a decision a queue when the workspace learned the category `constructor` from feedback', async () => {
  const signal = (i: number) => ({
    workspace_id: 'ws_ctor_learn',
    source: 'email',
    sender: 'ops@vendor.example',
    subject: `Vendor invoice ${i} attached`,
    body: 'Please find the vendor invoice attached for payment.',
  });
  for (let i = 0; i < 6; i++) {
    const d = await analyze(signal(i));
    const fb = await call(api.baseUrl, 'POST', `/decisions/${d.json.decision_id}/feedback`, {
      key,
      body: { category: 'constructor' },
    });
    expect(fb.status).toBe(200);
  }
  const decision = await analyze(signal(99));
  expect(decision.status).toBe(200);
  expect(decision.json.category).toBe('constructor');
  expect(typeof decision.json.queue).toBe('string');
  const listed = await call(api.baseUrl, 'GET', '/decisions?workspace_id=ws_ctor_learn&limit=1', { key });
  expect(listed.json.data[0]).toEqual(decision.json);
});
