// The workspace cache's bound holds for what its workspaces hold after this container's own imports
// (docs/operations.md, "Memory"): an import counts its examples into the cached model in place, and the entry is
// weighed again, so a container importing into many workspaces evicts the least recent instead of holding every model
// it taught (a review's 239 imports of 100 long examples over 100 workspaces ran a container out of memory: each
// workspace stayed weighed as the empty model it was loaded as). Real stores over DynamoDB Local; the weights are the
// cache's own estimate (weightOf), computed by code, not heap usage.
import { learningTableOf } from '../../lambdas/contract/settings';
import { WorkspaceCache, weightOf } from '../../lambdas/domain/learning/workspace-cache';
import { importExamples } from '../../lambdas/import-examples/import-examples';
import { DynamoModelWriteStore } from '../../lambdas/stores/model-write-store';
import { DynamoWorkspaceStore } from '../../lambdas/stores/workspace-store';
import { type TestTables, createTestTables } from '../support/dynamodb';
import { testSettings } from '../support/local-api';

let tables: TestTables;
beforeAll(async () => {
  tables = await createTestTables('cacheweight');
});
afterAll(async () => tables?.drop());

/** Long examples of seeded random words (most of their 96 text buckets distinct), one of four labels a field. */
function longExamples(n: number, seed: number) {
  let s = seed;
  const random = () => (s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const word = () =>
    Array.from({ length: 3 + Math.floor(random() * 6) }, () => 'abcdefghij'[Math.floor(random() * 10)]);
  const text = (chars: number) => {
    let out = '';
    while (out.length < chars) out += `${word().join('')} `;
    return out.slice(0, chars);
  };
  return Array.from({ length: n }, (_, i) => ({
    signal: { source: 'email', subject: text(100), body: text(1_150), sender: `ops${i}@carrier${seed}.example` },
    labels: { category: `c${i % 4}`, queue: `q${i % 4}`, priority: 'high', recommended_action: 'review' },
  }));
}

it("weighs a cached workspace again after this container's own import, and keeps the cache within its bound", async () => {
  const learning = learningTableOf(testSettings(tables));
  const workspaceStore = new DynamoWorkspaceStore(tables.client, tables.names.decisions, learning);
  const store = new DynamoModelWriteStore(tables.client, tables.names.decisions, learning);
  // Room for about two of these workspaces once taught (each about 0.6 MB by the estimate), not four.
  const bound = 1_500_000;
  const cache = new WorkspaceCache(
    (id) => workspaceStore.loadState(id),
    30_000,
    Date.now,
    (id, cached) => workspaceStore.refreshState(id, cached),
    bound,
  );
  const ids = ['ws_weigh_0', 'ws_weigh_1', 'ws_weigh_2', 'ws_weigh_3'];
  for (const [i, id] of ids.entries()) {
    const outcome = await importExamples(
      id,
      longExamples(20, i + 1),
      { workspaces: cache, store },
      { nowMs: Date.now() },
    );
    expect(outcome.kind).toBe('imported');
    // What the cache counts against its bound is what the workspaces it holds weigh now, taught.
    const held = ids.map((w) => cache.peek(w)).filter((c) => c !== undefined);
    expect(cache.weight).toBe(held.reduce((sum, c) => sum + weightOf(c.state), 0));
    expect(cache.weight).toBeLessThanOrEqual(bound);
  }
  // The import just made is held (the most recent), taught; the oldest were let go.
  const last = cache.peek(ids[3]);
  expect(last?.state.model.labels.reduce((sum, l) => sum + l.docs, 0)).toBe(80);
  expect(cache.peek(ids[0])).toBeUndefined();
  expect(cache.size).toBeLessThan(ids.length);
});
