// The contract's routes, refusal order and decision shape, over a real socket against the local HTTP API
// (real authorizer and route handlers, DynamoDB Local).
import { gzipSync } from 'node:zlib';
import { GetCommand, PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { generateApiKey } from '../../lambdas/domain/api-key';
import { DynamoAccessStore } from '../../lambdas/stores/access-store';
import { AdminService } from '../../lib/admin';
import { type TestApi, partnerWithKey, startTestApi } from '../support/local-api';
import { call, expectError } from '../support/http';

const ANALYZE = '/signals/analyze';
let api: TestApi;
let key: string; // partner "acme": ws_a, ws_b
let otherKey: string; // partner "globex": ws_c
const inactive: Record<string, string> = {};
let revokedKey: string;
let expiredKey: string;

/** POST analyze of `rawBody` as it is, with the acme key and `contentType` (none when undefined). */
const postRaw = (rawBody: string, contentType?: string) =>
  call(api.baseUrl, 'POST', ANALYZE, { key, rawBody, headers: contentType ? { 'content-type': contentType } : {} });
const signal = (overrides: Record<string, unknown> = {}) => ({
  workspace_id: 'ws_a',
  source: 'email',
  subject: 'Checkout is down',
  body: 'Our production checkout has been down for all customers since 09:10. Please help urgently.',
  sender: 'Ops Lead <ops@customer.example>',
  received_at: '2026-11-21T09:30:00Z',
  ...overrides,
});

beforeAll(async () => {
  api = await startTestApi('contract');
  ({ key } = await partnerWithKey(api.admin, 'acme', ['ws_a', 'ws_b']));
  ({ key: otherKey } = await partnerWithKey(api.admin, 'globex', ['ws_c']));
  for (const status of ['disabled', 'suspended', 'pending']) {
    inactive[status] = (await partnerWithKey(api.admin, `p_${status}`, ['ws_a'], status)).key;
  }
  // The inactive partners share ws_a with acme on purpose (the refusal order); the cross-partner check is waived.
  const revoked = await api.admin.createKey({ partnerId: 'acme', workspaces: ['ws_a'], allowShared: true });
  await api.admin.revokeKey(revoked.key_id);
  revokedKey = revoked.key;
  // Issued while its expiry was still ahead (the CLI refuses one already past).
  const before2020 = new AdminService(
    new DynamoAccessStore(api.tables.client, api.tables.names.access, api.tables.names.decisions),
    { now: () => new Date('2019-12-01T00:00:00Z') },
  );
  expiredKey = (
    await before2020.createKey({
      partnerId: 'acme',
      workspaces: ['ws_a'],
      expiresAt: '2020-01-01T00:00:00Z',
      allowShared: true,
    })
  ).key;
});

afterAll(async () => {
  await api?.close();
});

describe('authentication (row 1: 401 UNAUTHORIZED, the same text for every case)', () => {
  const cases: [string, () => Record<string, string>][] = [
    ['no Authorization header', () => ({})],
    ['another scheme', () => ({ authorization: `Basic ${key}` })],
    ['Bearer with nothing', () => ({ authorization: 'Bearer ' })],
    ['a malformed key', () => ({ authorization: 'Bearer sas_live_short' })],
    ['a bad checksum', () => ({ authorization: `Bearer ${key.slice(0, -1)}${key.endsWith('0') ? '1' : '0'}` })],
    ['an unknown well-formed key', () => ({ authorization: `Bearer ${generateApiKey('live')}` })],
    ['a revoked key', () => ({ authorization: `Bearer ${revokedKey}` })],
    ['an expired key', () => ({ authorization: `Bearer ${expiredKey}` })],
  ];
  it.each(cases)('refuses %s', async (_name, headers) => {
    for (const [method, path] of [
      ['POST', ANALYZE],
      ['GET', '/decisions/dec_01JD2X5R8Q4T7W9Y3K6M1N0P2S'],
    ]) {
      const reply = await call(api.baseUrl, method, path, {
        headers: headers(),
        body: method === 'POST' ? signal() : undefined,
      });
      expectError(reply, 401, 'UNAUTHORIZED');
      expect(reply.json.error.message).toBe('Missing or invalid API key.');
    }
  });

  it('accepts the scheme word in any case', async () => {
    const reply = await call(api.baseUrl, 'POST', ANALYZE, {
      headers: { authorization: `bEaReR ${key}` },
      body: signal(),
    });
    expect(reply.status).toBe(200);
  });
});

describe('refusal order', () => {
  const big = 'x'.repeat(256 * 1024 + 1);

  it.each(['disabled', 'suspended', 'pending'])(
    'row 2: a %s partner gets 403 ACCOUNT_INACTIVE, also on GET',
    async (status) => {
      expectError(
        await call(api.baseUrl, 'POST', ANALYZE, { key: inactive[status], body: signal() }),
        403,
        'ACCOUNT_INACTIVE',
      );
      expectError(
        await call(api.baseUrl, 'GET', '/decisions/dec_01JD2X5R8Q4T7W9Y3K6M1N0P2S', { key: inactive[status] }),
        403,
        'ACCOUNT_INACTIVE',
      );
    },
  );

  it('row 1 before 2 before 3: a missing key wins over an oversized body; an inactive account too', async () => {
    expectError(
      await call(api.baseUrl, 'POST', ANALYZE, { rawBody: big, headers: { 'content-type': 'text/plain' } }),
      401,
      'UNAUTHORIZED',
    );
    expectError(
      await call(api.baseUrl, 'POST', ANALYZE, { key: inactive.disabled, rawBody: big }),
      403,
      'ACCOUNT_INACTIVE',
    );
  });

  it('row 3: a body over 256 KiB is 413, before the media type is looked at', async () => {
    expectError(await postRaw(big, 'text/plain'), 413, 'PAYLOAD_TOO_LARGE');
    const exactly = JSON.stringify(signal({ body: '' }));
    const padded = exactly.slice(0, -1) + ' '.repeat(256 * 1024 - Buffer.byteLength(exactly)) + '}';
    expect(Buffer.byteLength(padded)).toBe(256 * 1024);
    const atLimit = await postRaw(padded, 'application/json');
    expect(atLimit.status).toBe(200);
  });

  it('row 4: 415 unless Content-Type is application/json (parameters allowed)', async () => {
    const body = JSON.stringify(signal());
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/jsonx',
      'application/vnd.api+json',
    ]) {
      expectError(await postRaw(body, type), 415, 'UNSUPPORTED_MEDIA_TYPE');
    }
    expectError(await postRaw(body), 415, 'UNSUPPORTED_MEDIA_TYPE');
    const ok = await postRaw(body, 'Application/JSON; charset=utf-8');
    expect(ok.status).toBe(200);
  });

  it('row 4: 415 for a body with a Content-Encoding, compressed or only labelled so', async () => {
    const body = JSON.stringify(signal());
    for (const [encoding, raw] of [
      ['gzip', gzipSync(body)],
      ['br', body],
    ] as const) {
      const reply = await call(api.baseUrl, 'POST', ANALYZE, {
        key,
        rawBody: raw,
        headers: { 'content-type': 'application/json', 'content-encoding': encoding },
      });
      expectError(reply, 415, 'UNSUPPORTED_MEDIA_TYPE');
      expect(reply.json.error.message).toMatch(/Content-Encoding/);
    }
    const plain = await call(api.baseUrl, 'POST', ANALYZE, {
      key,
      rawBody: body,
      headers: { 'content-type': 'application/json', 'content-encoding': 'identity' },
    });
    expect(plain.status).toBe(200);
  });

  it('marks every answer, a decision or an error, not to be kept by a cache on the way', async () => {
    const decided = await call(api.baseUrl, 'POST', ANALYZE, { key, body: signal() });
    const refused = await call(api.baseUrl, 'GET', '/decisions/dec_01M7YP0Z169DWN2DAG06SFY9E9', { key });
    const unrouted = await call(api.baseUrl, 'GET', '/nowhere', { key });
    for (const reply of [decided, refused, unrouted]) expect(reply.headers.get('cache-control')).toBe('no-store');
  });

  it('row 5: 400 INVALID_JSON for a body that is not JSON, before the workspace is checked', async () => {
    for (const raw of ['{', '', '{"workspace_id":"ws_zzz",}', 'null null']) {
      expectError(await postRaw(raw, 'application/json'), 400, 'INVALID_JSON');
    }
  });

  it('row 6: 403 WORKSPACE_NOT_ALLOWED for a workspace without a grant, before other validation', async () => {
    expectError(
      await call(api.baseUrl, 'POST', ANALYZE, { key, body: signal({ workspace_id: 'ws_c' }) }),
      403,
      'WORKSPACE_NOT_ALLOWED',
    );
    expectError(
      await call(api.baseUrl, 'POST', ANALYZE, { key, body: { workspace_id: 'ws_c', source: 'fax', extra: 1 } }),
      403,
      'WORKSPACE_NOT_ALLOWED',
    );
  });

  it('row 7: 400 VALIDATION_ERROR with details naming each field', async () => {
    const reply = await call(api.baseUrl, 'POST', ANALYZE, {
      key,
      body: { workspace_id: 'ws_a', source: 'fax', colour: 'red' },
    });
    expectError(reply, 400, 'VALIDATION_ERROR');
    const fields = reply.json.error.details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['source', 'colour']));
    for (const d of reply.json.error.details) expect(Object.keys(d).sort()).toEqual(['field', 'message']);
    const missing = await call(api.baseUrl, 'POST', ANALYZE, { key, body: { source: 'email', subject: 'x' } });
    expectError(missing, 400, 'VALIDATION_ERROR');
    expect(missing.json.error.details[0].field).toBe('workspace_id');
    const array = await call(api.baseUrl, 'POST', ANALYZE, { key, body: [signal()] });
    expectError(array, 400, 'VALIDATION_ERROR');
  });
});

describe('the decision', () => {
  it('returns every field of the contract, and GET returns exactly the same object', async () => {
    const reply = await call(api.baseUrl, 'POST', ANALYZE, { key, body: signal() });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    expect(reply.headers.get('x-request-id')).toBeTruthy();
    const d = reply.json;
    expect(Object.keys(d)).toEqual([
      'decision_id',
      'workspace_id',
      'priority',
      'score',
      'recommended_action',
      'category',
      'queue',
      'reasons',
      'source',
      'received_at',
      'created_at',
      'model_version',
      'confidence',
      'language',
      'sentiment',
      'respond_by',
      'policy_version',
    ]);
    expect(d.decision_id).toMatch(/^dec_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(d.workspace_id).toBe('ws_a');
    expect(Number.isInteger(d.score) && d.score >= 0 && d.score <= 100).toBe(true);
    const band = d.score >= 80 ? 'critical' : d.score >= 60 ? 'high' : d.score >= 35 ? 'medium' : 'low';
    expect(d.priority).toBe(band);
    expect(['escalate', 'respond_now', 'respond', 'review', 'archive']).toContain(d.recommended_action);
    expect(d.reasons.length).toBeGreaterThan(0);
    const weights = d.reasons.map((r: { weight: number }) => Math.abs(r.weight));
    expect(weights).toEqual([...weights].sort((a, b) => b - a));
    for (const r of d.reasons) {
      expect(r.code).toMatch(/^[A-Z][A-Z0-9_]*$/);
      expect(Number.isInteger(r.weight)).toBe(true);
    }
    expect(d.source).toBe('email');
    expect(d.received_at).toBe('2026-11-21T09:30:00Z');
    expect(Math.abs(Date.parse(d.created_at) - Date.now())).toBeLessThan(60_000);
    expect(d.confidence).toBeGreaterThan(0);
    expect(d.confidence).toBeLessThanOrEqual(1);
    expect(d.language).toBe('en');
    expect(['negative', 'neutral', 'positive']).toContain(d.sentiment);
    const minutes = { critical: 60, high: 240, medium: 1440, low: 4320 }[d.priority as 'critical'];
    expect(d.respond_by).toBe(new Date(Date.parse('2026-11-21T09:30:00Z') + minutes * 60_000).toISOString());
    expect(d.policy_version).toBe(0);

    const got = await call(api.baseUrl, 'GET', `/decisions/${d.decision_id}`, { key });
    expect(got.status).toBe(200);
    expect(got.text).toBe(reply.text);
  });

  it('is deterministic: the same signal gets the same score, priority, action, category and reasons', async () => {
    const a = (await call(api.baseUrl, 'POST', ANALYZE, { key, body: signal() })).json;
    const b = (await call(api.baseUrl, 'POST', ANALYZE, { key, body: signal() })).json;
    expect(a.decision_id).not.toBe(b.decision_id);
    for (const field of [
      'score',
      'priority',
      'recommended_action',
      'category',
      'queue',
      'reasons',
      'confidence',
      'language',
      'sentiment',
      'respond_by',
    ])
      expect(b[field]).toEqual(a[field]);
  });

  it('tells an outage from a newsletter', async () => {
    const outage = (await call(api.baseUrl, 'POST', ANALYZE, { key, body: signal() })).json;
    const newsletter = (
      await call(api.baseUrl, 'POST', ANALYZE, {
        key,
        body: signal({
          subject: 'Our November newsletter: 10 tips for spring cleaning your inbox',
          body: 'Read our latest blog posts and product news. You are receiving this because you subscribed. Unsubscribe here.',
          sender: 'newsletter@news.vendor.example',
        }),
      })
    ).json;
    expect(outage.score).toBeGreaterThan(newsletter.score);
    expect(['critical', 'high']).toContain(outage.priority);
    expect(newsletter.recommended_action).toBe('archive');
  });

  it('stores no signal body or subject', async () => {
    const marker = 'ZEBRA-7731-unique-marker';
    const reply = await call(api.baseUrl, 'POST', ANALYZE, {
      key,
      body: signal({ subject: `Invoice ${marker}`, body: `Please pay ${marker} today`, metadata: { note: marker } }),
      headers: { 'idempotency-key': `idem-${marker}` },
    });
    expect(reply.status).toBe(200);
    const scan = await api.tables.client.send(new ScanCommand({ TableName: api.tables.names.decisions }));
    expect(JSON.stringify(scan.Items)).not.toContain(marker);
  });

  it('GET hides decisions of workspaces the key may not access, and unknown or malformed ids, as 404', async () => {
    const d = (await call(api.baseUrl, 'POST', ANALYZE, { key, body: signal({ workspace_id: 'ws_b' }) })).json;
    expectError(
      await call(api.baseUrl, 'GET', `/decisions/${d.decision_id}`, { key: otherKey }),
      404,
      'DECISION_NOT_FOUND',
    );
    expectError(
      await call(api.baseUrl, 'GET', '/decisions/dec_01JD2X5R8Q4T7W9Y3K6M1N0P2S', { key }),
      404,
      'DECISION_NOT_FOUND',
    );
    expectError(await call(api.baseUrl, 'GET', '/decisions/not-an-id', { key }), 404, 'DECISION_NOT_FOUND');
    // After an ungrant, the same key no longer sees it.
    const extra = await api.admin.createKey({ partnerId: 'acme', workspaces: ['ws_a', 'ws_b'], allowShared: true });
    expect((await call(api.baseUrl, 'GET', `/decisions/${d.decision_id}`, { key: extra.key })).status).toBe(200);
    await api.admin.ungrant(extra.key_id, 'ws_b');
    expectError(
      await call(api.baseUrl, 'GET', `/decisions/${d.decision_id}`, { key: extra.key }),
      404,
      'DECISION_NOT_FOUND',
    );
  });
});

describe('retention', () => {
  it('stores decisions with a TTL of DECISION_RETENTION_DAYS, and GET treats an expired one as gone', async () => {
    const d = (await call(api.baseUrl, 'POST', ANALYZE, { key, body: signal() })).json;
    const table = api.tables.names.decisions;
    const item = (
      await api.tables.client.send(new GetCommand({ TableName: table, Key: { pk: `decision#${d.decision_id}` } }))
    ).Item!;
    const days = (item.expires_at - Date.parse(d.created_at) / 1000) / 86_400;
    expect(Math.round(days)).toBe(90);
    // TTL deletion lags; until it runs, the expired item must not be served.
    await api.tables.client.send(
      new PutCommand({ TableName: table, Item: { ...item, expires_at: Math.floor(Date.now() / 1000) - 1 } }),
    );
    expectError(await call(api.baseUrl, 'GET', `/decisions/${d.decision_id}`, { key }), 404, 'DECISION_NOT_FOUND');
  });
});

describe('routing', () => {
  it('answers unknown routes with 404 NOT_FOUND and needs no key', async () => {
    for (const path of ['/nope', '/signals', '/decisions/dec_x/extra', '/signals/analyze/extra']) {
      expectError(await call(api.baseUrl, 'GET', path), 404, 'NOT_FOUND');
    }
    const outside = await call(api.baseUrl.replace('/api/v1', ''), 'GET', '/');
    expectError(outside, 404, 'NOT_FOUND');
  });

  it('answers a known path with a wrong method with 405 and an Allow header, no key needed', async () => {
    const reply = await call(api.baseUrl, 'GET', ANALYZE);
    expectError(reply, 405, 'METHOD_NOT_ALLOWED');
    expect(reply.headers.get('allow')).toBe('POST');
    const del = await call(api.baseUrl, 'DELETE', '/decisions/dec_01JD2X5R8Q4T7W9Y3K6M1N0P2S', { key });
    expectError(del, 405, 'METHOD_NOT_ALLOWED');
    expect(del.headers.get('allow')).toBe('GET');
  });
});

describe('changes to access take effect at once with AUTH_CACHE_TTL_SECONDS=0', () => {
  it('revocation, partner status and grants', async () => {
    const { key: k, keyId } = await partnerWithKey(api.admin, 'initech', ['ws_i']);
    const body = signal({ workspace_id: 'ws_i' });
    expect((await call(api.baseUrl, 'POST', ANALYZE, { key: k, body })).status).toBe(200);
    await api.admin.setPartnerStatus('initech', 'suspended');
    expectError(await call(api.baseUrl, 'POST', ANALYZE, { key: k, body }), 403, 'ACCOUNT_INACTIVE');
    await api.admin.setPartnerStatus('initech', 'active');
    await api.admin.ungrant(keyId, 'ws_i');
    expectError(await call(api.baseUrl, 'POST', ANALYZE, { key: k, body }), 403, 'WORKSPACE_NOT_ALLOWED');
    await api.admin.grant(keyId, 'ws_i');
    expect((await call(api.baseUrl, 'POST', ANALYZE, { key: k, body })).status).toBe(200);
    await api.admin.revokeKey(keyId);
    expectError(await call(api.baseUrl, 'POST', ANALYZE, { key: k, body }), 401, 'UNAUTHORIZED');
  });
});
