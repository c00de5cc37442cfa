// Review of analyze, analyze-batch and import over a real socket: received_at at the edge of what RFC 3339 can
// write, and the RateLimit headers of every refusal of a batch, an import or a list (docs/openapi.yaml must document
// them).
import { call, expectError } from '../support/http';
import { type TestApi, startTestApi } from '../support/local-api';

let api: TestApi;
let key: string;
let limitedKey: string;

beforeAll(async () => {
  api = await startTestApi('analyzereview');
  await api.admin.createPartner({ id: 'acme', name: 'Acme', status: 'active' });
  key = (await api.admin.createKey({ partnerId: 'acme', workspaces: ['ws_a'] })).key;
  limitedKey = (await api.admin.createKey({ partnerId: 'acme', workspaces: ['ws_a'], rateLimit: '1000/h' })).key;
}, 60_000);
afterAll(async () => api?.close());

const signal = (overrides: Record<string, unknown> = {}) => ({
  workspace_id: 'ws_a',
  source: 'email',
  subject: 'Checkout is down',
  body: 'Production outage: customers cannot pay.',
  sender: 'ops@example.com',
  ...overrides,
});

describe('received_at', () => {
  it('refuses a time whose UTC instant falls before year 0000, which RFC 3339 cannot write', async () => {
    // 00:30 on 1 January of year 0 at +01:00 is 23:30 on 31 December of year -1 in UTC.
    const reply = await call(api.baseUrl, 'POST', '/signals/analyze', {
      key,
      body: signal({ received_at: '0000-01-01T00:30:00+01:00' }),
    });
    expectError(reply, 400, 'VALIDATION_ERROR');
    expect(reply.json.error.details).toEqual([{ field: 'received_at', message: expect.any(String) }]);

    const batch = await call(api.baseUrl, 'POST', '/signals/analyze-batch', {
      key,
      body: { signals: [signal({ received_at: '0000-01-01T00:30:00+01:00' })] },
    });
    expect(batch.status).toBe(200);
    expect(batch.json.data[0].error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ field: 'signals[0].received_at', message: expect.any(String) }],
    });
  });

  it('keeps the earliest instant RFC 3339 can write, and GET answers it as analyze did', async () => {
    const reply = await call(api.baseUrl, 'POST', '/signals/analyze', {
      key,
      body: signal({ received_at: '0000-01-01T01:00:00+01:00' }),
    });
    expect(reply.status).toBe(200);
    expect(reply.json.received_at).toBe('0000-01-01T00:00:00Z');
    const read = await call(api.baseUrl, 'GET', `/decisions/${reply.json.decision_id}`, { key });
    expect(read.text).toBe(reply.text);
  });
});
describe('RateLimit headers on refusals of a batch, an import or a list (documented in docs/openapi.yaml)', () => {
  const limited = (path: string, options: { body?: unknown; rawBody?: string; headers?: Record<string, string> }) =>
    call(api.baseUrl, 'POST', path, { key: limitedKey, ...options });

  it('sends them with a batch envelope refused 400, and spends nothing', async () => {
    // A key of its own: the others' refusals (a list query's counts) spend the shared key's window, in any order.
    const own = (await api.admin.createKey({ partnerId: 'acme', workspaces: ['ws_a'], rateLimit: '1000/h' })).key;
    const limited = (path: string, options: { body?: unknown }) =>
      call(api.baseUrl, 'POST', path, { key: own, ...options });
    const reply = await limited('/signals/analyze-batch', { body: { signals: [] } });
    expectError(reply, 400, 'VALIDATION_ERROR');
    expect(reply.headers.get('ratelimit-policy')).toBe('"default";q=1000;w=3600');
    expect(reply.headers.get('ratelimit')).toMatch(/^"default";r=1000;t=\d+$/);
    // docs/partners.md, "Scopes and rate limits": an import refused for its path's workspace spends nothing either.
    const other = await limited('/workspaces/ws_other/examples', { body: { examples: [{}] } });
    expectError(other, 403, 'WORKSPACE_NOT_ALLOWED');
    expect(other.headers.get('ratelimit')).toMatch(/^"default";r=1000;t=\d+$/);
  });

  it('sends them with a batch or an import over 1 MiB (413)', async () => {
    const big = JSON.stringify({ signals: [signal({ body: 'x'.repeat(1024 * 1024) })] });
    const headers = { 'content-type': 'application/json' };
    const batch = await limited('/signals/analyze-batch', { rawBody: big, headers });
    expectError(batch, 413, 'PAYLOAD_TOO_LARGE');
    expect(batch.headers.get('ratelimit-policy')).toBe('"default";q=1000;w=3600');
    const imported = await limited('/workspaces/ws_a/examples', { rawBody: big, headers });
    expectError(imported, 413, 'PAYLOAD_TOO_LARGE');
    expect(imported.headers.get('ratelimit-policy')).toBe('"default";q=1000;w=3600');
  });

  it('sends them with a list query refused 400', async () => {
    const reply = await call(api.baseUrl, 'GET', '/decisions?workspace_id=ws_a&limit=0', { key: limitedKey });
    expectError(reply, 400, 'VALIDATION_ERROR');
    expect(reply.headers.get('ratelimit-policy')).toBe('"default";q=1000;w=3600');
  });
});
