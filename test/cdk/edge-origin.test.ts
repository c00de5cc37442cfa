// The origin check of edge protection, over the local HTTP API (the same handlers the Lambdas run): with a secret
// set, a request without the header CloudFront adds is refused 403 FORBIDDEN on every path, before its key, its 404
// and its 405; with the header it is served as usual; with no secret (the default) nothing is required.
import { EDGE_ORIGIN_HEADER, bypassedEdge } from '../../lambdas/http/edge-origin';
import { type TestApi, partnerWithKey, startTestApi } from '../support/local-api';

const SECRET = 'edge-test-secret-0123456789abcdef';

async function send(api: TestApi, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(api.baseUrl + path, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: JSON.parse(text), requestId: res.headers.get('x-request-id') };
}

describe('with edge protection on', () => {
  let api: TestApi;
  let key: string;
  beforeAll(async () => {
    api = await startTestApi('edgeon', { edgeOriginSecret: SECRET });
    ({ key } = await partnerWithKey(api.admin, 'edge', ['ws_edge']));
  }, 60_000);
  afterAll(async () => api?.close());

  const signal = { workspace_id: 'ws_edge', source: 'email', subject: 'Outage', body: 'Checkout is down.' };
  const cases: [string, string, string, Record<string, string>, unknown][] = [
    ['a valid key and body', 'POST', '/signals/analyze', {}, signal],
    ['no key', 'POST', '/signals/analyze', {}, signal],
    ['an unknown path (404 otherwise)', 'GET', '/nowhere', {}, undefined],
    ['a wrong method (405 otherwise)', 'DELETE', '/signals/analyze', {}, undefined],
    [
      'a wrong header value',
      'GET',
      '/decisions?workspace_id=ws_edge',
      { [EDGE_ORIGIN_HEADER]: `${SECRET}x` },
      undefined,
    ],
    ['an invalid body', 'POST', '/signals/analyze', {}, { nope: true }],
  ];

  it.each(cases)(
    'refuses a request that bypassed CloudFront with 403 FORBIDDEN first: %s',
    async (name, method, path, extra, body) => {
      const headers: Record<string, string> = { ...extra };
      if (name !== 'no key') headers.authorization = `Bearer ${key}`;
      const reply = await send(api, method, path, headers, body);
      expect({ status: reply.status, code: reply.json.error?.code }).toEqual({ status: 403, code: 'FORBIDDEN' });
      expect(Object.keys(reply.json)).toEqual(['error']);
      expect(reply.json.error.request_id).toBe(reply.requestId);
      expect(JSON.stringify(reply.json)).not.toContain(SECRET);
    },
  );

  it('serves a request that carries the header as usual, 404/405 and key checks included', async () => {
    const through = { [EDGE_ORIGIN_HEADER]: SECRET };
    expect(
      (await send(api, 'POST', '/signals/analyze', { ...through, authorization: `Bearer ${key}` }, signal)).status,
    ).toBe(200);
    expect((await send(api, 'POST', '/signals/analyze', through, signal)).json.error.code).toBe('UNAUTHORIZED');
    expect((await send(api, 'GET', '/nowhere', through)).json.error.code).toBe('NOT_FOUND');
    expect((await send(api, 'DELETE', '/signals/analyze', through)).json.error.code).toBe('METHOD_NOT_ALLOWED');
  });
});

describe('with edge protection off (no secret)', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi('edgeoff');
  }, 60_000);
  afterAll(async () => api?.close());

  it('requires no header: the usual 401, 404 and 405', async () => {
    expect((await send(api, 'POST', '/signals/analyze', {}, {})).json.error.code).toBe('UNAUTHORIZED');
    expect((await send(api, 'GET', '/nowhere', {})).json.error.code).toBe('NOT_FOUND');
    expect((await send(api, 'DELETE', '/signals/analyze', {})).json.error.code).toBe('METHOD_NOT_ALLOWED');
  });
});

describe('bypassedEdge', () => {
  it('needs nothing without a secret, and the exact value with one, under any header case', () => {
    expect(bypassedEdge({}, undefined)).toBe(false);
    expect(bypassedEdge({}, '')).toBe(false);
    expect(bypassedEdge({}, SECRET)).toBe(true);
    expect(bypassedEdge({ [EDGE_ORIGIN_HEADER]: SECRET.slice(1) }, SECRET)).toBe(true);
    expect(bypassedEdge({ [EDGE_ORIGIN_HEADER]: '' }, SECRET)).toBe(true);
    expect(bypassedEdge({ 'X-Origin-Verify': SECRET }, SECRET)).toBe(false);
    expect(bypassedEdge(undefined, SECRET)).toBe(true);
  });
});
