// `workspace policy get|set` and `feedback report` as an operator runs them (README, Admin CLI): the CLI as a real
// process against DynamoDB Local, over the tables of a service that made decisions and got feedback over HTTP.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call } from '../support/http';
import { apiWithAdminCli } from '../support/admin-cli';

jest.setTimeout(120_000);
const t = apiWithAdminCli('wsadmin', ['ws_r', 'ws_kw']);
const { admin } = t;
const dir = mkdtempSync(join(tmpdir(), 'policy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('sets a policy from a file, refuses an invalid one, and gets it as the API answers it', async () => {
  writeFileSync(join(dir, 'good.json'), JSON.stringify({ vip_senders: ['@acme.com'], learning: false }));
  writeFileSync(join(dir, 'bad.json'), JSON.stringify({ vip_senders: ['not an address'] }));
  const set = await admin('workspace', 'policy', 'set', '--workspace', 'ws_r', '--file', join(dir, 'good.json'));
  expect(set.json).toEqual({ vip_senders: ['@acme.com'], learning: false, version: 1, updated_at: expect.any(String) });
  const bad = await admin('workspace', 'policy', 'set', '--workspace', 'ws_r', '--file', join(dir, 'bad.json'));
  expect(bad.code).not.toBe(0);
  expect(bad.stderr).toMatch(/vip_senders/);
  // Over the 64 KiB a PUT takes (here in whitespace): refused, so GET never answers what PUT would refuse.
  writeFileSync(join(dir, 'large.json'), JSON.stringify({ vip_senders: ['@other.com'] }) + ' '.repeat(66_000));
  const large = await admin('workspace', 'policy', 'set', '--workspace', 'ws_r', '--file', join(dir, 'large.json'));
  expect(large.code).not.toBe(0);
  expect(large.stderr).toMatch(/64 KiB/);
  const got = await admin('workspace', 'policy', 'get', '--workspace', 'ws_r');
  expect(got.json.vip_senders).toEqual(['@acme.com']);
  const api1 = await call(t.api.baseUrl, 'GET', '/workspaces/ws_r/policy', { key: t.key });
  expect(got.json).toEqual(api1.json);
  // A file a Windows editor saved, with a byte order mark before the JSON.
  writeFileSync(join(dir, 'bom.json'), '\ufeff' + JSON.stringify({ vip_senders: ['@bom.example'] }));
  const bom = await admin('workspace', 'policy', 'set', '--workspace', 'ws_r', '--file', join(dir, 'bom.json'));
  expect(bom.json).toMatchObject({ vip_senders: ['@bom.example'], version: 2 });
});

it('reports agreement per field and the reason codes present where feedback disagreed', async () => {
  const ids: { id: string; category: string; priority: string; created_at: string }[] = [];
  for (let i = 0; i < 4; i++) {
    const d = await call(t.api.baseUrl, 'POST', '/signals/analyze', {
      key: t.key,
      body: {
        workspace_id: 'ws_r',
        source: 'email',
        sender: 'a@b.example',
        subject: `Production outage ${i}`,
        body: 'The site is down for all customers.',
      },
    });
    ids.push({
      id: d.json.decision_id,
      category: d.json.category,
      priority: d.json.priority,
      created_at: d.json.created_at,
    });
  }
  await call(t.api.baseUrl, 'POST', `/decisions/${ids[0].id}/feedback`, {
    key: t.key,
    body: { category: ids[0].category, priority: ids[0].priority },
  });
  await call(t.api.baseUrl, 'POST', `/decisions/${ids[1].id}/feedback`, {
    key: t.key,
    body: { category: 'other_thing' },
  });
  await call(t.api.baseUrl, 'POST', `/decisions/${ids[2].id}/feedback`, {
    key: t.key,
    body: { category: 'other_thing' },
  });
  const report = await admin('feedback', 'report', '--workspace', 'ws_r');
  expect(report.json).toMatchObject({
    workspace_id: 'ws_r',
    decisions: 4,
    with_feedback: 3,
    fields: {
      category: { given: 3, agreed: 1, agreement: 0.333 },
      priority: { given: 1, agreed: 1, agreement: 1 },
      queue: { given: 0, agreed: 0, agreement: null },
      recommended_action: { given: 0, agreed: 0, agreement: null },
    },
  });
  expect(report.json.disagreement_reasons[0]).toEqual({ code: expect.stringMatching(/^[A-Z_]+$/), count: 2 });
  const later = await admin(
    'feedback',
    'report',
    '--workspace',
    'ws_r',
    '--since',
    new Date(Date.now() + 60_000).toISOString(),
  );
  expect(later.json.decisions).toBe(0);
  // --since is inclusive: a decision made at that very millisecond is in the report.
  const newest = ids[3].created_at;
  const since = await admin('feedback', 'report', '--workspace', 'ws_r', '--since', newest);
  expect(since.json.decisions).toBe(ids.filter((d) => d.created_at >= newest).length);
});

it('counts a reason code once per disagreeing decision, however many of its reasons carry it', async () => {
  const policy = {
    keywords: ['zebra invoice', 'zebra payment', 'zebra refund'].map((phrase) => ({ phrase, weight: 5 })),
  };
  expect((await call(t.api.baseUrl, 'PUT', '/workspaces/ws_kw/policy', { key: t.key, body: policy })).status).toBe(200);
  const d = await call(t.api.baseUrl, 'POST', '/signals/analyze', {
    key: t.key,
    body: { workspace_id: 'ws_kw', source: 'email', subject: 'zebra invoice', body: 'zebra payment and zebra refund' },
  });
  expect(d.json.reasons.filter((r: { code: string }) => r.code === 'POLICY_KEYWORD')).toHaveLength(3);
  await call(t.api.baseUrl, 'POST', `/decisions/${d.json.decision_id}/feedback`, {
    key: t.key,
    body: { category: 'not_this' },
  });
  const report = await admin('feedback', 'report', '--workspace', 'ws_kw');
  expect(report.json.disagreement_reasons).toContainEqual({ code: 'POLICY_KEYWORD', count: 1 });
});
