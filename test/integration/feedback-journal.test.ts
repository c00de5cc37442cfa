// Corrections at the price of a write (issue 23): feedback writes small journal entries numbered by the workspace head,
// containers apply the entries they have not seen, and a fold now and then sums a window into the label items.
// Each "container" here is its own DynamoDB client, workspace cache and stores over the same tables.
import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ITEM_PREFIX } from '../../lambdas/contract/tables';
import { analyzeSignal } from '../../lambdas/application/analyze-signal';
import { applyOwnFeedback } from '../../lambdas/application/model-learning';
import { type LabelCounts } from '../../lambdas/domain/learning/model';
import { predictField } from '../../lambdas/domain/learning/predict';
import { sketchSignal } from '../../lambdas/domain/learning/sketch';
import { WorkspaceCache } from '../../lambdas/domain/learning/workspace-cache';
import type { FeedbackFields, WorkspaceState } from '../../lambdas/domain/ports';
import { recordFeedback } from '../../lambdas/application/record-feedback';
import { importExamples } from '../../lambdas/import-examples/import-examples';
import { consumedUnits, createDocumentClient, getItem } from '../../lambdas/stores/dynamodb-client';
import { foldDue, gapRetryAt } from '../../lambdas/stores/fold-schedule';
import { DynamoFeedbackStore } from '../../lambdas/stores/feedback-store';
import { DynamoModelWriteStore } from '../../lambdas/stores/model-write-store';
import { headFrom, headPk } from '../../lambdas/stores/workspace-head';
import { JournalFolder } from '../../lambdas/stores/journal-fold';
import { DynamoWorkspaceStore } from '../../lambdas/stores/workspace-store';
import { testEndpoint } from '../support/dynamodb';
import { serviceForFile } from '../support/local-api';

const world = serviceForFile('fbjournal');
const TTL_MS = 30_000;

interface Container {
  cache: WorkspaceCache;
  feedback: DynamoFeedbackStore;
  store: DynamoWorkspaceStore;
  /** DynamoDB calls and read units this container made. */
  reads: { calls: number; units: number; byCommand: Map<string, number> };
  loads: number;
  client: DynamoDBDocumentClient;
  advance(ms: number): void;
  close(): void;
}

function container(fold = { window: 8, lag: 2 }): Container {
  const client = createDocumentClient({ endpoint: testEndpoint(), requestTimeoutMs: 4_000 });
  const reads = { calls: 0, units: 0, byCommand: new Map<string, number>() };
  client.middlewareStack.add(
    (next, context) => async (args) => {
      (args.input as Record<string, unknown>).ReturnConsumedCapacity = 'TOTAL';
      const out = await next(args);
      const name = String(context.commandName ?? '').replace(/Command$/, '');
      if (/^(GetItem|BatchGetItem)$/.test(name)) {
        reads.calls++;
        reads.byCommand.set(name, (reads.byCommand.get(name) ?? 0) + 1);
        reads.units += consumedUnits(out.output);
      }
      return out;
    },
    { step: 'initialize', name: 'testReadMeter' },
  );
  const store = new DynamoWorkspaceStore(client, world.tables.names.decisions);
  let now = 1_000_000;
  const c: Container = {
    store,
    feedback: new DynamoFeedbackStore(client, world.tables.names.decisions, fold),
    reads,
    loads: 0,
    client,
    cache: new WorkspaceCache(
      (id) => {
        c.loads++;
        return store.loadState(id);
      },
      TTL_MS,
      () => now,
      (id, cached) => store.refreshState(id, cached),
    ),
    advance: (ms) => {
      now += ms;
    },
    close: () => client.destroy(),
  };
  return c;
}

const topics = ['card_declined', 'refund_request', 'lost_card', 'exchange_rate'];
const signalFor = (ws: string, topic: string, i: number) => ({
  workspace_id: ws,
  source: 'support_message' as const,
  subject: `${topic.replace('_', ' ')} question ${i}`,
  body: `Customer writes about ${topic.replace('_', ' ')} number ${i}: please look at the ${topic} case today.`,
  sender: `client${i}@${topic.replace('_', '')}.example`,
  received_at: '2026-11-20T10:00:00Z',
});

async function decide(ws: string, topic: string, i: number) {
  const workspace = await world.service.dependencies.workspaces.get(ws);
  const outcome = await analyzeSignal(
    signalFor(ws, topic, i),
    { partner_id: 'acme', key_id: 'key_test' },
    world.service.dependencies.decisionStore,
    { nowMs: Date.now(), workspace },
  );
  if (outcome.kind !== 'created') throw new Error(outcome.kind);
  return outcome.decision.decision_id;
}

/** Feedback as the route gives it: recorded, then applied to the taking container's cached model. */
async function feedback(c: Container, ws: string, decisionId: string, fields: FeedbackFields) {
  const target = await c.feedback.getTarget(decisionId);
  const workspace = await c.cache.get(ws);
  const out = await recordFeedback(target!, fields, c.feedback, workspace, new Date().toISOString());
  if (out.kind !== 'recorded') throw new Error(out.kind);
  const cached = c.cache.peek(ws);
  if (cached && out.target.sketch) applyOwnFeedback(cached.state, out.target.sketch, out);
}

/** n decisions of the two topics in turn, each corrected in container c to its own topic. */
async function teach(c: Container, ws: string, n: number) {
  const ids = await Promise.all(Array.from({ length: n }, (_, i) => decide(ws, topics[i % 2], i)));
  for (const [i, id] of ids.entries()) await feedback(c, ws, id, { category: topics[i % 2] });
  return ids;
}

/**
 * Runs the folds due as a later feedback would (its clock moved on to the retry, not waited for): a fold that found an
 * entry of its window still being written (more likely on a loaded machine) put them off until then.
 */
async function foldsDueLater(c: Container, ws: string) {
  for (let i = 0; i < 20; i++) {
    const head = headFrom(await getItem(world.tables.client, world.tables.names.decisions, headPk(ws)));
    const later = Math.max(Date.now(), gapRetryAt(head));
    if (!foldDue(head, later, { window: 8, lag: 2 })) return;
    await c.feedback.folder.maybeFold(ws, head, later);
  }
}

/** A model's counts in a comparable form. */
const countsOf = (state: WorkspaceState) =>
  state.model.labels
    .filter((l) => l.docs > 0)
    .map((l: LabelCounts) => ({
      id: `${l.field}:${l.label}`,
      docs: l.docs,
      total: l.total,
      text: [...l.text].sort((a, b) => a[0] - b[0]),
      senders: [...l.senders].sort((a, b) => a[0] - b[0]),
      domains: [...l.domains].sort((a, b) => a[0] - b[0]),
    }))
    .sort((a, b) => (a.id < b.id ? -1 : 1));

it('loses no count under concurrent feedback from two containers, folds included, each decision counted once with its latest labels', async () => {
  const ws = 'ws_journal_two';
  const a = container();
  const b = container();
  try {
    const ids = await Promise.all(Array.from({ length: 40 }, (_, i) => decide(ws, topics[i % 4], i)));
    await Promise.all([a.cache.get(ws), b.cache.get(ws)]);
    // First round: every decision labelled with its topic, half through each container, all at once.
    await Promise.all(ids.map((id, i) => feedback(i % 2 ? b : a, ws, id, { category: topics[i % 4] })));
    // Second round: a quarter relabelled (moved from one label to another), again concurrently.
    const moved = ids.filter((_, i) => i % 4 === 0);
    await Promise.all(moved.map((id, i) => feedback(i % 2 ? a : b, ws, id, { category: 'general_enquiry' })));
    // Folds ran, during the rounds or (when a straggling entry put them off) as the next feedback would run them.
    await foldsDueLater(a, ws);
    expect(a.feedback.folder.stats.folds + b.feedback.folder.stats.folds).toBeGreaterThan(0);

    const expected: Record<string, number> = { card_declined: 0, refund_request: 10, lost_card: 10, exchange_rate: 10 };
    expected.general_enquiry = 10;
    const fresh = await new DynamoWorkspaceStore(world.tables.client, world.tables.names.decisions).loadState(ws);
    const docs = Object.fromEntries(fresh.model.labels.filter((l) => l.docs > 0).map((l) => [l.label, l.docs]));
    expect(docs).toEqual(Object.fromEntries(Object.entries(expected).filter(([, n]) => n > 0)));
    // Each label's counts are the sum of its decisions' sketches.
    const key = (await world.service.dependencies.workspaces.get(ws)).key;
    const lost = fresh.model.labels.find((l) => l.label === 'lost_card')!;
    const sketches = [2, 6, 10, 14, 18, 22, 26, 30, 34, 38].map((i) =>
      sketchSignal(key, signalFor(ws, 'lost_card', i)),
    );
    expect(lost.total).toBe(sketches.reduce((sum, s) => sum + s.t.length, 0));

    // Both containers, past their TTL, hold exactly what a fresh load reads.
    a.advance(TTL_MS + 1);
    b.advance(TTL_MS + 1);
    expect(countsOf((await a.cache.get(ws)).state)).toEqual(countsOf(fresh));
    expect(countsOf((await b.cache.get(ws)).state)).toEqual(countsOf(fresh));
    expect([a.loads, b.loads]).toEqual([1, 1]);
  } finally {
    a.close();
    b.close();
  }
});

it('keeps the count of a feedback whose journal entry lands after later feedback filled its window and more', async () => {
  const ws = 'ws_journal_straggler';
  const a = container();
  // Container s numbers its feedback, then its entry write is held (SDK retries, a paused container) until released.
  const s = container();
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let numbered!: () => void;
  const entryWaiting = new Promise<void>((resolve) => (numbered = resolve));
  s.client.middlewareStack.add(
    (next) => async (args) => {
      const pk = (args.input as { Item?: { pk?: string } }).Item?.pk;
      if (pk?.startsWith(ITEM_PREFIX.workspaceJournal)) {
        numbered();
        await held;
      }
      return next(args);
    },
    { step: 'initialize', name: 'heldEntry' },
  );
  try {
    const ids = await Promise.all(Array.from({ length: 12 }, (_, i) => decide(ws, topics[i % 2], i)));
    const late = feedback(s, ws, ids[0], { category: topics[0] });
    await entryWaiting;
    // Eleven more feedbacks: the window (0, 8] comes due (lag 2) with entry 1 still unwritten.
    for (const [i, id] of ids.entries()) if (i > 0) await feedback(a, ws, id, { category: topics[i % 2] });
    release();
    await late;
    await foldsDueLater(a, ws);
    expect(a.feedback.folder.stats.folds).toBeGreaterThan(0);
    const fresh = await new DynamoWorkspaceStore(world.tables.client, world.tables.names.decisions).loadState(ws);
    const docs = Object.fromEntries(fresh.model.labels.filter((l) => l.docs > 0).map((l) => [l.label, l.docs]));
    expect(docs).toEqual({ [topics[0]]: 6, [topics[1]]: 6 });
  } finally {
    a.close();
    s.close();
  }
});

it("counts a feedback once when the SDK retries a write that landed but whose answer was lost (the head's, the decision's)", async () => {
  const ws = 'ws_journal_retried';
  const c = container();
  // The fault: the first UpdateItem on an item of this prefix reaches DynamoDB, then its answer is lost as in a
  // timeout (not something DynamoDB Local can be made to do), so the SDK sends the same write again.
  let lose: string | undefined;
  c.client.middlewareStack.add(
    (next, context) => async (args) => {
      const out = await next(args);
      const pk = (args.input as { Key?: { pk?: { S?: string } } }).Key?.pk?.S;
      if (lose && context.commandName === 'UpdateItemCommand' && pk?.startsWith(lose)) {
        lose = undefined;
        throw Object.assign(new Error('answer lost'), { name: 'TimeoutError', $metadata: {} });
      }
      return out;
    },
    { step: 'deserialize', name: 'loseFirstAnswer' },
  );
  try {
    const ids = await Promise.all([0, 1].map((i) => decide(ws, topics[i], i)));
    lose = ITEM_PREFIX.workspaceHead;
    await feedback(c, ws, ids[0], { category: topics[0] });
    expect(lose).toBeUndefined();
    lose = ITEM_PREFIX.decision;
    await feedback(c, ws, ids[1], { category: topics[1] });
    expect(lose).toBeUndefined();
    // One journal number per feedback (no number that no entry fills), and both counted.
    expect(headFrom(await getItem(world.tables.client, world.tables.names.decisions, headPk(ws))).seq).toBe(2);
    const fresh = await new DynamoWorkspaceStore(world.tables.client, world.tables.names.decisions).loadState(ws);
    const docs = Object.fromEntries(fresh.model.labels.filter((l) => l.docs > 0).map((l) => [l.label, l.docs]));
    expect(docs).toEqual({ [topics[0]]: 1, [topics[1]]: 1 });
  } finally {
    c.close();
  }
});

it('shows another container a feedback within the TTL through the journal, without reloading the model', async () => {
  const ws = 'ws_journal_seen';
  const a = container({ window: 1_000, lag: 10 });
  const b = container({ window: 1_000, lag: 10 });
  try {
    await teach(a, ws, 8);
    const before = await b.cache.get(ws);
    const newId = await decide(ws, 'lost_card', 100);
    await feedback(a, ws, newId, { category: 'lost_card' });
    // Within the TTL b decides with what it had; after it, with the new label, read from one journal entry.
    const sketch = sketchSignal(before.key, signalFor(ws, 'lost_card', 101));
    expect(predictField((await b.cache.get(ws)).state.model, 'category', sketch)?.label).not.toBe('lost_card');
    b.reads.calls = 0;
    b.reads.units = 0;
    b.advance(TTL_MS + 1);
    const after = await b.cache.get(ws);
    expect(b.loads).toBe(1);
    // The head (one small read) and the one entry: two calls, one read unit in all (each half a unit).
    expect({ calls: b.reads.calls, units: b.reads.units }).toEqual({ calls: 2, units: 1 });
    expect(after.state.model).toBe(before.state.model);
    expect(after.state.model.labels.find((l) => l.label === 'lost_card')?.docs).toBe(1);
    expect(predictField(after.state.model, 'category', sketch)?.label).toBe('lost_card');
    // Nothing new: one small read.
    b.reads.calls = 0;
    b.reads.units = 0;
    b.advance(TTL_MS + 1);
    expect(await b.cache.get(ws)).toBe(after);
    expect({ calls: b.reads.calls, units: b.reads.units }).toEqual({ calls: 1, units: 0.5 });
    // The taking container applied its own feedback at once and does not apply its entry again.
    a.advance(TTL_MS + 1);
    expect((await a.cache.get(ws)).state.model.labels.find((l) => l.label === 'lost_card')?.docs).toBe(1);
  } finally {
    a.close();
    b.close();
  }
});

it('applies a fold exactly once, however often it is run or taken over', async () => {
  const ws = 'ws_journal_fold';
  const a = container({ window: 1_000, lag: 10 });
  try {
    const ids = await Promise.all(Array.from({ length: 12 }, (_, i) => decide(ws, topics[i % 3], i)));
    for (const [i, id] of ids.entries()) await feedback(a, ws, id, { category: topics[i % 3] });
    const expected = countsOf(await a.store.loadState(ws));
    // A fold of the first 10 entries named in the head, as a runner that then crashed leaves it.
    await world.tables.client.send(
      new UpdateCommand({
        TableName: world.tables.names.decisions,
        Key: { pk: headPk(ws) },
        UpdateExpression: 'SET folding = :end, folding_at = :at',
        ExpressionAttributeValues: { ':end': 10, ':at': 0 },
      }),
    );
    // Two runners at once (one adding each label's delta, one rewriting each label item whole), then a third.
    const folder = a.feedback.folder;
    const rewriting = new JournalFolder(world.tables.client, world.tables.names.decisions, {
      window: 10,
      lag: 0,
      termsPerUpdate: 5,
    });
    await Promise.all([folder.fold(ws, 0, 0, 10, Date.now()), rewriting.fold(ws, 0, 0, 10, Date.now())]);
    await rewriting.fold(ws, 0, 0, 10, Date.now());
    await folder.fold(ws, 0, 0, 10, Date.now());
    const fresh = await a.store.loadState(ws);
    expect(fresh.journal?.applied).toBe(12);
    expect(countsOf(fresh)).toEqual(expected);
    // The marker moved once: the label items hold the 10 entries, the journal the last 2.
    const head = await world.tables.client.send(
      new UpdateCommand({
        TableName: world.tables.names.decisions,
        Key: { pk: headPk(ws) },
        UpdateExpression: 'SET touched = :t',
        ExpressionAttributeValues: { ':t': 1 },
        ReturnValues: 'ALL_NEW',
      }),
    );
    expect(head.Attributes).toMatchObject({ folded: 10, seq: 12 });
    expect(head.Attributes?.folding).toBeUndefined();
  } finally {
    a.close();
  }
});

it('keeps a reset in the middle of a journal window: the new generation starts empty and learns only what later feedback says', async () => {
  const ws = 'ws_journal_reset';
  const a = container({ window: 6, lag: 2 });
  const b = container({ window: 6, lag: 2 });
  try {
    const ids = await teach(a, ws, 10);
    await b.cache.get(ws);
    await new DynamoModelWriteStore(world.tables.client, world.tables.names.decisions).forget(ws);
    a.cache.invalidate(ws);
    // Feedback on a decision made (and counted) before the reset: the new generation learns only this.
    await feedback(a, ws, ids[0], { category: 'lost_card' });
    b.advance(TTL_MS + 1);
    const seen = await b.cache.get(ws);
    expect(seen.state.generation).toBe(1);
    expect(seen.state.model.labels.map((l) => [l.label, l.docs])).toEqual([['lost_card', 1]]);
    const fresh = await a.store.loadState(ws);
    expect(fresh.model.labels.map((l) => [l.label, l.docs])).toEqual([['lost_card', 1]]);
    // Enough feedback in the new generation to fold: the fold writes the new generation only.
    const more = await Promise.all(Array.from({ length: 9 }, (_, i) => decide(ws, 'refund_request', 50 + i)));
    for (const id of more) await feedback(a, ws, id, { category: 'refund_request' });
    expect(a.feedback.folder.stats.folds).toBeGreaterThan(0);
    const folded = await a.store.loadState(ws);
    expect(Object.fromEntries(folded.model.labels.map((l) => [l.label, l.docs]))).toEqual({
      lost_card: 1,
      refund_request: 9,
    });
  } finally {
    a.close();
    b.close();
  }
});

it('checks a workspace that learned 600 labels with one small read', async () => {
  const ws = 'ws_journal_600';
  const a = container();
  try {
    const writes = new DynamoModelWriteStore(world.tables.client, world.tables.names.decisions);
    for (let chunk = 0; chunk < 6; chunk++) {
      const examples = Array.from({ length: 100 }, (_, i) => ({
        signal: { source: 'email', subject: `case ${chunk * 100 + i}`, body: `label number ${chunk * 100 + i}` },
        labels: { category: `label_${chunk * 100 + i}` },
      }));
      const out = await importExamples(ws, examples, { workspaces: a.cache, store: writes }, { nowMs: Date.now() });
      expect(out.kind).toBe('imported');
      a.cache.invalidate(ws);
    }
    const loaded = await a.cache.get(ws);
    expect(loaded.state.model.labels).toHaveLength(600);
    a.reads.calls = 0;
    a.reads.units = 0;
    a.advance(TTL_MS + 1);
    expect(await a.cache.get(ws)).toBe(loaded);
    expect({ calls: a.reads.calls, units: a.reads.units }).toEqual({ calls: 1, units: 0.5 });
  } finally {
    a.close();
  }
});

it("folds a quiet workspace's journal at a container's next check once its entries are an hour old", async () => {
  const ws = 'ws_journal_quiet';
  const a = container({ window: 1_000, lag: 10 });
  const b = container();
  try {
    await teach(a, ws, 3);
    const expected = countsOf(await a.store.loadState(ws));
    await b.cache.get(ws);
    const head = async () =>
      (
        await world.tables.client.send(
          new UpdateCommand({
            TableName: world.tables.names.decisions,
            Key: { pk: headPk(ws) },
            UpdateExpression: 'SET touched = :t',
            ExpressionAttributeValues: { ':t': 1 },
            ReturnValues: 'ALL_NEW',
          }),
        )
      ).Attributes;
    // Not yet an hour: the check leaves the journal as it is.
    b.advance(TTL_MS + 1);
    await b.cache.get(ws);
    expect(await head()).toMatchObject({ seq: 3, folded: 0 });
    // The oldest unfolded entry is now over an hour old: the next check folds (no feedback needed).
    await world.tables.client.send(
      new UpdateCommand({
        TableName: world.tables.names.decisions,
        Key: { pk: headPk(ws) },
        UpdateExpression: 'SET unfolded_since = :then',
        ExpressionAttributeValues: { ':then': Date.now() - 61 * 60 * 1000 },
      }),
    );
    b.advance(TTL_MS + 1);
    await b.cache.get(ws);
    expect(await head()).toMatchObject({ seq: 3, folded: 3 });
    const fresh = await a.store.loadState(ws);
    expect(fresh.journal?.applied).toBe(3);
    expect(countsOf(fresh)).toEqual(expected);
    expect(countsOf((await b.cache.get(ws)).state)).toEqual(expected);
  } finally {
    a.close();
    b.close();
  }
});

it("shows another container a policy change within the TTL: the head's policy counter, then the policy alone", async () => {
  const ws = 'ws_journal_policy';
  const a = container();
  const b = container();
  try {
    const before = await b.cache.get(ws);
    expect(before.policy.learning).toBe(true);
    await a.store.putPolicy(ws, { learning: false }, undefined, new Date().toISOString(), { actor: 'local:test' });
    b.reads.byCommand.clear();
    b.advance(TTL_MS + 1);
    const after = await b.cache.get(ws);
    expect(after.policy.learning).toBe(false);
    expect(b.loads).toBe(1);
    expect([...b.reads.byCommand]).toEqual([
      ['BatchGetItem', 1],
      ['GetItem', 1],
    ]);
  } finally {
    a.close();
    b.close();
  }
});
