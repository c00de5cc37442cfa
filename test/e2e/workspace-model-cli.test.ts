// `workspace model` as an operator runs it (README, Admin CLI): after a CLI import of N examples of a label it shows N,
// feedback over HTTP adds to it, and after a forget it shows the new, empty generation.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call } from '../support/http';
import { apiWithAdminCli, runAdmin } from '../support/admin-cli';

jest.setTimeout(120_000);
const t = apiWithAdminCli('wsmodel', ['ws_m']);
const { admin } = t;
const dir = mkdtempSync(join(tmpdir(), 'model-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('shows the examples held per field and label, the way the service loads them', async () => {
  const line = (i: number, category: string) =>
    JSON.stringify({
      signal: { source: 'email', subject: `Parcel ${i}`, body: `Where is parcel ${i}?` },
      labels: { category },
    });
  const lines = [
    ...Array.from({ length: 7 }, (_, i) => line(i, 'customs_hold')),
    line(8, 'billing'),
    line(9, 'billing'),
  ];
  writeFileSync(join(dir, 'history.jsonl'), `${lines.join('\n')}\n`);
  const imported = await admin('workspace', 'import', '--workspace', 'ws_m', '--file', join(dir, 'history.jsonl'));
  expect(imported.json.learned).toBe(9);

  const shown = await admin('workspace', 'model', '--workspace', 'ws_m');
  expect(shown.code).toBe(0);
  expect(shown.json).toEqual({
    workspace_id: 'ws_m',
    generation: 0,
    labels: [
      { field: 'category', label: 'billing', examples: 2 },
      { field: 'category', label: 'customs_hold', examples: 7 },
    ],
  });

  const decision = await call(t.api.baseUrl, 'POST', '/signals/analyze', {
    key: t.key,
    body: { workspace_id: 'ws_m', source: 'email', subject: 'Invoice', body: 'I was billed twice this month.' },
  });
  await call(t.api.baseUrl, 'POST', `/decisions/${decision.json.decision_id}/feedback`, {
    key: t.key,
    body: { category: 'billing', priority: 'high' },
  });
  const text = await runAdmin(t.env, ['workspace', 'model', '--workspace', 'ws_m']);
  expect(text.stdout).toMatch(/generation 0, 3 labels/);
  expect(text.stdout).toMatch(/category {2}billing {2}3/);
  expect(text.stdout).toMatch(/priority {2}high {2}1/);

  expect((await call(t.api.baseUrl, 'DELETE', '/workspaces/ws_m/model', { key: t.key })).status).toBe(200);
  expect((await admin('workspace', 'model', '--workspace', 'ws_m')).json).toEqual({
    workspace_id: 'ws_m',
    generation: 1,
    labels: [],
  });
});
