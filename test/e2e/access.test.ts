// docs/partners.md's Scopes and rate limits and the refusal order, over a real socket: prefix grants, scopes in the refusal order, and rate limit
// headers with 429 (the cross-instance accuracy is test/integration/rate-limit.test.ts).
import { ROUTES, SCOPES, type Scope } from '../../lambdas/contract/routes';
import { type TestApi, midHourClock, startTestApi } from '../support/local-api';
import { call, expectError } from '../support/http';

let api: TestApi;

const signal = (workspace_id: string) => ({
  workspace_id,
  source: 'email',
  subject: 'Invoice question',
  body: 'Could you resend the invoice for October?',
  sender: 'ann@customer.example',
  received_at: '2026-11-21T09:30:00Z',
});

/** A request to every route, with a key, in the shape the route takes (bodies deliberately minimal). */
function requestFor(route: (typeof ROUTES)[number]): { method: string; path: string; body?: unknown } {
  const path = route.path
    .replace('/api/v1', '')
    .replace('{decision_id}', 'dec_01JD2X5R8Q4T7W9Y3K6M1N0P2S')
    .replace('{workspace_id}', 'ws_a');
  return { method: route.method, path, body: route.method === 'GET' ? undefined : signal('ws_a') };
}

beforeAll(async () => {
  api = await startTestApi('access', {}, { clock: midHourClock() });
  await api.admin.createPartner({ id: 'acme', name: 'Acme' });
  await api.admin.createPartner({ id: 'sleepy', name: 'Sleepy' });
});
afterAll(async () => {
  await api?.close();
});

it('a prefix grant covers every workspace starting with it, and an ungrant takes effect', async () => {
  const { key, key_id } = await api.admin.createKey({ partnerId: 'acme', workspaces: ['acme:*', 'ws_one'] });
  for (const ws of ['acme:eu', 'acme:us:1', 'ws_one'])
    expect((await call(api.baseUrl, 'POST', '/signals/analyze', { key, body: signal(ws) })).status).toBe(200);
  for (const ws of ['acm', 'acmex', 'ws_two']) {
    expectError(
      await call(api.baseUrl, 'POST', '/signals/analyze', { key, body: signal(ws) }),
      403,
      'WORKSPACE_NOT_ALLOWED',
    );
  }
  await api.admin.ungrant(key_id, ['acme:*']);
  // AUTH_CACHE_TTL_SECONDS is 0 in tests: at once.
  expectError(
    await call(api.baseUrl, 'POST', '/signals/analyze', { key, body: signal('acme:eu') }),
    403,
    'WORKSPACE_NOT_ALLOWED',
  );
  expect((await call(api.baseUrl, 'POST', '/signals/analyze', { key, body: signal('ws_one') })).status).toBe(200);
});

describe('scopes (403 INSUFFICIENT_SCOPE right after ACCOUNT_INACTIVE)', () => {
  const subsets: Scope[][] = [[], ...SCOPES.map((s) => [s]), ['analyze', 'read'], [...SCOPES]];
  it.each(ROUTES.map((r) => [r.id, r] as const))(
    '%s answers by the scope it needs, for every subset',
    async (_id, route) => {
      for (const scopes of subsets) {
        const { key } = await api.admin.createKey({
          partnerId: 'acme',
          workspaces: ['ws_a'],
          scopes: scopes.length ? scopes : undefined,
        });
        if (!scopes.length) continue; // an empty --scope list means the default (all four), tested below
        const { method, path, body } = requestFor(route);
        const reply = await call(api.baseUrl, method, path, { key, body });
        if (scopes.includes(route.scope)) expect(reply.json?.error?.code).not.toBe('INSUFFICIENT_SCOPE');
        else {
          expectError(reply, 403, 'INSUFFICIENT_SCOPE');
          expect(reply.json.error.message).toContain(`"${route.scope}"`);
        }
      }
    },
  );

  it('comes after 401 and ACCOUNT_INACTIVE and before 413, 415 and INVALID_JSON', async () => {
    const readOnly = (await api.admin.createKey({ partnerId: 'acme', workspaces: ['ws_a'], scopes: ['read'] })).key;
    const sleepy = (await api.admin.createKey({ partnerId: 'sleepy', workspaces: ['ws_sleepy'], scopes: ['read'] }))
      .key;
    await api.admin.setPartnerStatus('sleepy', 'suspended');
    expectError(
      await call(api.baseUrl, 'POST', '/signals/analyze', { headers: {}, body: signal('ws_a') }),
      401,
      'UNAUTHORIZED',
    );
    expectError(
      await call(api.baseUrl, 'POST', '/signals/analyze', { key: sleepy, body: signal('ws_a') }),
      403,
      'ACCOUNT_INACTIVE',
    );
    const big = 'x'.repeat(300 * 1024);
    expectError(
      await call(api.baseUrl, 'POST', '/signals/analyze', {
        key: readOnly,
        rawBody: big,
        headers: { 'content-type': 'text/plain' },
      }),
      403,
      'INSUFFICIENT_SCOPE',
    );
    expectError(
      await call(api.baseUrl, 'POST', '/signals/analyze', {
        key: readOnly,
        rawBody: '{',
        headers: { 'content-type': 'application/json' },
      }),
      403,
      'INSUFFICIENT_SCOPE',
    );
  });
});

describe('rate limits', () => {
  it('sends the IETF headers on every response of a limited key, and 429 with Retry-After over the limit', async () => {
    const { key } = await api.admin.createKey({ partnerId: 'acme', workspaces: ['ws_a'], rateLimit: '3/h' });
    const replies = [];
    for (let i = 0; i < 3; i++)
      replies.push(await call(api.baseUrl, 'POST', '/signals/analyze', { key, body: signal('ws_a') }));
    // A refusal later in the order still counts (429 comes before the route's own checks).
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200]);
    for (const [i, reply] of replies.entries()) {
      expect(reply.headers.get('ratelimit-policy')).toBe('"default";q=3;w=3600');
      expect(reply.headers.get('ratelimit')).toMatch(new RegExp(`^"default";r=${2 - i};t=\\d+$`));
    }
    const refused = await call(api.baseUrl, 'POST', '/signals/analyze', { key, body: signal('ws_a') });
    expectError(refused, 429, 'RATE_LIMITED');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(refused.headers.get('ratelimit')).toBe(`"default";r=0;t=${retryAfter}`);
    expect(refused.headers.get('ratelimit-policy')).toBe('"default";q=3;w=3600');
    // GET of a decision spends from the same limit.
    expectError(
      await call(api.baseUrl, 'GET', '/decisions/dec_01JD2X5R8Q4T7W9Y3K6M1N0P2S', { key }),
      429,
      'RATE_LIMITED',
    );
  });

  it('a scope refusal spends none of the limit; an unlimited key gets no rate limit headers', async () => {
    const { key, key_id } = await api.admin.createKey({
      partnerId: 'acme',
      workspaces: ['ws_a'],
      scopes: ['read'],
      rateLimit: '1/h',
    });
    for (let i = 0; i < 3; i++) {
      const refused = await call(api.baseUrl, 'POST', '/signals/analyze', { key, body: signal('ws_a') });
      expectError(refused, 403, 'INSUFFICIENT_SCOPE');
      expect(refused.headers.get('ratelimit')).toMatch(/^"default";r=1;t=\d+$/);
    }
    expectError(
      await call(api.baseUrl, 'GET', '/decisions/dec_01JD2X5R8Q4T7W9Y3K6M1N0P2S', { key }),
      404,
      'DECISION_NOT_FOUND',
    );
    expectError(
      await call(api.baseUrl, 'GET', '/decisions/dec_01JD2X5R8Q4T7W9Y3K6M1N0P2S', { key }),
      429,
      'RATE_LIMITED',
    );
    await api.admin.setRateLimit(key_id, null);
    const free = await call(api.baseUrl, 'GET', '/decisions/dec_01JD2X5R8Q4T7W9Y3K6M1N0P2S', { key });
    expectError(free, 404, 'DECISION_NOT_FOUND');
    expect(free.headers.get('ratelimit')).toBeNull();
    expect(free.headers.get('ratelimit-policy')).toBeNull();
  });
});
