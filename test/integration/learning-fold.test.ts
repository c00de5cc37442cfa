// Two containers on one workspace, and folds (docs/learning.md, "Storage layout"): a container's check applies what
// another taught exactly once, its own feedback at once; a fold, run twice at once or left half done by a crash and
// run again, leaves a new load with the same counts as before it. What TTL deletes is only what a fold summed, however
// long the workspace sees no request. A check whose policy read failed reads it again at the next check.
import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { analyzeSignal } from '../../lambdas/application/analyze-signal';
import { applyOwnEntry } from '../../lambdas/application/model-learning';
import { learningTableOf } from '../../lambdas/contract/settings';
import { OVERLAP_MS } from '../../lambdas/domain/learning/entries';
import type { WorkspaceState } from '../../lambdas/domain/ports';
import { recordFeedback } from '../../lambdas/application/record-feedback';
import { importExamples } from '../../lambdas/import-examples/import-examples';
import { type Service, createService } from '../../lambdas/service';
import { FOLD_TAKEOVER_MS, LearningFolder } from '../../lambdas/stores/learning-fold';
import { MODEL_KEY, entryItem, getModel } from '../../lambdas/stores/learning-items';
import { DynamoModelWriteStore } from '../../lambdas/stores/model-write-store';
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

const DAY_MS = 86_400_000;

/**
 * What DynamoDB's TTL would have deleted by `atMs`: every learning item of `ws` whose `expires_at` is past (DynamoDB
 * Local deletes nothing). Answers how many it deleted.
 */
async function ttlSweep(ws: string, atMs: number): Promise<number> {
  const out = await tables.client.send(
    new QueryCommand({
      TableName: learning,
      KeyConditionExpression: 'ws = :ws',
      ExpressionAttributeValues: { ':ws': ws },
      ConsistentRead: true,
    }),
  );
  const expired = (out.Items ?? []).filter((i) => i.expires_at !== undefined && Number(i.expires_at) * 1000 < atMs);
  for (const i of expired) await tables.client.send(new DeleteCommand({ TableName: learning, Key: { ws, sk: i.sk } }));
  return expired.length;
}

it('an import and a feedback no request reads for 31 days keep their counts; TTL deletes only what a fold summed', async () => {
  const ws = 'ws_fold_ttl';
  // An operator imports history weeks before the partner goes live; one feedback too. Then no request for 31 days.
  const examples = Array.from({ length: 5 }, (_, i) => ({
    signal: { source: 'email', sender: `a${i}@supplier.example`, subject: `Invoice ${i} overdue`, body: 'Please pay.' },
    labels: { category: 'supplier_invoice' },
  }));
  const deps = { workspaces: a.dependencies.workspaces, store: a.dependencies.modelWrites };
  const out = await importExamples(ws, examples, deps, { nowMs: Date.now() });
  expect(out.kind === 'imported' && out.answer.learned).toBe(5);
  await teach(a, await decide(a, ws, 1), 'refund');
  await ttlSweep(ws, Date.now() + 31 * DAY_MS);
  expect(await fresh(ws)).toEqual({ supplier_invoice: 5, refund: 1 });

  // Folded, the entries expire 30 days after the fold: then TTL deletes them, and the label items hold their counts.
  const later = Date.now() + OVERLAP_MS + 1;
  await new LearningFolder(tables.client, learning).fold(ws, later);
  expect(await ttlSweep(ws, later + 29 * DAY_MS)).toBe(0);
  expect(await ttlSweep(ws, later + 31 * DAY_MS)).toBe(2);
  expect(await fresh(ws)).toEqual({ supplier_invoice: 5, refund: 1 });
});

it('a fold stopped between two expiries loses no count when TTL deletes those it expired before any takeover', async () => {
  const ws = 'ws_fold_expiry_cut';
  await teach(a, await decide(a, ws, 1), 'refund');
  await new LearningFolder(tables.client, learning).fold(ws, Date.now() + OVERLAP_MS + 1);
  // The next window: a decision taught refund, then moved to billing. Refund's share sums to nothing.
  const moved = await decide(a, ws, 2);
  await teach(a, moved, 'refund');
  await teach(a, moved, 'billing');
  const [, second] = (await entriesLeft(ws)).filter(([, expiring]) => !expiring).map(([id]) => id);
  // The fold's expiry of the second entry fails (throttled, or the Lambda stopped between two expiries; a cut by
  // FOLD_RUN_MS stops there too). DynamoDB Local never throttles, so this one failure is injected, answered once the
  // calls sent before it have landed.
  const sent: Promise<unknown>[] = [];
  const failing = Object.create(tables.client) as typeof tables.client;
  (failing as { send: unknown }).send = async (command: unknown) => {
    if (command instanceof UpdateCommand && String(command.input.Key?.sk).endsWith(String(second))) {
      await Promise.allSettled(sent);
      throw Object.assign(new Error('injected: throttled'), { name: 'ThrottlingException' });
    }
    const out = tables.client.send(command as UpdateCommand);
    sent.push(out);
    return out;
  };
  const later = Date.now() + OVERLAP_MS + 1;
  await expect(new LearningFolder(failing, learning).fold(ws, later)).rejects.toThrow('injected');
  // No request for 31 days: TTL deletes the first fold's entry and the window's that got its expiry, not the other.
  expect((await entriesLeft(ws)).map(([, expiring]) => expiring)).toEqual([true, true, false]);
  expect(await ttlSweep(ws, later + 31 * DAY_MS)).toBe(2);
  expect(await fresh(ws)).toEqual({ refund: 1, billing: 1 });
  // The takeover, at the next request, finishes the fold with the same counts.
  await new LearningFolder(tables.client, learning).fold(ws, later + 31 * DAY_MS);
  expect(await fresh(ws)).toEqual({ refund: 1, billing: 1 });
});

it('a forget deletes the entries it leaves unfolded (they have no expiry of their own)', async () => {
  const ws = 'ws_fold_forget';
  await teach(a, await decide(a, ws, 1), 'refund');
  expect(await a.dependencies.modelWrites.forget(ws)).toBe(1);
  const left = await tables.client.send(
    new QueryCommand({
      TableName: learning,
      KeyConditionExpression: 'ws = :ws AND begins_with(sk, :e)',
      ExpressionAttributeValues: { ':ws': ws, ':e': 'e#' },
      ConsistentRead: true,
    }),
  );
  // The reset's own entry is left: it expires 30 days after it was written.
  expect(left.Items?.map((i) => [String(i.sk).slice(16), i.expires_at !== undefined])).toEqual([['r.1', true]]);
});

it('a sender in bucket 20, whose count would be named like the sort key, is folded and loaded', async () => {
  const ws = 'ws_fold_sk';
  await a.dependencies.workspaces.get(ws);
  const at = Date.now() - 1_000;
  const sketch = { t: [3, 40, 500], s: 20, d: 21 };
  const item = entryItem(ws, at, 'f.dec_sk.1', 0, {
    sketch,
    changes: [{ field: 'category', label: 'refund', sign: 1 }],
  });
  await tables.client.send(new PutCommand({ TableName: learning, Item: item }));
  await new LearningFolder(tables.client, learning).fold(ws, Date.now() + OVERLAP_MS + 1);
  const refund = (await a.dependencies.workspaceStore.loadState(ws)).model.labels.find((l) => l.label === 'refund');
  expect(refund?.docs).toBe(1);
  expect([...refund!.senders]).toEqual([[20, 1]]);
  expect([...refund!.domains]).toEqual([[21, 1]]);
});

it('a label item of one attribute a count, as folds wrote them before the binary form, loads and is rewritten as one binary by its next fold', async () => {
  const ws = 'ws_fold_old_form';
  await a.dependencies.workspaceStore.loadState(ws);
  // Buckets in base 36 (40 is `t14`, 500 `tdw`); sender bucket 20 was `s0k`: `sk` is the sort key.
  const old = { ws, sk: 'c#0#category:refund', docs: 2, total: 4, t3: 2, t14: 1, tdw: 1, s0k: 2, w: 1 };
  await tables.client.send(new PutCommand({ TableName: learning, Item: old }));
  const loaded = (await b.dependencies.workspaceStore.loadState(ws)).model.labels;
  expect(loaded.map((l) => [l.label, l.docs, [...l.text].sort((x, y) => x[0] - y[0]), [...l.senders]])).toEqual([
    [
      'refund',
      2,
      [
        [3, 2],
        [40, 1],
        [500, 1],
      ],
      [[20, 2]],
    ],
  ]);

  const sketch = { t: [3, 41], s: 20 };
  const entry = entryItem(ws, Date.now() - 1_000, 'f.dec_old.1', 0, {
    sketch,
    changes: [{ field: 'category', label: 'refund', sign: 1 }],
  });
  await tables.client.send(new PutCommand({ TableName: learning, Item: entry }));
  await new LearningFolder(tables.client, learning).fold(ws, Date.now() + OVERLAP_MS + 1);
  const [item] = await itemsOf(ws, 'c#');
  expect(Object.keys(item).sort()).toEqual(['cb', 'docs', 'sk', 'total', 'w', 'ws']);
  const refund = (await b.dependencies.workspaceStore.loadState(ws)).model.labels[0];
  expect([refund.docs, refund.total]).toEqual([3, 6]);
  expect(new Map(refund.text)).toEqual(
    new Map([
      [3, 3],
      [40, 1],
      [41, 1],
      [500, 1],
    ]),
  );
  expect([...refund.senders]).toEqual([[20, 3]]);
});

it('a count a fold takes below 0 stays so until a later fold adds to it, as a stored sum, and no load uses it', async () => {
  // Version 4's feedback moving a decision out of a label whose version 3 counts `migrate-learning` has not moved yet.
  const ws = 'ws_fold_below_0';
  await a.dependencies.workspaceStore.loadState(ws);
  // Each fold's window ends at the time given: the second entry lands after the first fold's mark.
  const at = Date.now();
  const fold = (end: number) => new LearningFolder(tables.client, learning).fold(ws, end + OVERLAP_MS);
  const put = (time: number, id: string, body: Parameters<typeof entryItem>[4]) =>
    tables.client.send(new PutCommand({ TableName: learning, Item: entryItem(ws, time, id, 0, body) }));
  await put(at - 1_000, 'f.dec_m.2', {
    sketch: { t: [7, 8] },
    changes: [
      { field: 'category', label: 'refund', sign: -1 },
      { field: 'category', label: 'billing', sign: 1 },
    ],
  });
  await fold(at);
  expect((await a.dependencies.workspaceStore.loadState(ws)).model.labels.map((l) => l.label)).toEqual(['billing']);

  // The migration's counts: two decisions in refund, one of them the one moved out above.
  const counts = new Map([
    ['t7', 2],
    ['t8', 1],
    ['t9', 1],
  ]);
  await put(at + 1_000, 'x.migrated', { deltas: [{ field: 'category', label: 'refund', docs: 2, total: 4, counts }] });
  await fold(at + 2_000);
  const refund = (await a.dependencies.workspaceStore.loadState(ws)).model.labels.find((l) => l.label === 'refund');
  expect(refund?.docs).toBe(1);
  expect(new Map(refund!.text)).toEqual(
    new Map([
      [7, 1],
      [9, 1],
    ]),
  );
});

it('a fold out of time stops with its claim held, and the run that takes it over writes only the labels left', async () => {
  // Inside a request a fold runs FOLD_RUN_MS at most, so the request answers in time whatever the window touches.
  const ws = 'ws_fold_cut';
  for (let i = 0; i < 3; i++) await teach(a, await decide(a, ws, i), ['refund', 'card_declined', 'billing'][i]);
  const later = Date.now() + OVERLAP_MS + 1;
  let starts = 0;
  // Out of time once the first label has started.
  expect(await new LearningFolder(tables.client, learning).fold(ws, later, () => ++starts > 1)).toBe(0);
  expect(await labelsHoldingCounts(ws)).toHaveLength(1);
  // No entry may expire before every label holds it.
  expect((await entriesLeft(ws)).map(([, expiring]) => expiring)).toEqual([false, false, false]);
  // Another run waits FOLD_TAKEOVER_MS after the claim, then does the rest.
  expect(await new LearningFolder(tables.client, learning).fold(ws, later + 1)).toBe(0);
  const end = await new LearningFolder(tables.client, learning).fold(ws, later + FOLD_TAKEOVER_MS);
  expect(end).toBe(later - OVERLAP_MS);
  expect((await entriesLeft(ws)).map(([, expiring]) => expiring)).toEqual([true, true, true]);
  const labels = (await b.dependencies.workspaceStore.loadState(ws)).model.labels;
  expect(labels.map((l) => [l.label, l.docs]).sort()).toEqual([
    ['billing', 1],
    ['card_declined', 1],
    ['refund', 1],
  ]);
});

it('a run that takes a fold over claims it in turn: another check within FOLD_TAKEOVER_MS of it leaves the fold alone', async () => {
  const ws = 'ws_fold_takeover';
  for (let i = 0; i < 3; i++) await teach(a, await decide(a, ws, i), ['refund', 'card_declined', 'billing'][i]);
  const later = Date.now() + OVERLAP_MS + 1;
  /** Out of time once `n` labels have started (a label already written counts, skipped). */
  const cutAfter = (n: number) => {
    let starts = 0;
    return () => ++starts > n;
  };
  // A run cut after one label, then a takeover cut after one more: one label left.
  await new LearningFolder(tables.client, learning).fold(ws, later, cutAfter(1));
  const takeoverAt = later + FOLD_TAKEOVER_MS;
  await new LearningFolder(tables.client, learning).fold(ws, takeoverAt, cutAfter(2));
  expect(await labelsHoldingCounts(ws)).toHaveLength(2);
  // Another container's check soon after: the fold is the takeover's for FOLD_TAKEOVER_MS, not the first run's claim.
  const idle = new LearningFolder(tables.client, learning);
  expect(await idle.fold(ws, takeoverAt + 1)).toBe(0);
  expect(idle.stats.writeUnits).toBe(0);
  expect(await labelsHoldingCounts(ws)).toHaveLength(2);
  // Once that has passed too, the next check finishes it.
  expect(await new LearningFolder(tables.client, learning).fold(ws, takeoverAt + FOLD_TAKEOVER_MS)).toBe(
    later - OVERLAP_MS,
  );
  expect(await labelsHoldingCounts(ws)).toHaveLength(3);
});

it("a container that found another run's fold in flight tries again at its next check, and takes it over once that run is gone", async () => {
  const ws = 'ws_fold_left';
  const store = a.dependencies.workspaceStore;
  await teach(a, await decide(a, ws, 1), 'refund');
  // An import two hours old, not folded (an hour old makes a fold due at a container's next check) ...
  const old = Date.now() - 2 * 3_600_000;
  await tables.client.send(
    new PutCommand({
      TableName: learning,
      Item: entryItem(ws, old, 'x.old', 0, {
        deltas: [{ field: 'category', label: 'billing', docs: 1, total: 1, counts: new Map([['t3', 1]]) }],
      }),
    }),
  );
  // ... and another container's fold of it claimed just now, that container then stopped.
  const claim = (at: number) =>
    tables.client.send(
      new UpdateCommand({
        TableName: learning,
        Key: { ws, sk: MODEL_KEY },
        UpdateExpression: 'SET fw = :end, fa = :at',
        ExpressionAttributeValues: { ':end': Date.now() - OVERLAP_MS, ':at': at },
      }),
    );
  await claim(Date.now());
  const state = await store.loadState(ws);
  expect((await getModel(tables.client, learning, ws)).folded).toBe(0);
  // FOLD_TAKEOVER_MS on (the claim's time moved back rather than waited for): the next check takes the fold over.
  await claim(Date.now() - FOLD_TAKEOVER_MS - 1);
  await store.refreshState(ws, state);
  expect((await getModel(tables.client, learning, ws)).folded).toBeGreaterThan(old);
  expect(await fresh(ws)).toEqual({ refund: 1, billing: 1 });
});

it("a fold's write units are every write's, its label updates and expiries running at once", async () => {
  const ws = 'ws_fold_units';
  for (let i = 0; i < 6; i++) await teach(a, await decide(a, ws, i), ['refund', 'card_declined', 'billing'][i % 3]);
  let counted = 0;
  const send = tables.client.send.bind(tables.client) as (command: unknown) => Promise<{ ConsumedCapacity?: unknown }>;
  const counting = Object.create(tables.client) as typeof tables.client;
  (counting as { send: unknown }).send = async (command: { constructor: { name: string } }) => {
    const out = await send(command);
    const units = [out.ConsumedCapacity ?? []].flat() as { CapacityUnits?: number }[];
    if (['UpdateCommand', 'PutCommand'].includes(command.constructor.name))
      counted += units.reduce((n, c) => n + (c.CapacityUnits ?? 0), 0);
    return out;
  };
  const folder = new LearningFolder(counting, learning);
  await folder.fold(ws, Date.now() + OVERLAP_MS + 1);
  // The claim, 3 labels, 6 expiries and the mark.
  expect(counted).toBeGreaterThanOrEqual(11);
  expect(folder.stats.writeUnits).toBe(counted);
});

it('a check whose policy read failed reads the policy again at the next check', async () => {
  const ws = 'ws_fold_policy';
  // One failed GetItem of the policy, injected: DynamoDB Local cannot be made to throttle or time out one read.
  let failPolicyRead = false;
  const send = tables.client.send.bind(tables.client) as (command: unknown) => Promise<unknown>;
  const flaky = Object.create(tables.client) as typeof tables.client;
  (flaky as { send: unknown }).send = async (command: unknown) => {
    if (failPolicyRead && command instanceof GetCommand && String(command.input.Key?.pk).startsWith('policy#')) {
      failPolicyRead = false;
      throw Object.assign(new Error('injected: throttled'), { name: 'ThrottlingException' });
    }
    return send(command);
  };
  const c = createService(testSettings(tables), { client: flaky });
  const cached = (await c.dependencies.workspaces.get(ws)).state;
  expect(cached.policy.version).toBe(0);
  const policy = { blocked_senders: ['evil@x.example'], learning: false };
  await a.dependencies.workspaceStore.putPolicy(ws, policy, undefined, new Date().toISOString(), { actor: 'test' });
  const store = c.dependencies.workspaceStore;
  failPolicyRead = true;
  await expect(store.refreshState(ws, cached)).rejects.toThrow('injected');
  const next = await store.refreshState(ws, cached);
  expect(next?.policy).toMatchObject({ version: 1, blocked_senders: ['evil@x.example'], learning: false });
  // Read once: the check after that reads it no more.
  expect(await store.refreshState(ws, next!)).toBeUndefined();
  c.close();
});

/** The items of `ws` whose key starts with `prefix`, read straight from its partition. */
async function itemsOf(ws: string, prefix: string): Promise<Record<string, unknown>[]> {
  const out = await tables.client.send(
    new QueryCommand({
      TableName: learning,
      KeyConditionExpression: 'ws = :ws AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':ws': ws, ':p': prefix },
      ConsistentRead: true,
    }),
  );
  return out.Items ?? [];
}
/** The label items of `ws`, of every generation, that hold counts. */
const labelsHoldingCounts = async (ws: string) =>
  (await itemsOf(ws, 'c#')).filter((i) => Number(i.docs ?? 0) > 0).map((i) => String(i.sk));
/** The entries of `ws` left, by id (`r.1`: a reset's), each with whether it has an expiry. */
const entriesLeft = async (ws: string) =>
  (await itemsOf(ws, 'e#')).map((i) => [String(i.sk).slice(16), i.expires_at !== undefined]);

/**
 * `tables.client` with every call `matches` picks held before it is sent until `release()`; `held` settles when the
 * first is. Nothing is mocked: the calls reach DynamoDB Local as they were made, only later, so the race they lose is
 * a real one, made to happen every time.
 */
function pausing(matches: (command: unknown) => boolean) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let onHeld!: () => void;
  const held = new Promise<void>((resolve) => (onHeld = resolve));
  const send = tables.client.send.bind(tables.client) as (command: unknown) => Promise<unknown>;
  const client = Object.create(tables.client) as typeof tables.client;
  (client as { send: unknown }).send = async (command: unknown) => {
    if (matches(command)) {
      onHeld();
      await gate;
    }
    return send(command);
  };
  return { client, held, release };
}

/** A fold's label write: the label's item put whole, marked with its window. */
const labelWrite = (command: unknown) =>
  command instanceof PutCommand && String(command.input.Item?.sk).startsWith('c#');

it("a forget that lands while a fold writes its labels leaves no count of the old generation, the fold's or its own", async () => {
  const ws = 'ws_fold_forget_race';
  for (let i = 0; i < 3; i++) await teach(a, await decide(a, ws, i), i ? 'refund' : 'card_declined');
  // The fold has read the model (generation 0) and the window's entries; its label writes wait for the forget.
  const paused = pausing(labelWrite);
  const folding = new LearningFolder(paused.client, learning).fold(ws, Date.now() + OVERLAP_MS + 1);
  await paused.held;
  expect(await a.dependencies.modelWrites.forget(ws)).toBe(1);
  paused.release();
  await folding;
  expect(await labelsHoldingCounts(ws)).toEqual([]);
  // The fold's expiries, sent after the forget deleted the entries, made none again (they need the entry there).
  expect(await entriesLeft(ws)).toEqual([['r.1', true]]);
  expect(await fresh(ws)).toEqual({});
});

it('a fold that finishes between a forget reading the labels and switching the generation leaves no count behind', async () => {
  const ws = 'ws_fold_forget_between';
  for (let i = 0; i < 3; i++) await teach(a, await decide(a, ws, i), i ? 'refund' : 'card_declined');
  // The forget has read the model, the labels (none yet) and the entries; its switch waits for a whole fold.
  const paused = pausing((command) => command instanceof TransactWriteCommand);
  const forgetting = new DynamoModelWriteStore(paused.client, tables.names.decisions, learning).forget(ws);
  await paused.held;
  await new LearningFolder(tables.client, learning).fold(ws, Date.now() + OVERLAP_MS + 1);
  paused.release();
  expect(await forgetting).toBe(1);
  expect(await labelsHoldingCounts(ws)).toEqual([]);
  // The forget read again after the fold: its entries, folded, are left to their expiry, as after any fold.
  const left = await entriesLeft(ws);
  expect(left.map(([id]) => String(id)[0]).sort()).toEqual(['f', 'f', 'f', 'r']);
  expect(left.every(([, expires]) => expires)).toBe(true);
  expect(await fresh(ws)).toEqual({});
});

/**
 * Teaches `ws` three corrections, then has a fold's runner die (a Lambda timed out, say) after its label writes, which
 * waited for a forget of `ws`: answers the generation the forget switched to.
 */
async function foldDiesPastForget(ws: string): Promise<number> {
  // As the feedback route does when the generation moved (teach() does not check).
  a.dependencies.workspaces.invalidate(ws);
  for (let i = 0; i < 3; i++) await teach(a, await decide(a, ws, i), i ? 'refund' : 'card_declined');
  const paused = pausing(labelWrite);
  // From its mark on, nothing it sends reaches the table (the harness's stopped writer): not its mark, nor a read.
  let dead = false;
  const dying = Object.create(paused.client) as typeof tables.client;
  (dying as { send: unknown }).send = async (command: UpdateCommand) => {
    if (command instanceof UpdateCommand && command.input.UpdateExpression?.startsWith('SET f =')) dead = true;
    if (dead) throw new Error('injected: the runner died');
    return paused.client.send(command);
  };
  const folding = new LearningFolder(dying, learning).fold(ws, Date.now() + OVERLAP_MS + 1);
  await paused.held;
  const generation = await a.dependencies.modelWrites.forget(ws);
  paused.release();
  await expect(folding).rejects.toThrow('injected');
  return generation;
}

it("a fold runner that dies after its labels landed past a forget leaves them to the workspace's next forget", async () => {
  const ws = 'ws_fold_forget_died';
  expect(await foldDiesPastForget(ws)).toBe(1);
  expect(await labelsHoldingCounts(ws)).toEqual(['c#0#category:card_declined', 'c#0#category:refund']);
  // Nothing learned since: this forget switches nothing, but deletes what the older generation left.
  expect(await a.dependencies.modelWrites.forget(ws)).toBe(1);
  expect(await labelsHoldingCounts(ws)).toEqual([]);

  // Again, then something learned in the new generation: its forget deletes the older leftovers with its own labels.
  expect(await foldDiesPastForget(ws)).toBe(2);
  a.dependencies.workspaces.invalidate(ws);
  await teach(a, await decide(a, ws, 9), 'refund');
  await new LearningFolder(tables.client, learning).fold(ws, Date.now() + 2 * OVERLAP_MS);
  expect(await labelsHoldingCounts(ws)).toEqual([
    'c#1#category:card_declined',
    'c#1#category:refund',
    'c#2#category:refund',
  ]);
  expect(await a.dependencies.modelWrites.forget(ws)).toBe(3);
  expect(await labelsHoldingCounts(ws)).toEqual([]);
  expect(await fresh(ws)).toEqual({});
});

it("a forget retried after its switch landed and its answer was lost deletes the old generation's entries too", async () => {
  const ws = 'ws_fold_forget_retried';
  a.dependencies.workspaces.invalidate(ws);
  for (let i = 0; i < 2; i++) await teach(a, await decide(a, ws, i), 'refund');
  // The switch lands; its answer is lost (injected: DynamoDB Local cannot lose one), so the route answers 5xx before
  // the deletes, and the partner sends the DELETE again.
  const send = tables.client.send.bind(tables.client) as (command: unknown, options?: unknown) => Promise<unknown>;
  const losing = Object.create(tables.client) as typeof tables.client;
  (losing as { send: unknown }).send = async (command: unknown, options?: unknown) => {
    const out = await send(command, options);
    if (command instanceof TransactWriteCommand) throw new Error('injected: answer lost');
    return out;
  };
  const first = new DynamoModelWriteStore(losing, tables.names.decisions, learning);
  await expect(first.forget(ws)).rejects.toThrow('injected');
  expect(await a.dependencies.modelWrites.forget(ws)).toBe(1);
  // Nothing of generation 0 is left: not its entries (no expiry: they would stay until a fold of generation 1).
  expect(await labelsHoldingCounts(ws)).toEqual([]);
  expect(await entriesLeft(ws)).toEqual([['r.1', true]]);
  expect(await fresh(ws)).toEqual({});
});

it("a fold whose mark fails on the forget's transaction itself, not on its condition, deletes its labels all the same", async () => {
  const ws = 'ws_fold_forget_conflict';
  a.dependencies.workspaces.invalidate(ws);
  for (let i = 0; i < 3; i++) await teach(a, await decide(a, ws, i), i ? 'refund' : 'card_declined');
  // The fold's label writes wait for the forget; its mark then meets the forget's transaction in flight, which DynamoDB
  // refuses with TransactionConflictException (injected: DynamoDB Local cannot be made to hit that instant every time).
  const paused = pausing(labelWrite);
  const conflicting = Object.create(paused.client) as typeof tables.client;
  (conflicting as { send: unknown }).send = async (command: UpdateCommand) => {
    if (command instanceof UpdateCommand && command.input.UpdateExpression?.startsWith('SET f ='))
      throw Object.assign(new Error('injected: transaction conflict'), { name: 'TransactionConflictException' });
    return paused.client.send(command);
  };
  const folding = new LearningFolder(conflicting, learning).fold(ws, Date.now() + OVERLAP_MS + 1);
  await paused.held;
  expect(await a.dependencies.modelWrites.forget(ws)).toBe(1);
  paused.release();
  await folding.catch(() => undefined);
  expect(await labelsHoldingCounts(ws)).toEqual([]);
  expect(await fresh(ws)).toEqual({});
});
