// GET /decisions over the real HTTP path: newest first, cursor paging that sees every decision exactly once while
// new ones arrive, filters, the refusal order and strict parameters.
import { type TestApi, partnerWithKey, startTestApi } from '../support/local-api';
import { call, expectError } from '../support/http';

jest.setTimeout(120_000);

let api: TestApi;
let key: string;
let otherKey: string;
const signal = (i: number, ws = 'ws_list') => ({
  workspace_id: ws,
  source: 'task',
  subject: i % 3 === 0 ? `Production outage ${i}: checkout is down for everyone` : `Please review report ${i}`,
});

async function analyze(i: number, ws = 'ws_list'): Promise<any> {
  const reply = await call(api.baseUrl, 'POST', '/signals/analyze', { key, body: signal(i, ws) });
  expect(reply.status).toBe(200);
  return reply.json;
}

const list = (query: string, k = key) => call(api.baseUrl, 'GET', `/decisions?${query}`, { key: k });

/** Every decision id of the workspace, by paging with `starting_after`. */
async function pageThrough(query: string, limit: number, during?: () => Promise<void>): Promise<string[]> {
  const ids: string[] = [];
  let after: string | undefined;
  for (;;) {
    const reply = await list(`${query}&limit=${limit}${after ? `&starting_after=${after}` : ''}`);
    expect(reply.status).toBe(200);
    ids.push(...reply.json.data.map((d: { decision_id: string }) => d.decision_id));
    if (reply.json.has_more) expect(reply.json.data).toHaveLength(limit);
    if (!reply.json.has_more) return ids;
    after = ids[ids.length - 1];
    await during?.();
  }
}

const created: any[] = [];
beforeAll(async () => {
  api = await startTestApi('list');
  ({ key } = await partnerWithKey(api.admin, 'acme', ['ws_list', 'ws_other', 'ws_paging']));
  ({ key: otherKey } = await partnerWithKey(api.admin, 'globex', ['ws_globex']));
  for (let i = 0; i < 25; i++) created.push(await analyze(i));
  await analyze(100, 'ws_other');
});
afterAll(async () => {
  await api?.close();
});

it('lists the workspace newest first, each decision exactly as GET returns it, 20 by default', async () => {
  const reply = await list('workspace_id=ws_list');
  expect(reply.status).toBe(200);
  expect(reply.json.object).toBe('list');
  expect(reply.json.has_more).toBe(true);
  expect(reply.json.data).toHaveLength(20);
  const ids = reply.json.data.map((d: any) => d.decision_id);
  expect(ids).toEqual([...ids].sort().reverse());
  expect(reply.json.data[0]).toEqual(created[created.length - 1]);
  const one = await call(api.baseUrl, 'GET', `/decisions/${ids[5]}`, { key });
  expect(reply.json.data[5]).toEqual(one.json);
});

it('pages through every decision exactly once while new decisions arrive', async () => {
  // A workspace of its own: the decisions arriving here would otherwise be the newest of ws_list, which the other tests
  // read as beforeAll's 25.
  const mine: any[] = [];
  for (let i = 0; i < 25; i++) mine.push(await analyze(i, 'ws_paging'));
  let extra = 0;
  const ids = await pageThrough('workspace_id=ws_paging', 4, async () => {
    await analyze(1000 + extra++, 'ws_paging');
  });
  expect(new Set(ids).size).toBe(ids.length);
  // Everything that existed before paging started is there; the newer ones are above the first page.
  expect(ids.slice(0, 25).sort()).toEqual(mine.map((d) => d.decision_id).sort());
  expect(ids).toHaveLength(25);
  // A fresh pass sees the new ones too, each once.
  const again = await pageThrough('workspace_id=ws_paging', 7);
  expect(again).toHaveLength(25 + extra);
  expect(new Set(again).size).toBe(again.length);
});

it('filters by priority and by created_after / created_before (both exclusive)', async () => {
  const all = await pageThrough('workspace_id=ws_list', 100);
  const everything = (await list('workspace_id=ws_list&limit=100')).json.data as any[];
  expect(everything.map((d) => d.decision_id)).toEqual(all);

  const high = everything.filter((d) => d.priority === 'high' || d.priority === 'critical');
  expect(high.length).toBeGreaterThan(0);
  const filtered = await list('workspace_id=ws_list&limit=100&priority=high,critical');
  expect(filtered.json.data.map((d: any) => d.decision_id)).toEqual(high.map((d) => d.decision_id));
  // Paging a filtered list keeps full pages while more follow.
  expect(await pageThrough('workspace_id=ws_list&priority=high,critical', 2)).toEqual(high.map((d) => d.decision_id));

  const pivot = everything[10];
  const after = await list(`workspace_id=ws_list&limit=100&created_after=${encodeURIComponent(pivot.created_at)}`);
  expect(after.json.data.every((d: any) => d.created_at > pivot.created_at)).toBe(true);
  expect(after.json.data.map((d: any) => d.decision_id)).toEqual(
    everything.filter((d) => d.created_at > pivot.created_at).map((d) => d.decision_id),
  );
  const before = await list(`workspace_id=ws_list&limit=100&created_before=${encodeURIComponent(pivot.created_at)}`);
  expect(before.json.data.map((d: any) => d.decision_id)).toEqual(
    everything.filter((d) => d.created_at < pivot.created_at).map((d) => d.decision_id),
  );
  const none = await list('workspace_id=ws_list&created_after=2999-01-01T00:00:00Z');
  expect(none.json).toEqual({ object: 'list', data: [], has_more: false });
});

it('puts a bound a nanosecond off a decision on the right side of it, and reads an unescaped + offset', async () => {
  const everything = (await list('workspace_id=ws_list&limit=100')).json.data as any[];
  const pivot = everything[10];
  const ids = async (query: string) =>
    ((await list(`workspace_id=ws_list&limit=100&${query}`)).json.data as any[]).map((d) => d.decision_id);
  const before = everything.filter((d) => d.created_at <= pivot.created_at).map((d) => d.decision_id);
  const after = everything.filter((d) => d.created_at >= pivot.created_at).map((d) => d.decision_id);
  // A nanosecond after the decision's millisecond, and a nanosecond before it (Go's RFC3339Nano writes nine digits).
  expect(await ids(`created_before=${pivot.created_at.replace('Z', '000001Z')}`)).toEqual(before);
  const justBefore = new Date(Date.parse(pivot.created_at) - 1).toISOString().replace('Z', '999999Z');
  expect(await ids(`created_after=${justBefore}`)).toEqual(after);
  // A `+` left unescaped arrives as a space; it is read as the offset's sign, not refused.
  const plus = pivot.created_at.replace('Z', '+00:00');
  expect(await ids(`created_after=${plus}`)).toEqual(await ids(`created_after=${encodeURIComponent(plus)}`));
  expect(await ids(`created_after=${plus}`)).toEqual(after.filter((id) => id !== pivot.decision_id));
  // A date that does not exist is named so, not as a timestamp without Z or an offset.
  const feb30 = await list('workspace_id=ws_list&created_before=2026-02-30T00:00:00Z');
  expect(feb30.json.error.details).toEqual([{ field: 'created_before', message: expect.stringContaining('exists') }]);
});

it('keeps workspaces apart', async () => {
  const other = await list('workspace_id=ws_other');
  expect(other.json.data).toHaveLength(1);
  expect(other.json.data[0].workspace_id).toBe('ws_other');
});

it('refuses in the contract order: workspace_id, then the grant, then the other parameters', async () => {
  expectError(await list('limit=5'), 400, 'VALIDATION_ERROR');
  const malformed = await list('workspace_id=bad%20ws&limit=0');
  expectError(malformed, 400, 'VALIDATION_ERROR');
  expect(malformed.json.error.details.map((d: any) => d.field)).toEqual(['workspace_id']);
  // No grant: 403 even with bad other parameters.
  expectError(await list('workspace_id=ws_list&limit=0', otherKey), 403, 'WORKSPACE_NOT_ALLOWED');
  const bad = await list('workspace_id=ws_list&limit=0&priority=urgent&created_after=yesterday&sort=asc');
  expectError(bad, 400, 'VALIDATION_ERROR');
  expect(bad.json.error.details.map((d: any) => d.field).sort()).toEqual([
    'created_after',
    'limit',
    'priority',
    'sort',
  ]);
  for (const query of [
    'limit=101',
    'limit=1.5',
    'limit=1&limit=2',
    'workspace_id=ws_list',
    'created_before=2026-13-01T00:00:00Z',
    // Names an object's prototype holds are parameters like any other: unknown.
    '__proto__=1',
    'constructor=1',
  ]) {
    expectError(await list(`workspace_id=ws_list&${query}`), 400, 'VALIDATION_ERROR');
  }
  expectError(await call(api.baseUrl, 'GET', '/decisions?workspace_id=ws_list'), 401, 'UNAUTHORIZED');
});

it('says a parameter given twice arrived joined with commas, as API Gateway hands it over', async () => {
  for (const [query, field] of [
    ['workspace_id=ws_list&workspace_id=ws_list', 'workspace_id'],
    ['workspace_id=ws_list&limit=1&limit=2', 'limit'],
  ]) {
    const reply = await list(query);
    expectError(reply, 400, 'VALIDATION_ERROR');
    expect(reply.json.error.details).toEqual([{ field, message: expect.stringContaining('given more than once') }]);
  }
  const once = await list('workspace_id=ws_list&limit=0');
  expect(once.json.error.details[0].message).not.toContain('given more than once');
});

it('accepts as starting_after only a decision id of the same workspace', async () => {
  const otherWs = (await list('workspace_id=ws_other')).json.data[0].decision_id;
  for (const cursor of [otherWs, 'dec_01M7YP0Z169DWN2DAG06SFY9E9', 'nope']) {
    const reply = await list(`workspace_id=ws_list&starting_after=${cursor}`);
    expectError(reply, 400, 'VALIDATION_ERROR');
    expect(reply.json.error.details).toEqual([{ field: 'starting_after', message: expect.any(String) }]);
  }
  const last = created[0].decision_id;
  expect((await list(`workspace_id=ws_list&starting_after=${last}`)).json).toEqual({
    object: 'list',
    data: [],
    has_more: false,
  });
});

it('answers 405 with Allow: GET for another method on /decisions', async () => {
  const reply = await call(api.baseUrl, 'DELETE', '/decisions?workspace_id=ws_list', { key });
  expectError(reply, 405, 'METHOD_NOT_ALLOWED');
  expect(reply.headers.get('allow')).toBe('GET');
});
