// `workspace model` as an operator runs it (docs/operations.md, Admin CLI): after a CLI import of N examples of a label it shows N,
// feedback over HTTP adds to it, and after a forget it shows the new, empty generation.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ITEM_PREFIX } from '../../lambdas/contract/tables';
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

it('reads an unknown workspace without writing: generation 0, no labels, and no item left in the learning table', async () => {
  const { client, names } = t.api.tables;
  const learningItems = async (ws: string) =>
    (
      await client.send(
        new QueryCommand({
          TableName: names.learning,
          KeyConditionExpression: 'ws = :ws',
          ExpressionAttributeValues: { ':ws': ws },
          ConsistentRead: true,
        }),
      )
    ).Items ?? [];
  // A typo: before, it made a model item with a sketch key for it.
  const typo = await admin('workspace', 'model', '--workspace', 'ws_mm');
  expect(typo.code).toBe(0);
  expect(typo.json).toEqual({ workspace_id: 'ws_mm', generation: 0, labels: [] });
  expect(await learningItems('ws_mm')).toEqual([]);
  // One that learned before version 4 and no load has seen since: the generation a load would give it, still unwritten.
  await client.send(
    new PutCommand({
      TableName: names.decisions,
      Item: { pk: `${ITEM_PREFIX.workspaceModel}ws_v3`, generation: 2, sketch_key: '0123456789abcdef' },
    }),
  );
  expect((await admin('workspace', 'model', '--workspace', 'ws_v3')).json).toEqual({
    workspace_id: 'ws_v3',
    generation: 2,
    labels: [],
  });
  expect(await learningItems('ws_v3')).toEqual([]);
  // The service's own load still makes the item, with version 3's generation and key.
  const loaded = await t.api.service.dependencies.workspaceStore.loadState('ws_v3');
  expect(loaded).toMatchObject({ generation: 2, sketchKey: '0123456789abcdef' });
  expect(await learningItems('ws_v3')).toEqual([expect.objectContaining({ sk: 'm', g: 2 })]);
});
