// Imports at the price of a journal entry (issue 23): an import request appends its examples, summed per label, to
// the workspace's journal as one entry, whatever order its labels come in; containers apply it at their next check,
// folds add it to the label items, and concurrent imports, replays and feedback never lose or double a count.
import { GetCommand, PutCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { headFrom, headPk } from '../../lambdas/stores/workspace-head';
import { ITEM_PREFIX } from '../../lambdas/contract/tables';
import { labelDeltas } from '../../lambdas/domain/learning/label-delta';
import { sketchSignal } from '../../lambdas/domain/learning/sketch';
import { WorkspaceCache } from '../../lambdas/domain/learning/workspace-cache';
import type { WorkspaceState } from '../../lambdas/domain/ports';
import { importExamples } from '../../lambdas/import-examples/import-examples';
import { consumedUnits, createDocumentClient } from '../../lambdas/stores/dynamodb-client';
import { JournalFolder } from '../../lambdas/stores/journal-fold';
import { FOLD_LAG, FOLD_WINDOW } from '../../lambdas/stores/fold-schedule';
import { JOURNAL_GAP_GIVE_UP_MS } from '../../lambdas/domain/learning/journal';
import { DynamoModelWriteStore } from '../../lambdas/stores/model-write-store';
import { DynamoWorkspaceStore } from '../../lambdas/stores/workspace-store';
import { type TestTables, createTestTables, decisionItemsStartingWith, testEndpoint } from '../support/dynamodb';
import { mulberry32 } from '../../bin/seeded-random';

let tables: TestTables;
let store: DynamoWorkspaceStore;

beforeAll(async () => {
  tables = await createTestTables('importjournal');
  store = new DynamoWorkspaceStore(tables.client, tables.names.decisions);
});
afterAll(async () => tables?.drop());

const categories = Array.from({ length: 25 }, (_, i) => `topic_${i}`);
const example = (i: number, category = categories[i % categories.length]) => ({
  signal: {
    source: 'support_message',
    subject: `${category.replace('_', ' ')} case ${i}`,
    body: `Question ${i} about ${category.replace('_', ' ')}: the customer asks for help with ${category} today.`,
  },
  labels: { category },
});

/** Examples in a seeded random order: a part of 100 touches most of the 25 labels. */
function shuffled(n: number, seed: number) {
  const rnd = mulberry32(seed);
  return Array.from({ length: n }, (_, i) => example(i))
    .map((e) => [rnd(), e] as const)
    .sort((a, b) => a[0] - b[0])
    .map(([, e]) => e);
}

const docsOf = (state: WorkspaceState) =>
  Object.fromEntries(
    state.model.labels
      .filter((l) => l.docs > 0)
      .map((l) => [l.label, l.docs])
      .sort(),
  );

const labelItems = (ws: string) => decisionItemsStartingWith(tables, `${ITEM_PREFIX.workspaceLabel}${ws}#`);

it('writes one small journal entry per import and no label item, whatever order its labels come in', async () => {
  const ws = 'ws_import_entry';
  const client = createDocumentClient({ endpoint: testEndpoint(), requestTimeoutMs: 4_000 });
  const writes: { command: string; units: number }[] = [];
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const command = String(context.commandName ?? '').replace(/Command$/, '');
      const write = /^(PutItem|UpdateItem|DeleteItem|TransactWriteItems|BatchWriteItem)$/.test(command);
      if (write) (args.input as Record<string, unknown>).ReturnConsumedCapacity = 'TOTAL';
      const out = await next(args);
      if (write) writes.push({ command, units: consumedUnits(out.output) });
      return out;
    },
    { step: 'initialize', name: 'testWriteMeter' },
  );
  try {
    const cache = new WorkspaceCache((id) => store.loadState(id), 30_000);
    await cache.get(ws);
    writes.length = 0;
    const examples = shuffled(100, 7);
    const out = await importExamples(
      ws,
      examples,
      { workspaces: cache, store: new DynamoModelWriteStore(client, tables.names.decisions) },
      { nowMs: Date.now(), idempotency: { pk: `idem#acme#${ws}`, requestHash: 'h' } },
    );
    expect(out.kind).toBe('imported');
    // The head's next number, then the entry with the import's record in one transaction: nothing else.
    expect(writes.map((w) => w.command)).toEqual(['UpdateItem', 'TransactWriteItems']);
    // 100 examples over 25 labels: about 9 KB of counts, and the record holding the answer (about 3 KB); twice that in
    // a transaction.
    expect(writes[1].units).toBeLessThanOrEqual(30);
    expect(await labelItems(ws)).toEqual([]);
    // The container that took it decides with it at once; another reads the entry at its next check.
    const expected = Object.fromEntries(categories.map((c) => [c, 4]).sort());
    expect(docsOf((await cache.get(ws)).state)).toEqual(expected);
    expect(docsOf(await store.loadState(ws))).toEqual(expected);
  } finally {
    client.destroy();
  }
});

it('counts every example once with imports, replays and folds running at once', async () => {
  const ws = 'ws_import_concurrent';
  // Two containers' stores, folding every 150 imported examples, so folds run between and during the imports.
  const fold = { window: FOLD_WINDOW, lag: FOLD_LAG, importWeight: 150 };
  const a = new DynamoModelWriteStore(tables.client, tables.names.decisions, fold);
  const b = new DynamoModelWriteStore(tables.client, tables.names.decisions, fold);
  const cacheA = new WorkspaceCache((id) => store.loadState(id), 30_000);
  const cacheB = new WorkspaceCache((id) => store.loadState(id), 30_000);
  const parts = Array.from({ length: 8 }, (_, i) => shuffled(50, 100 + i));
  const outcomes = await Promise.all(
    parts.flatMap((examples, i) => {
      const options = { nowMs: Date.now(), idempotency: { pk: `idem#acme#${ws}#${i}`, requestHash: `h${i}` } };
      const first = importExamples(
        ws,
        examples,
        { workspaces: i % 2 ? cacheB : cacheA, store: i % 2 ? b : a },
        options,
      );
      // Every other part is sent twice at once (a client's retry): it is taught once.
      if (i % 2) return [first];
      return [first, importExamples(ws, examples, { workspaces: cacheB, store: b }, options)];
    }),
  );
  expect(outcomes.filter((o) => o.kind === 'imported')).toHaveLength(8);
  expect(a.folder.stats.folds + b.folder.stats.folds).toBeGreaterThan(0);

  // What the 400 examples teach, summed without the store: the reference.
  const key = (await cacheA.get(ws)).key;
  const reference = labelDeltas(parts.flat().map((e) => ({ sketch: sketchSignal(key, e.signal), labels: e.labels })));
  const expectedDocs = Object.fromEntries(reference.map((d) => [d.label, d.docs]).sort());
  const loaded = await store.loadState(ws);
  expect(docsOf(loaded)).toEqual(expectedDocs);
  // Label items and journal together hold exactly the reference counts, bucket by bucket; no gap left a reader waiting.
  for (const d of reference) {
    const counts = loaded.model.labels.find((l) => l.label === d.label)!;
    expect([d.label, counts.total]).toEqual([d.label, d.total]);
    for (const [name, n] of d.counts) {
      const map = name[0] === 't' ? counts.text : counts.domains;
      expect([d.label, name, map.get(parseInt(name.slice(1), 36))]).toEqual([d.label, name, n]);
    }
  }
  expect(loaded.journal?.pending.size).toBe(0);
  expect(loaded.journal?.missingSince.size).toBe(0);
});

it('leaves no label item and no label behind when a fold of the generation a reset replaced finishes after it', async () => {
  const ws = 'ws_import_fold_reset';
  const writes = new DynamoModelWriteStore(tables.client, tables.names.decisions);
  const cache = new WorkspaceCache((id) => store.loadState(id), 30_000);
  const out = await importExamples(ws, shuffled(60, 3), { workspaces: cache, store: writes }, { nowMs: Date.now() });
  expect(out.kind).toBe('imported');
  // Generation 0's journal holds the import; the reset moves the workspace to generation 1 while a fold of generation
  // 0 (claimed before the reset) is still to write its label items.
  const seq = (await store.loadState(ws)).journal!.applied;
  expect(await writes.forget(ws)).toBe(1);
  await writes.folder.fold(ws, 0, 0, seq, Date.now());
  expect(await labelItems(ws)).toEqual([]);
  const after = await store.loadState(ws);
  expect({ generation: after.generation, labels: after.model.labels }).toEqual({ generation: 1, labels: [] });
  const model = await tables.client.send(
    new ScanCommand({
      TableName: tables.names.decisions,
      FilterExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `${ITEM_PREFIX.workspaceModel}${ws}` },
      ConsistentRead: true,
    }),
  );
  expect(model.Items?.[0]?.labels).toBeUndefined();
});

it('counts a window once when a container loads while the fold that wrote it stays in flight', async () => {
  const ws = 'ws_import_crashed_fold';
  const writes = new DynamoModelWriteStore(tables.client, tables.names.decisions);
  const cache = new WorkspaceCache((id) => store.loadState(id), 30_000);
  for (let i = 0; i < 3; i++)
    await importExamples(ws, shuffled(40, 20 + i), { workspaces: cache, store: writes }, { nowMs: Date.now() });
  const expected = docsOf(await store.loadState(ws));
  // A fold of the whole journal that wrote its label items and crashed before moving the marker: the head still
  // names it in flight, its marker at the window's start.
  const end = (await store.loadState(ws)).journal!.applied;
  await writes.folder.fold(ws, 0, 0, end, Date.now());
  await tables.client.send(
    new UpdateCommand({
      TableName: tables.names.decisions,
      Key: { pk: headPk(ws) },
      UpdateExpression: 'SET folded = :start, folding = :end, folding_at = :now',
      ExpressionAttributeValues: { ':start': 0, ':end': end, ':now': Date.now() },
    }),
  );
  expect((await labelItems(ws)).length).toBeGreaterThan(0);
  // The load waits a moment for the fold, then goes ahead: the label items already hold the window.
  expect(docsOf(await store.loadState(ws))).toEqual(expected);
});

const totalDocs = (state: WorkspaceState) => state.model.labels.reduce((sum, l) => sum + l.docs, 0);

const readHead = async (ws: string) =>
  headFrom(
    (
      await tables.client.send(
        new GetCommand({ TableName: tables.names.decisions, Key: { pk: headPk(ws) }, ConsistentRead: true }),
      )
    ).Item,
  );

it('keeps an import whose entry is still being written when a later import folds up to the head', async () => {
  const ws = 'ws_import_slow_entry';
  const fold = { window: FOLD_WINDOW, lag: FOLD_LAG, importWeight: 100 };
  // Container X's entry write takes 1.5 s (a slow network): its number is taken, its entry lands late.
  const slowClient = createDocumentClient({ endpoint: testEndpoint(), requestTimeoutMs: 4_000 });
  let entryTaken!: () => void;
  const numbered = new Promise<void>((resolve) => (entryTaken = resolve));
  slowClient.middlewareStack.add(
    (next, context) => async (args) => {
      if (/^(Put|TransactWrite)/.test(String(context.commandName))) {
        entryTaken();
        await new Promise((r) => setTimeout(r, 1_500));
      }
      return next(args);
    },
    { step: 'initialize', name: 'slowEntry' },
  );
  try {
    const x = new DynamoModelWriteStore(slowClient, tables.names.decisions, fold);
    const y = new DynamoModelWriteStore(tables.client, tables.names.decisions, fold);
    const cache = new WorkspaceCache((id) => store.loadState(id), 30_000);
    const key = (await cache.get(ws)).key;
    const write = (n: number, offset: number) => {
      const examples = shuffled(n + offset, 7).slice(offset);
      const deltas = labelDeltas(examples.map((e) => ({ sketch: sketchSignal(key, e.signal), labels: e.labels })));
      return { workspaceId: ws, generation: 0, deltas, examples: n, nowMs: Date.now() };
    };
    const slow = x.applyImport(write(50, 0));
    await numbered;
    // Y takes the next number; its 100 examples cross the weight, so it folds up to the head with X's entry unwritten.
    expect((await y.applyImport(write(100, 50))).kind).toBe('applied');
    expect((await slow).kind).toBe('applied');
    expect(totalDocs(await store.loadState(ws))).toBe(150);
    // A later fold takes both entries.
    await y.folder.maybeFold(ws, await readHead(ws), Date.now());
    expect(await readHead(ws)).toMatchObject({ folded: 2, importWeight: 0 });
    expect(totalDocs(await store.loadState(ws))).toBe(150);
  } finally {
    slowClient.destroy();
  }
});

it("takes every number's examples off the import weight once folded, whether its entry moved counts or not", async () => {
  const ws = 'ws_import_weight';
  const writes = new DynamoModelWriteStore(tables.client, tables.names.decisions, {
    window: FOLD_WINDOW,
    lag: FOLD_LAG,
    importWeight: 100_000,
  });
  const folder = new JournalFolder(tables.client, tables.names.decisions, {
    window: FOLD_WINDOW,
    lag: FOLD_LAG,
    importWeight: 1,
  });
  const cache = new WorkspaceCache((id) => store.loadState(id), 30_000);
  const key = (await cache.get(ws)).key;
  const examples = shuffled(50, 11);
  const deltas = labelDeltas(examples.map((e) => ({ sketch: sketchSignal(key, e.signal), labels: e.labels })));
  const write = { workspaceId: ws, generation: 0, deltas, examples: 50, nowMs: Date.now() };
  // A number whose import was sketched for another generation (an empty entry), an import that moves no label (all
  // its labels beyond MAX_LABELS), and one that does.
  expect((await writes.applyImport({ ...write, generation: 1, examples: 30 })).kind).toBe('generation_changed');
  expect((await writes.applyImport({ ...write, deltas: [], examples: 20 })).kind).toBe('applied');
  expect((await writes.applyImport(write)).kind).toBe('applied');
  const head = await readHead(ws);
  expect(head).toMatchObject({ seq: 3, importWeight: 100 });
  // A feedback takes the next number meanwhile: the fold stops below it.
  await tables.client.send(
    new UpdateCommand({
      TableName: tables.names.decisions,
      Key: { pk: headPk(ws) },
      UpdateExpression: 'ADD seq :one',
      ExpressionAttributeValues: { ':one': 1 },
    }),
  );
  await folder.maybeFold(ws, head, Date.now());
  expect(await readHead(ws)).toMatchObject({ folded: 3, importWeight: 0 });

  // An import that crashed between its number and its entry: given up a minute later, its weight goes with it.
  await tables.client.send(
    new UpdateCommand({
      TableName: tables.names.decisions,
      Key: { pk: headPk(ws) },
      UpdateExpression: 'ADD seq :one, iw :n',
      ExpressionAttributeValues: { ':one': 1, ':n': 40 },
    }),
  );
  const now = Date.now();
  await folder.maybeFold(ws, await readHead(ws), now);
  expect(await readHead(ws)).toMatchObject({ folded: 3, seq: 5, importWeight: 40 });
  await folder.maybeFold(ws, await readHead(ws), now + JOURNAL_GAP_GIVE_UP_MS);
  expect(await readHead(ws)).toMatchObject({ folded: 5, seq: 5, importWeight: 0 });
  expect(totalDocs(await store.loadState(ws))).toBe(50);
});

it('teaches an import whose Idempotency-Key record expired but is not yet deleted by TTL, as any new key', async () => {
  const ws = 'ws_import_expired_key';
  const writes = new DynamoModelWriteStore(tables.client, tables.names.decisions);
  const cache = new WorkspaceCache((id) => store.loadState(id), 30_000);
  const key = (await cache.get(ws)).key;
  const examples = shuffled(10, 5);
  const deltas = labelDeltas(examples.map((e) => ({ sketch: sketchSignal(key, e.signal), labels: e.labels })));
  const pk = `${ITEM_PREFIX.idempotency}partner_x#expired-import`;
  const nowMs = Date.now();
  // The record of the same key from more than 24 hours ago: DynamoDB's TTL sweep can lag by a day or two.
  await tables.client.send(
    new PutCommand({
      TableName: tables.names.decisions,
      Item: { pk, kind: 'import', request_hash: 'old', answer: '{}', expires_at: Math.floor(nowMs / 1000) - 60 },
    }),
  );
  const record = { pk, item: { kind: 'import', request_hash: 'new', answer: '{"object":"list"}' } };
  const result = await writes.applyImport({ workspaceId: ws, generation: 0, deltas, examples: 10, record, nowMs });
  expect(result.kind).toBe('applied');
  expect(await writes.getRecord(pk)).toMatchObject({ request_hash: 'new' });
});
