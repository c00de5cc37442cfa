// A container keeps a learned model fresh without reloading it (issue 23): past its TTL, one small read of the
// workspace head tells whether anything changed; after an import, only the import's journal entry is read.
import { ITEM_PREFIX } from '../../lambdas/contract/tables';
import { WorkspaceCache } from '../../lambdas/domain/learning/workspace-cache';
import type { WorkspaceState } from '../../lambdas/domain/ports';
import { importExamples } from '../../lambdas/import-examples/import-examples';
import { FOLD_LAG, FOLD_WINDOW } from '../../lambdas/stores/fold-schedule';
import { DynamoModelWriteStore } from '../../lambdas/stores/model-write-store';
import { DynamoWorkspaceStore } from '../../lambdas/stores/workspace-store';
import { type TestTables, createTestTables, decisionItemsStartingWith } from '../support/dynamodb';

let tables: TestTables;
let store: DynamoWorkspaceStore;
let writes: DynamoModelWriteStore;

beforeAll(async () => {
  tables = await createTestTables('modelrefresh');
  store = new DynamoWorkspaceStore(tables.client, tables.names.decisions);
  writes = new DynamoModelWriteStore(tables.client, tables.names.decisions);
});
afterAll(async () => tables?.drop());

const example = (category: string, i: number) => ({
  signal: {
    source: 'email',
    sender: `a${i}@${category}.example`,
    subject: `${category} request ${i}`,
    body: `Please handle the ${category} case number ${i}.`,
  },
  labels: { category },
});

it("reads one small item when nothing changed, and only the import's journal entry otherwise", async () => {
  const ws = 'ws_refresh';
  let now = 1_000_000;
  const calls = { loads: 0, refreshes: 0, last: undefined as WorkspaceState | undefined };
  const cache = new WorkspaceCache(
    async (id) => {
      calls.loads++;
      return store.loadState(id);
    },
    30_000,
    () => now,
    async (id, cached) => {
      calls.refreshes++;
      return (calls.last = await store.refreshState(id, cached));
    },
  );
  // Another container's writes: three labels taught.
  const other = new WorkspaceCache((id) => store.loadState(id), 0);
  const teach = (examples: unknown[]) =>
    importExamples(ws, examples, { workspaces: other, store: writes }, { nowMs: Date.now() });
  await teach(['billing', 'shipping', 'returns'].flatMap((c) => [0, 1, 2].map((i) => example(c, i))));

  const first = await cache.get(ws);
  expect(calls.loads).toBe(1);
  const objects = new Map(first.state.model.labels.map((l) => [l.label, l]));

  now += 31_000;
  const same = await cache.get(ws);
  expect(same).toBe(first);
  expect({ loads: calls.loads, refreshes: calls.refreshes, result: calls.last }).toEqual({
    loads: 1,
    refreshes: 1,
    result: undefined,
  });

  await teach([example('billing', 9)]);
  now += 31_000;
  const changed = await cache.get(ws);
  expect(calls.loads).toBe(1);
  // The check and one BatchGet of the import's journal entry: no label item is read or written.
  expect(calls.last?.loadCost.requests).toBe(2);
  const byLabel = new Map(changed.state.model.labels.map((l) => [l.label, l]));
  expect(byLabel.get('billing')?.docs).toBe(4);
  expect(byLabel.get('shipping')).toBe(objects.get('shipping'));
  expect(byLabel.get('returns')).toBe(objects.get('returns'));

  await writes.forget(ws);
  now += 31_000;
  const reset = await cache.get(ws);
  expect(reset.state.model.labels).toEqual([]);
  expect(reset.state.generation).toBe(1);
});

it("deletes the forgotten generation's label items after a reset, and keeps the new generation's", async () => {
  const ws = 'ws_forget_cleanup';
  const cache = new WorkspaceCache((id) => store.loadState(id), 0);
  // Every import folded at once into the label items (by default once the imports weigh IMPORT_FOLD_WEIGHT examples).
  const writes = new DynamoModelWriteStore(tables.client, tables.names.decisions, {
    window: FOLD_WINDOW,
    lag: FOLD_LAG,
    importWeight: 1,
  });
  const teach = (categories: string[]) =>
    importExamples(
      ws,
      categories.flatMap((c) => [0, 1].map((i) => example(c, i))),
      { workspaces: cache, store: writes },
      { nowMs: Date.now() },
    );
  const labelItems = async () =>
    (await decisionItemsStartingWith(tables, `${ITEM_PREFIX.workspaceLabel}${ws}#`)).map((i) => i.pk as string);

  await teach(['billing', 'shipping', 'returns']);
  expect(await labelItems()).toHaveLength(3);
  await writes.forget(ws);
  expect(await labelItems()).toEqual([]);

  // The new generation learns and keeps its own items; a second reset removes them too.
  await teach(['billing']);
  expect(await labelItems()).toEqual([`${ITEM_PREFIX.workspaceLabel}${ws}#g1#category:billing`]);
  expect((await store.loadState(ws)).model.labels.map((l) => l.label)).toEqual(['billing']);
  await writes.forget(ws);
  expect(await labelItems()).toEqual([]);
});
