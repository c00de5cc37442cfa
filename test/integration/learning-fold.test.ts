// Two containers on one workspace, and folds (docs/learning.md, "Storage layout"): a container's check applies what
// another taught exactly once, its own feedback at once; a fold, run twice at once or left half done by a crash and
// run again, leaves a new load with the same counts as before it.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { analyzeSignal } from '../../lambdas/application/analyze-signal';
import { applyOwnEntry } from '../../lambdas/application/model-learning';
import { learningTableOf } from '../../lambdas/contract/settings';
import { OVERLAP_MS } from '../../lambdas/domain/learning/entries';
import type { WorkspaceState } from '../../lambdas/domain/ports';
import { recordFeedback } from '../../lambdas/application/record-feedback';
import { type Service, createService } from '../../lambdas/service';
import { FOLD_TAKEOVER_MS, LearningFolder } from '../../lambdas/stores/learning-fold';
import { MODEL_KEY } from '../../lambdas/stores/learning-items';
import { type TestTables, createTestTables } from '../support/dynamodb';
import { testSettings } from '../support/local-api';

let tables: TestTables;
/** Two containers: their own services (caches) over the same tables. */
let a: Service;
let b: Service;
let learning: string;

beforeAll(async () => {
  tables = await createTestTables('learnfold');
  a = createService(testSettings(tables));
  b = createService(testSettings(tables));
  learning = learningTableOf(testSettings(tables));
});
afterAll(async () => {
  a?.close();
  b?.close();
  await tables?.drop();
});

const owner = { partner_id: 'acme', key_id: 'key_test' };

async function decide(on: Service, ws: string, i: number): Promise<string> {
  const deps = on.dependencies;
  const signal = {
    workspace_id: ws,
    source: 'support_message' as const,
    body: `Card declined again, ticket ${i}`,
    received_at: new Date().toISOString(),
  };
  const workspace = await deps.workspaces.get(ws);
  const out = await analyzeSignal(signal, owner, deps.decisionStore, { nowMs: Date.now(), workspace });
  if (out.kind !== 'created') throw new Error(out.kind);
  return out.decision.decision_id;
}

/** Feedback through a container, applied to its own cached model as the route does. */
async function teach(on: Service, id: string, category: string): Promise<void> {
  const deps = on.dependencies;
  const target = await deps.feedbackStore.getTarget(id);
  const workspace = await deps.workspaces.get(target!.decision.workspace_id);
  const out = await recordFeedback(target!, { category }, deps.feedbackStore, workspace, new Date().toISOString());
  if (out.kind !== 'recorded') throw new Error(out.kind);
  applyOwnEntry(workspace.state, out);
}

const held = (state: WorkspaceState) =>
  Object.fromEntries(state.model.labels.filter((l) => l.docs > 0).map((l) => [l.label, l.docs]));
const fresh = async (ws: string) => held(await a.dependencies.workspaceStore.loadState(ws));

it("a container's check applies another's feedback once, and its own at once", async () => {
  const ws = 'ws_fold_two';
  const ids = [await decide(a, ws, 1), await decide(a, ws, 2)];
  const cachedA = (await a.dependencies.workspaces.get(ws)).state;
  await teach(b, ids[0], 'card_declined');
  // A has not read B's entry yet; its own correction of the same decision takes nothing out before it was added.
  await teach(a, ids[0], 'refund');
  await teach(a, ids[1], 'refund');
  expect(held(cachedA)).toEqual({ refund: 2 });
  const store = a.dependencies.workspaceStore;
  expect(await store.refreshState(ws, cachedA)).toBeDefined();
  expect(held(cachedA)).toEqual({ refund: 2 });
  // The same entries read again within the overlap change nothing.
  expect(await store.refreshState(ws, cachedA)).toBeUndefined();
  expect(held(cachedA)).toEqual({ refund: 2 });
  expect(await fresh(ws)).toEqual({ refund: 2 });
});

it('a fold run twice at once, or left half done and run again, leaves the same counts', async () => {
  const ws = 'ws_fold_runs';
  const ids: string[] = [];
  for (let i = 0; i < 6; i++) ids.push(await decide(a, ws, i));
  for (const [i, id] of ids.entries()) await teach(i % 2 ? a : b, id, i < 4 ? 'card_declined' : 'refund');
  await teach(a, ids[0], 'refund');
  const before = await fresh(ws);
  expect(before).toEqual({ card_declined: 3, refund: 3 });

  // A fold whose runner dies after its label updates, before it moves the model item's mark.
  const later = Date.now() + OVERLAP_MS + 1;
  const dying = new LearningFolder(tables.client, learning);
  const send = tables.client.send.bind(tables.client) as (command: unknown) => Promise<unknown>;
  const crashing = Object.create(tables.client) as typeof tables.client;
  (crashing as { send: unknown }).send = async (command: { input: { UpdateExpression?: string } }) => {
    if (command instanceof UpdateCommand && command.input.UpdateExpression?.startsWith('SET f ='))
      throw new Error('injected: the runner died');
    return send(command);
  };
  await expect(new LearningFolder(crashing, learning).fold(ws, later)).rejects.toThrow('injected');
  expect(await fresh(ws)).toEqual(before);
  // Within FOLD_TAKEOVER_MS nobody runs it again; after, two runners finish it together.
  expect(await dying.fold(ws, later)).toBeLessThan(later);
  const takeover = later + FOLD_TAKEOVER_MS;
  await Promise.all([dying.fold(ws, takeover), new LearningFolder(tables.client, learning).fold(ws, takeover)]);
  expect(await fresh(ws)).toEqual(before);
  const model = await tables.client.send(
    new (await import('@aws-sdk/lib-dynamodb')).GetCommand({ TableName: learning, Key: { ws, sk: MODEL_KEY } }),
  );
  expect(model.Item?.fw).toBeUndefined();
  expect(Number(model.Item?.f)).toBe(later - OVERLAP_MS);

  // More feedback after the fold, folded again by two runners at once.
  await teach(b, ids[1], 'refund');
  const again = later + 2 * OVERLAP_MS;
  await Promise.all([dying.fold(ws, again), new LearningFolder(tables.client, learning).fold(ws, again)]);
  expect(await fresh(ws)).toEqual({ card_declined: 2, refund: 4 });
});
