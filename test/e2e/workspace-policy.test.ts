// Policy and feedback over a real socket (docs/partners.md, Workspace policy; Feedback): ETag/If-Match, strict validation, what each
// policy field does to a decision, feedback's 404 and replacement, and learning a workspace's own category and queue
// from a few corrections without touching another workspace.
import { call, expectError } from '../support/http';
import { type TestApi, partnerWithKey, startTestApi } from '../support/local-api';

let api: TestApi;
let key: string;
let otherKey: string;

beforeAll(async () => {
  // TTL 0: every request reads the workspace fresh, so each step sees the previous one at once.
  api = await startTestApi('wspolicy', { workspaceCacheTtlSeconds: 0 });
  ({ key } = await partnerWithKey(api.admin, 'acme', ['ws_a', 'ws_b', 'ws_blocked', 'ws_off', 'ws_idn']));
  ({ key: otherKey } = await partnerWithKey(api.admin, 'other', ['ws_other']));
}, 60_000);
afterAll(async () => api?.close());

const analyze = (body: Record<string, unknown>, k = key) =>
  call(api.baseUrl, 'POST', '/signals/analyze', { key: k, body });
const putPolicy = (ws: string, body: unknown, headers: Record<string, string> = {}, k = key) =>
  call(api.baseUrl, 'PUT', `/workspaces/${ws}/policy`, { key: k, body, headers });

describe('policy', () => {
  it('starts empty at version 0, then PUT answers what was sent plus version and updated_at, with ETags', async () => {
    const empty = await call(api.baseUrl, 'GET', '/workspaces/ws_a/policy', { key });
    expect(empty.status).toBe(200);
    expect(empty.json).toEqual({ version: 0, updated_at: null });
    expect(empty.headers.get('etag')).toBe('"0"');

    const policy = { vip_senders: ['@acme.com'], response_minutes: { high: 30 }, learning: true };
    const put = await putPolicy('ws_a', { ...policy, version: 99, updated_at: 'ignored' }, { 'if-match': '"0"' });
    expect(put.status).toBe(200);
    expect(put.json).toEqual({ ...policy, version: 1, updated_at: expect.any(String) });
    expect(put.headers.get('etag')).toBe('"1"');
    const got = await call(api.baseUrl, 'GET', '/workspaces/ws_a/policy', { key });
    expect(got.json).toEqual(put.json);

    const stale = await putPolicy('ws_a', policy, { 'if-match': '"0"' });
    expectError(stale, 412, 'PRECONDITION_FAILED');
    expect(stale.headers.get('etag')).toBe('"1"');
    expect((await call(api.baseUrl, 'GET', '/workspaces/ws_a/policy', { key })).json.version).toBe(1);
    // `*`: any current version, as HTTP defines it (a partner's client may send it for "replace what is there").
    const any = await putPolicy('ws_a', policy, { 'if-match': '*' });
    expect(any.status).toBe(200);
    expect(any.json.version).toBe(2);
  });

  it('refuses a policy holding an API key, naming where it is', async () => {
    // A key pasted into a keyword would be written into the audit log: refused, with a JSON path, never echoed.
    const inPhrase = await putPolicy('ws_b', {
      keywords: [
        { phrase: 'x', weight: 1 },
        { phrase: `use ${key}`, weight: 1 },
      ],
    });
    expectError(inPhrase, 400, 'VALIDATION_ERROR');
    expect(inPhrase.json.error.details).toEqual([{ field: 'keywords[1].phrase', message: 'must not hold an API key' }]);
    expect(JSON.stringify(inPhrase.json)).not.toContain(key);
    // Bad input before a stale version: fixing the version first would only meet this 400 next (400 before 412).
    const stale = await putPolicy('ws_b', { keywords: [{ phrase: `use ${key}`, weight: 1 }] }, { 'if-match': '"7"' });
    expectError(stale, 400, 'VALIDATION_ERROR');
  });

  it('refuses unknown fields anywhere and bad values, naming each field', async () => {
    const bad = await putPolicy('ws_b', {
      keywords: [{ phrase: 'x', weight: 70, colour: 'red' }],
      thresholds: { critical: 50, high: 60 },
      extra: 1,
    });
    expectError(bad, 400, 'VALIDATION_ERROR');
    const fields = bad.json.error.details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['extra', 'keywords[0].colour', 'keywords[0].weight']));
    const both = await putPolicy('ws_b', { categories: [{ name: 'vat', queue: 'tax' }], routing: { vat: 'tax' } });
    expectError(both, 400, 'VALIDATION_ERROR');
  });

  it('answers 403 for a workspace the key may not use, before looking at the body', async () => {
    expectError(
      await call(api.baseUrl, 'GET', '/workspaces/ws_a/policy', { key: otherKey }),
      403,
      'WORKSPACE_NOT_ALLOWED',
    );
    expectError(await putPolicy('ws_a', 'not json at all', {}, otherKey), 403, 'WORKSPACE_NOT_ALLOWED');
  });

  it('applies VIP, keywords with own categories and queues, thresholds and response times to decisions', async () => {
    await putPolicy('ws_b', {
      vip_senders: ['@acme.com'],
      keywords: [{ phrase: 'VAT return', weight: 10, category: 'vat', queue: 'tax_team' }],
      thresholds: { medium: 20 },
      response_minutes: { medium: 15, low: 15, high: 15, critical: 15 },
    });
    const plain = await analyze({
      workspace_id: 'ws_a',
      source: 'email',
      sender: 'x@elsewhere.org',
      subject: 'our vat return question',
    });
    const d = await analyze({
      workspace_id: 'ws_b',
      source: 'email',
      sender: 'Ann <ann@eu.acme.com>',
      subject: 'our vat return question',
    });
    expect(d.status).toBe(200);
    expect(d.json).toMatchObject({ category: 'vat', queue: 'tax_team', policy_version: 1 });
    expect(d.json.score).toBe(Math.min(100, plain.json.score + 30));
    const codes = d.json.reasons.map((r: { code: string }) => r.code);
    expect(codes).toEqual(expect.arrayContaining(['POLICY_VIP_SENDER', 'POLICY_KEYWORD']));
    expect(Date.parse(d.json.respond_by) - Date.parse(d.json.received_at)).toBe(15 * 60_000);
    expect((await call(api.baseUrl, 'GET', `/decisions/${d.json.decision_id}`, { key })).json).toEqual(d.json);
  });

  it('archives a blocked sender as spam whatever the text, and learning never changes that', async () => {
    await putPolicy('ws_blocked', { blocked_senders: ['@spam.example'], vip_senders: ['@spam.example'] });
    const urgent = {
      workspace_id: 'ws_blocked',
      source: 'email',
      sender: 'boss@x.spam.example',
      subject: 'URGENT production outage, site down',
    };
    const d = await analyze(urgent);
    expect(d.json).toMatchObject({
      recommended_action: 'archive',
      category: 'spam',
      priority: 'low',
      respond_by: null,
    });
    for (let i = 0; i < 5; i++) {
      const again = await analyze(urgent);
      await call(api.baseUrl, 'POST', `/decisions/${again.json.decision_id}/feedback`, {
        key,
        body: { priority: 'critical', recommended_action: 'escalate', category: 'incident' },
      });
    }
    expect((await analyze(urgent)).json).toMatchObject({ recommended_action: 'archive', category: 'spam' });
  });

  it('keeps a Unicode domain as written, and blocks its senders however their domain is spelled', async () => {
    const blocked = ['@münchen.de', 'ann@xn--bcher-kva.example'];
    expect((await putPolicy('ws_idn', { blocked_senders: blocked })).status).toBe(200);
    expect((await call(api.baseUrl, 'GET', '/workspaces/ws_idn/policy', { key })).json).toMatchObject({
      blocked_senders: blocked,
    });
    for (const sender of ['info@xn--mnchen-3ya.de', 'Ann <ann@bücher.example>']) {
      const d = await analyze({ workspace_id: 'ws_idn', source: 'email', sender, subject: 'URGENT outage' });
      expect(d.json).toMatchObject({ category: 'spam', recommended_action: 'archive' });
    }
  });
});

describe('feedback and learning', () => {
  const invoice = (ws: string, i: number) => ({
    workspace_id: ws,
    source: 'email',
    sender: `clerk${i}@supplier.example`,
    subject: `Invoice ${1000 + i} for pallets`,
    body: 'Please find attached our invoice for the pallets delivered last week.',
  });

  it('answers 404 exactly as GET for an unknown decision or one in another workspace, then validates', async () => {
    const d = await analyze(invoice('ws_a', 0));
    const foreign = await call(api.baseUrl, 'POST', `/decisions/${d.json.decision_id}/feedback`, {
      key: otherKey,
      body: { category: 'x' },
    });
    expectError(foreign, 404, 'DECISION_NOT_FOUND');
    expectError(
      await call(api.baseUrl, 'POST', '/decisions/dec_nope/feedback', { key, body: {} }),
      404,
      'DECISION_NOT_FOUND',
    );
    const empty = await call(api.baseUrl, 'POST', `/decisions/${d.json.decision_id}/feedback`, { key, body: {} });
    expectError(empty, 400, 'VALIDATION_ERROR');
    const bad = await call(api.baseUrl, 'POST', `/decisions/${d.json.decision_id}/feedback`, {
      key,
      body: { category: 'Bad Name', priority: 'urgent' },
    });
    expect(bad.json.error.details.map((x: { field: string }) => x.field).sort()).toEqual(['category', 'priority']);
  });

  it('learns an own category and queue for a sender domain within five corrections, and only in that workspace', async () => {
    const before = await analyze(invoice('ws_a', 1));
    expect(before.json.category).not.toBe('supplier_invoice');
    for (let i = 2; i < 6; i++) {
      const d = await analyze(invoice('ws_a', i));
      const fb = await call(api.baseUrl, 'POST', `/decisions/${d.json.decision_id}/feedback`, {
        key,
        body: { category: 'supplier_invoice', queue: 'accounts_payable' },
      });
      expect(fb.status).toBe(200);
      expect(fb.json).toEqual({
        decision_id: d.json.decision_id,
        workspace_id: 'ws_a',
        feedback: { category: 'supplier_invoice', queue: 'accounts_payable' },
        created_at: expect.any(String),
      });
    }
    const after = await analyze(invoice('ws_a', 9));
    expect(after.json).toMatchObject({ category: 'supplier_invoice', queue: 'accounts_payable' });
    expect(after.json.model_version).toMatch(/\+ws\.\d+$/);
    const learned = after.json.reasons.filter((r: { code: string }) => r.code.startsWith('LEARNED_'));
    expect(learned.map((r: { code: string }) => r.code)).toContain('LEARNED_CATEGORY');
    expect(learned.map((r: { message: string }) => r.message).join(' ')).toMatch(/4 corrections/);

    // Another workspace of the same key, same signal: untouched.
    const elsewhere = await analyze(invoice('ws_b', 9));
    expect(elsewhere.json.category).not.toBe('supplier_invoice');
  });

  it('counts a decision once with its latest feedback (replacement), and learning:false decides as a fresh workspace while still counting feedback', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await analyze(invoice('ws_off', i))).json.decision_id);
    for (const id of ids)
      await call(api.baseUrl, 'POST', `/decisions/${id}/feedback`, { key, body: { category: 'wrong_one' } });
    for (const id of ids)
      await call(api.baseUrl, 'POST', `/decisions/${id}/feedback`, { key, body: { category: 'right_one' } });
    expect((await analyze(invoice('ws_off', 7))).json.category).toBe('right_one');

    await putPolicy('ws_off', { learning: false });
    const fresh = await analyze(invoice('ws_off', 7));
    expect(fresh.json.category).not.toBe('right_one');
    expect(fresh.json.reasons.some((r: { code: string }) => r.code.startsWith('LEARNED_'))).toBe(false);
    // Feedback during the pause is kept and counted: each decision moves to its latest label.
    for (const id of ids) {
      const given = await call(api.baseUrl, 'POST', `/decisions/${id}/feedback`, {
        key,
        body: { category: 'paused_one' },
      });
      expect(given.status).toBe(200);
    }
    expect((await analyze(invoice('ws_off', 8))).json.category).not.toBe('paused_one');
    await putPolicy('ws_off', { learning: true });
    expect((await analyze(invoice('ws_off', 7))).json.category).toBe('paused_one');
  });

  it('survives a flood of contradictory feedback on one decision without a server error', async () => {
    const d = await analyze(invoice('ws_b', 20));
    const labels = ['alpha', 'beta', 'gamma'];
    const replies = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        call(api.baseUrl, 'POST', `/decisions/${d.json.decision_id}/feedback`, {
          key,
          body: { category: labels[i % 3] },
        }),
      ),
    );
    for (const r of replies) expect([200, 503]).toContain(r.status);
    expect(replies.filter((r) => r.status === 200).length).toBeGreaterThan(12);
    expect((await analyze(invoice('ws_b', 21))).status).toBe(200);
  });
});
