// Upgrading to version 4 (docs/deploy.md): a workspace that learned before keeps what it learned. Its old items are
// written here directly in version 3's layout (a model item with its sketch key, label items with fold marks, a head
// and journal entries, one window half folded); the service then runs on them, a feedback lands before the migration,
// and `admin workspace migrate-learning` (run twice) moves the old counts once, the feedback counted once beside them.
// A workspace it cannot migrate is reported, with its error, and the command exits 1 once it has done the others.
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ITEM_PREFIX } from '../../lambdas/contract/tables';
import { encodeSketch } from '../../lambdas/domain/learning/sketch';
import { call } from '../support/http';
import { type TestApi, partnerWithKey, startTestApi } from '../support/local-api';
import { type AdminResult, adminCliEnv, runAdmin } from '../support/admin-cli';

jest.setTimeout(120_000);
let api: TestApi;
let key: string;
let env: NodeJS.ProcessEnv;
const ws = 'ws_v3';
const SKETCH_KEY = '0123456789abcdef';

const admin = (...args: string[]): Promise<AdminResult> => runAdmin(env, [...args, '--json']);

/** Version 3's items: billing 2 then moved out once (1), refund taught once folded and once after (2). */
function version3Items(): Record<string, unknown>[] {
  const sketch = encodeSketch({ t: [5, 9] });
  return [
    {
      pk: `${ITEM_PREFIX.workspaceModel}${ws}`,
      sketch_key: SKETCH_KEY,
      labels: new Set(['category:billing', 'category:refund']),
      version: 2,
    },
    { pk: `${ITEM_PREFIX.workspaceHead}${ws}`, generation: 0, seq: 3, folded: 1, folding: 2, folding_at: 1 },
    // Folded up to 1 (billing) and, by the window in flight, up to 2 (refund).
    { pk: `${ITEM_PREFIX.workspaceLabel}${ws}#category:billing`, docs: 2, total: 4, t5: 2, t9: 2, lf: 1 },
    { pk: `${ITEM_PREFIX.workspaceLabel}${ws}#category:refund`, docs: 1, total: 2, t5: 1, t9: 1, lf: 2 },
    { pk: `${ITEM_PREFIX.workspaceJournal}${ws}#g0#2`, sketch, ch: ['+category:refund'] },
    { pk: `${ITEM_PREFIX.workspaceJournal}${ws}#g0#3`, sketch, ch: ['-category:billing', '+category:refund'] },
  ];
}

// An API on tables of its own for each test: `migrate-learning` runs over every workspace of the table, and each test
// counts exactly the workspaces it wrote (ws_v3_bad, left failing by one test, would fail the other's run).
beforeEach(async () => {
  api = await startTestApi('migrate', { workspaceCacheTtlSeconds: 0 });
  env = adminCliEnv(api.tables.names);
}, 60_000);
afterEach(async () => api?.close());

it('keeps what a workspace learned before, and counts a feedback given meanwhile once', async () => {
  ({ key } = await partnerWithKey(api.admin, 'acme', [ws]));
  await api.tables.client.send(
    new BatchWriteCommand({
      RequestItems: { [api.tables.names.decisions]: version3Items().map((Item) => ({ PutRequest: { Item } })) },
    }),
  );
  const decision = await call(api.baseUrl, 'POST', '/signals/analyze', {
    key,
    body: { workspace_id: ws, source: 'email', subject: 'Refund', body: 'Please refund my last order.' },
  });
  expect(decision.status).toBe(200);
  const fb = await call(api.baseUrl, 'POST', `/decisions/${decision.json.decision_id}/feedback`, {
    key,
    body: { category: 'refund' },
  });
  expect(fb.status).toBe(200);
  // The workspace kept its sketch key: its counts and its decisions' sketches are in it.
  expect((await api.service.dependencies.workspaceStore.loadState(ws)).sketchKey).toBe(SKETCH_KEY);

  const first = await admin('workspace', 'migrate-learning');
  expect(first.code).toBe(0);
  expect(first.json).toEqual({ workspaces: 1, migrated: 1, examples: 3, failed: [] });
  const again = await admin('workspace', 'migrate-learning');
  expect(again.json).toEqual({ workspaces: 1, migrated: 0, examples: 0, failed: [] });

  const model = await admin('workspace', 'model', '--workspace', ws);
  expect(model.json).toEqual({
    workspace_id: ws,
    generation: 0,
    labels: [
      { field: 'category', label: 'billing', examples: 1 },
      { field: 'category', label: 'refund', examples: 3 },
    ],
  });
});

it('reports a workspace it cannot migrate, exits 1, and migrates the ones after it', async () => {
  // ws_v3_bad's model item is not as version 3 wrote one (its generation is no number: the first load fails on it
  // too); ws_v3_next sorts after it. Its tables hold no other workspace: a run before its items has nothing to fail.
  expect((await admin('workspace', 'migrate-learning')).code).toBe(0);
  const items = [
    {
      pk: `${ITEM_PREFIX.workspaceModel}ws_v3_bad`,
      sketch_key: SKETCH_KEY,
      labels: new Set(['category:x']),
      generation: 'x',
    },
    { pk: `${ITEM_PREFIX.workspaceModel}ws_v3_next`, sketch_key: SKETCH_KEY, labels: new Set(['category:billing']) },
    { pk: `${ITEM_PREFIX.workspaceLabel}ws_v3_next#category:billing`, docs: 2, total: 4, t5: 2, t9: 2 },
  ];
  await api.tables.client.send(
    new BatchWriteCommand({
      RequestItems: { [api.tables.names.decisions]: items.map((Item) => ({ PutRequest: { Item } })) },
    }),
  );
  const failed = [{ workspace_id: 'ws_v3_bad', error: expect.stringContaining('NaN') }];
  const run = await admin('workspace', 'migrate-learning');
  expect(run.code).toBe(1);
  expect(run.json).toEqual({ workspaces: expect.any(Number), migrated: 1, examples: 2, failed });
  // As text: the count, then each workspace that failed with its error.
  const text = await runAdmin(env, ['workspace', 'migrate-learning']);
  expect(text.code).toBe(1);
  expect(text.stdout).toMatch(/^0 of \d+ workspaces migrated \(0 label examples\), 1 failed .*\n {2}ws_v3_bad: .*NaN/);
  const model = await admin('workspace', 'model', '--workspace', 'ws_v3_next');
  expect(model.json.labels).toEqual([{ field: 'category', label: 'billing', examples: 2 }]);
});
