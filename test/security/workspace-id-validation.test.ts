// Issue 21, finding 2: a workspace_id is checked against its pattern (1 to 128 of A-Z a-z 0-9 . _ : -) before any
// lookup or cache insert (docs/operations.md, "Worst-case work per request"). One no grant can match is answered like
// any workspace without a grant: 403 WORKSPACE_NOT_ALLOWED at its place in the order (in a batch, that item's error),
// never a 5xx, never cached; the list route keeps 400 VALIDATION_ERROR for a malformed query parameter. And the grant
// cache is bounded by bytes, so long keys cannot fill memory however many entries fit.
import { LruMap } from '../../lambdas/domain/lru';
import { GrantAccess } from '../../lambdas/application/workspace-access';
import { DynamoAccessStore } from '../../lambdas/stores/access-store';
import { type TestApi, startTestApi } from '../support/local-api';
import { call, expectError } from '../support/http';
import { allowedPrincipal } from '../support/access';

jest.setTimeout(120_000);

let api: TestApi;
let key: string;
let prefixKey: string;
let prefixKeyId: string;

const signal = (workspace_id: string) => ({
  workspace_id,
  source: 'email',
  subject: 'Production outage',
  body: 'Checkout is down.',
  sender: 'ops@example.com',
});
const tooLong = 'ws_' + 'x'.repeat(2_100);
const longUnderPrefix = 'acme:' + 'x'.repeat(200_000);

beforeAll(async () => {
  api = await startTestApi('sec-wsid');
  await api.admin.createPartner({ id: 'acme', name: 'Acme', status: 'active' });
  ({ key } = await api.admin.createKey({ partnerId: 'acme', workspaces: ['ws_a'] }));
  ({ key: prefixKey, key_id: prefixKeyId } = await api.admin.createKey({ partnerId: 'acme', workspaces: ['acme:*'] }));
});
afterAll(async () => {
  await api?.close();
});

describe('over HTTP', () => {
  it.each([
    ['2,100 characters', () => tooLong],
    ['129 characters', () => 'w'.repeat(129)],
    ['a character outside the pattern', () => 'ws_a/b'],
    ['empty', () => ''],
  ])('analyze with a workspace_id of %s: 403 WORKSPACE_NOT_ALLOWED', async (_what, id) => {
    const reply = await call(api.baseUrl, 'POST', '/signals/analyze', { key, body: signal(id()) });
    expectError(reply, 403, 'WORKSPACE_NOT_ALLOWED');
  });

  it('an id holding an API key under a prefix grant: 403, not a 500 from the audit log (a workspace id is logged and stored)', async () => {
    const keyed = `acme:${key}`;
    expectError(
      await call(api.baseUrl, 'POST', '/signals/analyze', { key: prefixKey, body: signal(keyed) }),
      403,
      'WORKSPACE_NOT_ALLOWED',
    );
    const put = await call(api.baseUrl, 'PUT', `/workspaces/${keyed}/policy`, { key: prefixKey, body: {} });
    expectError(put, 403, 'WORKSPACE_NOT_ALLOWED');
    expect(JSON.stringify(put.json)).not.toContain(key);
  });

  it('a key with a prefix grant cannot pass an id of 200,000 characters under its prefix: 403, not 5xx', async () => {
    const reply = await call(api.baseUrl, 'POST', '/signals/analyze', {
      key: prefixKey,
      body: signal(longUnderPrefix),
    });
    expectError(reply, 403, 'WORKSPACE_NOT_ALLOWED');
    // The prefix grant itself still works.
    expect(
      (await call(api.baseUrl, 'POST', '/signals/analyze', { key: prefixKey, body: signal('acme:eu') })).status,
    ).toBe(200);
  });

  it('in a batch, only the item with the bad id fails (WORKSPACE_NOT_ALLOWED); the others are decided', async () => {
    const reply = await call(api.baseUrl, 'POST', '/signals/analyze-batch', {
      key,
      body: { signals: [signal('ws_a'), signal(tooLong), signal('ws_a')] },
    });
    expect(reply.status).toBe(200);
    expect(reply.json.data.map((item: any) => (item.decision ? 'decision' : item.error.code))).toEqual([
      'decision',
      'WORKSPACE_NOT_ALLOWED',
      'decision',
    ]);
  });

  it('the policy path answers 403 for a bad id; the list route keeps 400 VALIDATION_ERROR naming workspace_id', async () => {
    expectError(
      await call(api.baseUrl, 'GET', `/workspaces/${'w'.repeat(2_100)}/policy`, { key }),
      403,
      'WORKSPACE_NOT_ALLOWED',
    );
    const list = await call(api.baseUrl, 'GET', `/decisions?workspace_id=${'w'.repeat(2_100)}`, { key });
    expectError(list, 400, 'VALIDATION_ERROR');
    expect(list.json.error.details).toEqual([{ field: 'workspace_id', message: expect.any(String) }]);
  });
});

describe('the grant cache', () => {
  it('neither reads nor caches an id no grant can match', async () => {
    const store = new DynamoAccessStore(api.tables.client, api.tables.names.access);
    let reads = 0;
    const access = new GrantAccess(
      { checkGrant: (k, w, p) => (reads++, store.grants.checkGrant(k, w, p)) },
      { ttlSeconds: 30 },
    );
    const p = allowedPrincipal(prefixKeyId);
    for (const id of [longUnderPrefix, 'acme:' + 'y'.repeat(124), 'acme:a b', tooLong])
      expect(await access.allows(p, id)).toBe(false);
    expect(reads).toBe(0);
    expect(access.cacheStats()).toEqual({ pairs: 0, prefixSets: 0, bytes: 0 });
    expect(await access.allows(p, 'acme:' + 'y'.repeat(123))).toBe(true);
    expect(reads).toBe(1);
  });

  it('holds at most its byte budget, whatever the number of entries', async () => {
    const store = new DynamoAccessStore(api.tables.client, api.tables.names.access);
    const maxBytes = 64 * 1024;
    const access = new GrantAccess(store.grants, { ttlSeconds: 30, maxPairs: 1_000_000, maxBytes });
    const p = allowedPrincipal(prefixKeyId);
    // Covered by the cached prefix set after the first read: one database read in all.
    for (let i = 0; i < 2_000; i++)
      expect(await access.allows(p, `acme:${String(i).padStart(6, '0')}${'z'.repeat(110)}`)).toBe(true);
    const stats = access.cacheStats();
    expect(stats.bytes).toBeLessThanOrEqual(maxBytes);
    expect(stats.pairs).toBeGreaterThan(100);
    expect(stats.pairs).toBeLessThan(2_000);
  });

  it('an LRU map with a byte budget drops the oldest entries to stay within it, and never keeps one larger than it', () => {
    const lru = new LruMap<string, string>(100, { maxBytes: 100, sizeOf: (k, v) => k.length + v.length });
    lru.set('a', 'x'.repeat(39));
    lru.set('b', 'x'.repeat(39));
    expect(lru.bytes).toBe(80);
    lru.get('a');
    lru.set('c', 'x'.repeat(39)); // over 100: the least recently used ('b') goes
    expect([lru.peek('a'), lru.peek('b'), lru.peek('c')].map(Boolean)).toEqual([true, false, true]);
    expect(lru.bytes).toBe(80);
    lru.set('a', 'x'); // replacing an entry counts its new size only
    expect(lru.bytes).toBe(42);
    lru.set('huge', 'x'.repeat(200));
    expect(lru.peek('huge')).toBeUndefined();
    expect(lru.bytes).toBeLessThanOrEqual(100);
    lru.delete('a');
    expect(lru.bytes).toBe(40);
  });
});
