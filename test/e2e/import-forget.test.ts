// Importing labeled history and forgetting it (docs/partners.md, "Importing your history, and forgetting it"), over a
// real socket: the refusal order, per-item answers, idempotent replays that teach nothing twice, and a reset after
// which the workspace decides as a fresh one.
import { call, expectError } from '../support/http';
import { type TestApi, midHourClock, partnerWithKey, startTestApi } from '../support/local-api';

let api: TestApi;
let key: string;
let keyId: string;

beforeAll(async () => {
  // TTL 0: every request reads the workspace, so what a test sees is what is stored.
  api = await startTestApi('importforget', { workspaceCacheTtlSeconds: 0 }, { clock: midHourClock() });
  ({ key, keyId } = await partnerWithKey(api.admin, 'acme', [
    'ws_imp',
    'ws_other',
    'ws_reset',
    'ws_keep',
    'ws_fb',
    'ws_idem',
    'ws_wide',
    // Each test that learns or counts has a workspace of its own: what one taught, no other test sees.
    'ws_order',
    'ws_teach',
    'ws_specific',
    'ws_audit',
    'ws_nothing',
  ]));
}, 60_000);
afterAll(async () => api?.close());

const customs = (i: number) => ({
  source: 'email',
  sender: `ops${i}@carrier.example`,
  subject: `Shipment ${i} held at customs`,
  body: `Container ${i} is held at customs pending paperwork for the import declaration.`,
});
const taught = (i: number) => ({ signal: customs(i), labels: { category: 'customs_hold', queue: 'logistics' } });
const examplesPath = (ws: string) => `/workspaces/${ws}/examples`;
const modelPath = (ws: string) => `/workspaces/${ws}/model`;

async function labelDocs(ws: string): Promise<Record<string, number>> {
  const state = await api.service.dependencies.workspaceStore.loadState(ws);
  return Object.fromEntries(state.model.labels.map((l) => [`${l.field}:${l.label}`, l.docs]));
}

describe('POST /workspaces/{workspace_id}/examples', () => {
  it('refuses in the contract order: 401, scope, workspace, 413, 415, INVALID_JSON, envelope, 429', async () => {
    expectError(
      await call(api.baseUrl, 'POST', examplesPath('ws_imp'), { body: { examples: [taught(0)] } }),
      401,
      'UNAUTHORIZED',
    );
    const { key: analyzeOnly } = await (async () => {
      await api.admin.createPartner({ id: 'scoped', name: 'Scoped', status: 'active' }).catch(() => undefined);
      return api.admin.createKey({
        partnerId: 'scoped',
        workspaces: ['ws_imp'],
        scopes: ['analyze'],
        allowShared: true,
      });
    })();
    expectError(
      await call(api.baseUrl, 'POST', examplesPath('ws_imp'), { key: analyzeOnly, rawBody: 'nope' }),
      403,
      'INSUFFICIENT_SCOPE',
    );
    // The path's workspace comes before anything about the body, a malformed id included.
    expectError(
      await call(api.baseUrl, 'POST', examplesPath('ws_nogrant'), { key, rawBody: 'x'.repeat(1024 * 1024 + 1) }),
      403,
      'WORKSPACE_NOT_ALLOWED',
    );
    expectError(
      await call(api.baseUrl, 'POST', examplesPath('bad%20id'), { key, rawBody: 'nope' }),
      403,
      'WORKSPACE_NOT_ALLOWED',
    );
    for (const [rawBody, type, status, code] of [
      ['x'.repeat(1024 * 1024 + 1), 'text/plain', 413, 'PAYLOAD_TOO_LARGE'],
      ['{}', 'text/plain', 415, 'UNSUPPORTED_MEDIA_TYPE'],
      ['{', 'application/json', 400, 'INVALID_JSON'],
    ] as const) {
      const headers = { 'content-type': type };
      expectError(await call(api.baseUrl, 'POST', examplesPath('ws_imp'), { key, rawBody, headers }), status, code);
    }
    for (const body of [
      [],
      {},
      { examples: [] },
      { examples: 'x' },
      { examples: Array(101).fill(taught(0)) },
      { examples: [taught(0)], extra: 1 },
    ]) {
      expectError(await call(api.baseUrl, 'POST', examplesPath('ws_imp'), { key, body }), 400, 'VALIDATION_ERROR');
    }
    // One request of the limit per example: 3 fit a limit of 3, a fourth does not; an envelope error spends none.
    await api.admin.createPartner({ id: 'limited', name: 'Limited', status: 'active' });
    const limited = await api.admin.createKey({
      partnerId: 'limited',
      workspaces: ['ws_limited'],
      rateLimit: '3/h',
      allowShared: true,
    });
    expectError(
      await call(api.baseUrl, 'POST', examplesPath('ws_limited'), { key: limited.key, body: { examples: [] } }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(
      await call(api.baseUrl, 'POST', examplesPath('ws_limited'), {
        key: limited.key,
        body: { examples: [1, 2, 3, 4] },
      }),
      429,
      'RATE_LIMITED',
    );
    const fits = await call(api.baseUrl, 'POST', examplesPath('ws_limited'), {
      key: limited.key,
      body: { examples: [1, 2, 3] },
    });
    expect(fits.status).toBe(200);
    expectError(
      await call(api.baseUrl, 'POST', examplesPath('ws_limited'), { key: limited.key, body: { examples: [1] } }),
      429,
      'RATE_LIMITED',
    );
  });

  it('answers each example in input order, learning the valid ones only', async () => {
    const body = {
      examples: [
        taught(0),
        { signal: customs(1) },
        { signal: { ...customs(2), workspace_id: 'ws_other' }, labels: { category: 'customs_hold' } },
        { signal: { ...customs(3), source: 'fax' }, labels: { category: 'customs_hold' } },
        { signal: customs(4), labels: { category: 'Not A Name' } },
        {
          signal: { ...customs(5), workspace_id: 'ws_order' },
          labels: { category: 'customs_hold', queue: 'logistics' },
          extra: true,
        },
        'not an example',
        { signal: { ...customs(6), workspace_id: 'ws_order' }, labels: { priority: 'high' } },
      ],
    };
    const reply = await call(api.baseUrl, 'POST', examplesPath('ws_order'), { key, body });
    expect(reply.status).toBe(200);
    expect(reply.json.object).toBe('list');
    expect(reply.json.workspace_id).toBe('ws_order');
    expect(reply.json.learned).toBe(2);
    expect(reply.json.data.map((d: { index: number }) => d.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(reply.json.data[0]).toEqual({ index: 0, status: 'learned' });
    expect(reply.json.data[7]).toEqual({ index: 7, status: 'learned' });
    const errorAt = (i: number) => reply.json.data[i].error;
    for (const i of [1, 2, 3, 4, 5, 6]) expect(errorAt(i).code).toBe('VALIDATION_ERROR');
    expect(errorAt(1).details).toEqual([{ field: 'examples[1].labels', message: 'is required' }]);
    expect(errorAt(2).details[0].field).toBe('examples[2].signal.workspace_id');
    expect(errorAt(3).details[0].field).toBe('examples[3].signal.source');
    expect(errorAt(4).details[0].field).toBe('examples[4].labels.category');
    expect(errorAt(5).details).toEqual([{ field: 'examples[5].extra', message: 'is not a field of an example' }]);
    expect(await labelDocs('ws_order')).toEqual({
      'category:customs_hold': 1,
      'queue:logistics': 1,
      'priority:high': 1,
    });
  });

  it('teaches what analyze then feedback would: similar signals get the taught category and queue', async () => {
    const before = await call(api.baseUrl, 'POST', '/signals/analyze', {
      key,
      body: { ...customs(99), workspace_id: 'ws_other' },
    });
    const reply = await call(api.baseUrl, 'POST', examplesPath('ws_teach'), {
      key,
      body: { examples: [1, 2, 3, 4, 5].map(taught) },
    });
    expect(reply.json.learned).toBe(5);
    const d = await call(api.baseUrl, 'POST', '/signals/analyze', {
      key,
      body: { ...customs(42), workspace_id: 'ws_teach' },
    });
    expect(d.json).toMatchObject({ category: 'customs_hold', queue: 'logistics' });
    expect(d.json.reasons.map((r: { code: string }) => r.code)).toContain('LEARNED_CATEGORY');
    // Another workspace of the same key is unchanged.
    const after = await call(api.baseUrl, 'POST', '/signals/analyze', {
      key,
      body: { ...customs(99), workspace_id: 'ws_other' },
    });
    expect({ category: after.json.category, queue: after.json.queue, reasons: after.json.reasons }).toEqual({
      category: before.json.category,
      queue: before.json.queue,
      reasons: before.json.reasons,
    });
  });

  it("stays specific: an unrelated message from the taught senders' domain keeps the global decision", async () => {
    // ws_specific is taught customs holds from ops<i>@carrier.example.
    const taughtReply = await call(api.baseUrl, 'POST', examplesPath('ws_specific'), {
      key,
      body: { examples: [1, 2, 3, 4, 5].map(taught) },
    });
    expect(taughtReply.json.learned).toBe(5);
    const outage = {
      source: 'email',
      sender: 'ops1@carrier.example',
      subject: 'Production outage: checkout down',
      body: 'Checkout returns 500 errors for all customers since 09:12 UTC.',
    };
    const fresh = await call(api.baseUrl, 'POST', '/signals/analyze', {
      key,
      body: { ...outage, workspace_id: 'ws_other' },
    });
    const taughtWs = await call(api.baseUrl, 'POST', '/signals/analyze', {
      key,
      body: { ...outage, workspace_id: 'ws_specific' },
    });
    expect({ category: taughtWs.json.category, queue: taughtWs.json.queue, priority: taughtWs.json.priority }).toEqual({
      category: fresh.json.category,
      queue: fresh.json.queue,
      priority: fresh.json.priority,
    });
    expect(taughtWs.json.reasons.some((r: { code: string }) => r.code.startsWith('LEARNED_'))).toBe(false);
  });

  it('takes 100 examples of 202 labels at once (several transactions) and teaches each once', async () => {
    const examples = Array.from({ length: 100 }, (_, i) => ({
      signal: { ...customs(i), body: `${customs(i).body} ${'word'.repeat(1)}${i} more text ${i * 7}` },
      labels: { category: `cat_${i}`, queue: `queue_${i}`, priority: 'low', recommended_action: 'review' },
    }));
    const headers = { 'idempotency-key': 'wide-import' };
    const reply = await call(api.baseUrl, 'POST', examplesPath('ws_wide'), { key, body: { examples }, headers });
    expect(reply.json.learned).toBe(100);
    const again = await call(api.baseUrl, 'POST', examplesPath('ws_wide'), { key, body: { examples }, headers });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const docs = await labelDocs('ws_wide');
    expect(Object.keys(docs)).toHaveLength(202);
    expect(docs).toMatchObject({
      'category:cat_0': 1,
      'queue:queue_99': 1,
      'priority:low': 100,
      'recommended_action:review': 100,
    });
  });

  it('replays an import with the same Idempotency-Key and body, teaching nothing twice', async () => {
    const body = { examples: [taught(7), taught(8), { signal: customs(9) }] };
    const headers = { 'idempotency-key': 'import-chunk-1' };
    const first = await call(api.baseUrl, 'POST', examplesPath('ws_idem'), { key, body, headers });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await call(api.baseUrl, 'POST', examplesPath('ws_idem'), { key, body, headers });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json).toEqual(first.json);
    expect(await labelDocs('ws_idem')).toEqual({ 'category:customs_hold': 2, 'queue:logistics': 2 });
    expectError(
      await call(api.baseUrl, 'POST', examplesPath('ws_idem'), { key, body: { examples: [taught(10)] }, headers }),
      409,
      'IDEMPOTENCY_CONFLICT',
    );
    expect(await labelDocs('ws_idem')).toEqual({ 'category:customs_hold': 2, 'queue:logistics': 2 });
  });

  /** The workspace's `model.import` audit events, as stored. */
  async function importEvents(ws: string) {
    const { ScanCommand } = await import('@aws-sdk/lib-dynamodb');
    const out = await api.tables.client.send(
      new ScanCommand({
        TableName: api.tables.names.decisions,
        FilterExpression: '#a = :a',
        ExpressionAttributeNames: { '#a': 'action' },
        ExpressionAttributeValues: { ':a': 'model.import' },
      }),
    );
    return (out.Items ?? []).filter((e) => e.target?.workspace_id === ws);
  }

  it('records the import in the audit log, in its transaction, with the key as actor and its counts', async () => {
    const body = { examples: [taught(7), taught(8), { signal: customs(9) }] };
    const headers = { 'idempotency-key': 'import-audit-1' };
    expect((await call(api.baseUrl, 'POST', examplesPath('ws_audit'), { key, body, headers })).status).toBe(200);
    const again = await call(api.baseUrl, 'POST', examplesPath('ws_audit'), { key, body, headers });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expectError(
      await call(api.baseUrl, 'POST', examplesPath('ws_audit'), { key, body: { examples: [taught(10)] }, headers }),
      409,
      'IDEMPOTENCY_CONFLICT',
    );
    const events = await importEvents('ws_audit');
    // Two imports of ws_audit were sent; the replay and the conflict wrote no event.
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actor: `key:${keyId}`, after: { examples: 3, learned: 2, labels: 2 } });
  });

  it('writes nothing for an import that teaches nothing: no audit event, no entry', async () => {
    const { QueryCommand } = await import('@aws-sdk/lib-dynamodb');
    const body = { examples: [{ signal: { ...customs(20), source: 'fax' }, labels: { category: 'customs_hold' } }] };
    const answer = await call(api.baseUrl, 'POST', examplesPath('ws_nothing'), { key, body });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ learned: 0 });
    expect(await importEvents('ws_nothing')).toEqual([]);
    const learned = await api.tables.client.send(
      new QueryCommand({
        TableName: api.tables.names.learning,
        KeyConditionExpression: 'ws = :ws and begins_with(sk, :e)',
        ExpressionAttributeValues: { ':ws': 'ws_nothing', ':e': 'e#' },
      }),
    );
    expect(learned.Items ?? []).toEqual([]);
  });
});

describe('DELETE /workspaces/{workspace_id}/model', () => {
  it('needs the policy scope and a grant for the workspace', async () => {
    await api.admin.createPartner({ id: 'fbonly', name: 'Feedback only', status: 'active' });
    const fbOnly = await api.admin.createKey({
      partnerId: 'fbonly',
      workspaces: ['ws_reset'],
      scopes: ['feedback'],
      allowShared: true,
    });
    expectError(await call(api.baseUrl, 'DELETE', modelPath('ws_reset'), {}), 401, 'UNAUTHORIZED');
    expectError(
      await call(api.baseUrl, 'DELETE', modelPath('ws_reset'), { key: fbOnly.key }),
      403,
      'INSUFFICIENT_SCOPE',
    );
    expectError(await call(api.baseUrl, 'DELETE', modelPath('ws_nogrant'), { key }), 403, 'WORKSPACE_NOT_ALLOWED');
  });

  it('forgets at once: the workspace then decides as a fresh one, its policy kept', async () => {
    const fresh = await call(api.baseUrl, 'POST', '/signals/analyze', {
      key,
      body: { ...customs(50), workspace_id: 'ws_reset' },
    });
    // Another workspace taught the same keeps what it learned through the reset.
    await call(api.baseUrl, 'POST', examplesPath('ws_keep'), {
      key,
      body: { examples: [1, 2, 3, 4, 5, 6].map(taught) },
    });
    const kept = await labelDocs('ws_keep');
    expect(kept).toEqual({ 'category:customs_hold': 6, 'queue:logistics': 6 });
    await call(api.baseUrl, 'PUT', '/workspaces/ws_reset/policy', { key, body: { vip_senders: ['ceo@acme.example'] } });
    await call(api.baseUrl, 'POST', examplesPath('ws_reset'), {
      key,
      body: { examples: [1, 2, 3, 4, 5, 6].map(taught) },
    });
    const learned = await call(api.baseUrl, 'POST', '/signals/analyze', {
      key,
      body: { ...customs(50), workspace_id: 'ws_reset' },
    });
    expect(learned.json.category).toBe('customs_hold');
    expect(learned.json.model_version).toMatch(/\+ws\./);

    const reset = await call(api.baseUrl, 'DELETE', modelPath('ws_reset'), { key });
    expect(reset.status).toBe(200);
    expect(reset.json).toEqual({ workspace_id: 'ws_reset', forgotten: true });
    const after = await call(api.baseUrl, 'POST', '/signals/analyze', {
      key,
      body: { ...customs(50), workspace_id: 'ws_reset' },
    });
    expect(after.json.category).toBe(fresh.json.category);
    expect(after.json.model_version).toBe(fresh.json.model_version);
    expect(after.json.reasons.some((r: { code: string }) => r.code.startsWith('LEARNED_'))).toBe(false);
    expect(await labelDocs('ws_reset')).toEqual({});
    expect(await labelDocs('ws_keep')).toEqual(kept);
    const keptDecision = await call(api.baseUrl, 'POST', '/signals/analyze', {
      key,
      body: { ...customs(50), workspace_id: 'ws_keep' },
    });
    expect(keptDecision.json).toMatchObject({ category: 'customs_hold', queue: 'logistics' });
    const policy = await call(api.baseUrl, 'GET', '/workspaces/ws_reset/policy', { key });
    expect(policy.json.vip_senders).toEqual(['ceo@acme.example']);
    // Learning starts again from nothing.
    await call(api.baseUrl, 'POST', examplesPath('ws_reset'), { key, body: { examples: [taught(1)] } });
    expect(await labelDocs('ws_reset')).toEqual({ 'category:customs_hold': 1, 'queue:logistics': 1 });
  });

  it('lets feedback on a decision made before the reset teach the new model only what it says', async () => {
    const d = await call(api.baseUrl, 'POST', '/signals/analyze', {
      key,
      body: { ...customs(60), workspace_id: 'ws_fb' },
    });
    await call(api.baseUrl, 'POST', `/decisions/${d.json.decision_id}/feedback`, {
      key,
      body: { category: 'customs_hold', queue: 'logistics' },
    });
    expect(await labelDocs('ws_fb')).toEqual({ 'category:customs_hold': 1, 'queue:logistics': 1 });
    expect((await call(api.baseUrl, 'DELETE', modelPath('ws_fb'), { key })).status).toBe(200);
    await call(api.baseUrl, 'POST', `/decisions/${d.json.decision_id}/feedback`, {
      key,
      body: { category: 'freight' },
    });
    expect(await labelDocs('ws_fb')).toEqual({ 'category:freight': 1 });
  });
});
