// `admin workspace migrate-learning` (docs/deploy.md, "Upgrading to version 4") on workspaces too big for one item
// (400 KB) or one transaction (4 MB): version 3's items are written directly into this file's own tables, the
// migration runs in process, and a load (as a container makes it) must hold exactly version 3's counts, each once:
// after one run (on main 451253f the workspace's transaction failed, 4.3 MB, and the run stopped before the next
// workspace), after runs that stopped between parts, with two runs racing for every part, with a fold between two
// parts, and with a reset before the migration or between its parts (then no part is written in the old generation).
import {
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { learningTableOf } from '../../lambdas/contract/settings';
import { OVERLAP_MS } from '../../lambdas/domain/learning/entries';
import { sleep } from '../../lambdas/domain/retry';
import { ITEM_PREFIX } from '../../lambdas/contract/tables';
import { countName, namedCounts } from '../../lambdas/domain/learning/model';
import type { WorkspaceState } from '../../lambdas/domain/ports';
import { SENDER_BUCKETS, TEXT_BUCKETS } from '../../lambdas/domain/learning/sketch';
import { type Service, createService } from '../../lambdas/service';
import { migrateLearning } from '../../lib/admin/migrate-learning';
import { createDocumentClient } from '../../lambdas/stores/dynamodb-client';
import { LearningFolder } from '../../lambdas/stores/learning-fold';
import { MODEL_KEY, queryRange } from '../../lambdas/stores/learning-items';
import { DynamoModelWriteStore } from '../../lambdas/stores/model-write-store';
import { type TestTables, createTestTables, testEndpoint } from '../support/dynamodb';
import { testSettings } from '../support/local-api';

jest.setTimeout(180_000);

/** One version 3 label item's counts: `docs`, `total` and each count by its attribute name. */
interface OldLabel {
  id: string;
  docs: number;
  total: number;
  counts: Map<string, number>;
}

/** A label of `size` counts: every text bucket first, then senders, then domains; some counts past one varint byte. */
function oldLabel(id: string, size: number, seed: number): OldLabel {
  const counts = new Map<string, number>();
  let total = 0;
  for (let i = 0; i < size; i++) {
    const [kind, bucket] =
      i < TEXT_BUCKETS
        ? (['t', i] as const)
        : i < TEXT_BUCKETS + SENDER_BUCKETS
          ? (['s', i - TEXT_BUCKETS] as const)
          : (['d', i - TEXT_BUCKETS - SENDER_BUCKETS] as const);
    const n = bucket % 97 === 0 ? 300 + seed : 1 + ((bucket + seed) % 5);
    counts.set(countName(kind, bucket), n);
    if (kind === 't') total += n;
  }
  return { id, docs: 1_000 + seed, total, counts };
}

const labels = (ws: string, n: number, size: number): OldLabel[] =>
  Array.from({ length: n }, (_, i) => oldLabel(`category:${ws}_${String(i).padStart(2, '0')}`, size, i));

/** A workspace's version 3 items: its model item (sketch key, labels) and one label item per label, nothing unfolded. */
async function writeVersion3(tables: TestTables, ws: string, old: OldLabel[]): Promise<void> {
  const put = (Item: Record<string, unknown>) =>
    admin.send(new PutCommand({ TableName: tables.names.decisions, Item }));
  await put({
    pk: `${ITEM_PREFIX.workspaceModel}${ws}`,
    sketch_key: '0123456789abcdef',
    labels: new Set(old.map((l) => l.id)),
    version: 2,
  });
  // One at a time: DynamoDB Local takes a few hundred ms for an item of tens of thousands of attributes.
  for (const l of old)
    await put({
      pk: `${ITEM_PREFIX.workspaceLabel}${ws}#${l.id}`,
      docs: l.docs,
      total: l.total,
      ...Object.fromEntries(l.counts),
      lf: 0,
    });
}

const examples = (old: OldLabel[]) => old.reduce((sum, l) => sum + l.docs, 0);

/** How a load differs from version 3's counts (empty: every count there, once). */
function mismatches(expected: OldLabel[], state: WorkspaceState): string[] {
  const out: string[] = [];
  const loaded = new Map(state.model.labels.filter((l) => l.docs > 0).map((l) => [`${l.field}:${l.label}`, l]));
  if (loaded.size !== expected.length) out.push(`${loaded.size} labels loaded, ${expected.length} expected`);
  for (const e of expected) {
    const l = loaded.get(e.id);
    if (!l) {
      out.push(`${e.id}: not loaded`);
      continue;
    }
    if (l.docs !== e.docs || l.total !== e.total)
      out.push(`${e.id}: docs ${l.docs} total ${l.total}, expected ${e.docs} and ${e.total}`);
    const counts = namedCounts(l);
    const wrong = [...e.counts].filter(([name, n]) => counts.get(name) !== n);
    if (counts.size !== e.counts.size || wrong.length)
      out.push(`${e.id}: ${counts.size} counts (${e.counts.size} expected), ${wrong.length} differ`);
  }
  return out;
}

let tables: TestTables;
/** The migration's client: DynamoDB Local takes seconds to read a large workspace's label items (not 4 s at most). */
let admin: DynamoDBDocumentClient;
let service: Service;
let learning: string;

beforeEach(async () => {
  tables = await createTestTables('migrate');
  service = createService(testSettings(tables));
  learning = learningTableOf(testSettings(tables));
  admin = createDocumentClient({ endpoint: testEndpoint(), requestTimeoutMs: 30_000 });
});
afterEach(async () => {
  admin?.destroy();
  service?.close();
  await tables?.drop();
});

/** The labels of each entry the migration wrote, in key (time) order. */
async function partsOf(ws: string): Promise<string[][]> {
  const { items } = await queryRange(tables.client, learning, ws, { after: 'e#', upTo: 'e#~' }, true);
  return items.filter((i) => String(i.sk).includes('#x.migrated.')).map((i) => i.dl as string[]);
}

/** `admin`, each call through `around` (which sends it, or not). */
function wrapped(around: (command: unknown, send: () => Promise<unknown>) => Promise<unknown>): DynamoDBDocumentClient {
  const send = admin.send.bind(admin) as (command: unknown, options?: unknown) => Promise<unknown>;
  const client = Object.create(admin) as DynamoDBDocumentClient;
  (client as { send: unknown }).send = (command: unknown, options?: unknown) =>
    around(command, () => send(command, options));
  return client;
}

/** A transaction of the migration's on `ws`. */
const partOf = (command: unknown, ws: string) =>
  command instanceof TransactWriteCommand && command.input.TransactItems?.[0]?.Update?.Key?.ws === ws;

const load = (ws: string) => service.dependencies.workspaceStore.loadState(ws);
const migrate = (client = admin) => migrateLearning(client, { decisions: tables.names.decisions, learning });

it('migrates a workspace of more counts than one transaction holds, and the workspace after it', async () => {
  // 4 labels of 48,000 counts (version 3's label items hold up to 3 x 16,384): 192,000 counts, about 580 KB, more
  // than one item (400 KB) holds, so more than one part. (1.44 million counts, past a transaction's 4 MB, took 105 s
  // to 236 s on a loaded machine and timed out CI; the parts are cut by counts, so the smaller workspace tests them.)
  const big = labels('ws_big', 4, 48_000);
  const small = labels('ws_small', 2, 40);
  await writeVersion3(tables, 'ws_big', big);
  await writeVersion3(tables, 'ws_small', small);

  const report = await migrate();
  expect(report).toEqual({ workspaces: 2, migrated: 2, examples: examples(big) + examples(small), failed: [] });
  expect(mismatches(big, await load('ws_big'))).toEqual([]);
  expect(mismatches(small, await load('ws_small'))).toEqual([]);

  // Again: nothing moves twice. One entry a label (two would pass 60,000 counts), each written once.
  expect(await migrate()).toEqual({ workspaces: 2, migrated: 0, examples: 0, failed: [] });
  expect(await partsOf('ws_big')).toEqual(big.map((l) => [l.id]));
});

it('a run that stops between parts is taken up after its last part by the next run, each part once', async () => {
  // 31,000 counts a label: one label a part (two would pass 60,000), five parts.
  const old = labels('ws_crash', 5, 31_000);
  const next = labels('ws_crash_z', 1, 10);
  await writeVersion3(tables, 'ws_crash', old);
  await writeVersion3(tables, 'ws_crash_z', next);

  // The first run fails at its third part (not sent); the workspace after it is migrated all the same.
  let sent = 0;
  const failing = wrapped(async (command, send) => {
    if (partOf(command, 'ws_crash') && ++sent === 3) throw new Error('injected: part 3 not sent');
    return send();
  });
  expect(await migrate(failing)).toEqual({
    workspaces: 2,
    migrated: 1,
    examples: examples(old.slice(0, 2)) + examples(next),
    failed: [{ workspace_id: 'ws_crash', error: 'injected: part 3 not sent' }],
  });
  // What landed loads, once, meanwhile.
  expect(mismatches(old.slice(0, 2), await load('ws_crash'))).toEqual([]);
  expect(mismatches(next, await load('ws_crash_z'))).toEqual([]);

  // The second run's first transaction lands, and its answer is lost.
  const lost = wrapped(async (command, send) => {
    const out = await send();
    if (partOf(command, 'ws_crash')) throw new Error('injected: answer lost');
    return out;
  });
  expect(await migrate(lost)).toEqual({
    workspaces: 2,
    migrated: 0,
    examples: 0,
    failed: [{ workspace_id: 'ws_crash', error: 'injected: answer lost' }],
  });
  expect(mismatches(old.slice(0, 3), await load('ws_crash'))).toEqual([]);

  // The third goes on after the third part.
  expect(await migrate()).toEqual({ workspaces: 2, migrated: 1, examples: examples(old.slice(3)), failed: [] });
  expect(mismatches(old, await load('ws_crash'))).toEqual([]);
  expect(await partsOf('ws_crash')).toEqual(old.map((l) => [l.id]));
});

it('two runs at once, racing for every part, write each part once', async () => {
  const old = labels('ws_twice', 4, 31_000);
  await writeVersion3(tables, 'ws_twice', old);
  // Each run's transaction waits for the other's (unless the other is done), so both send every part together, on the
  // same mark, and one of them loses it.
  const waiting = new Set<() => void>();
  let running = 2;
  const release = () => {
    if (waiting.size >= running) for (const go of [...waiting]) go();
  };
  let lost = 0;
  const racing = () =>
    wrapped(async (command, send) => {
      if (!partOf(command, 'ws_twice')) return send();
      await new Promise<void>((resolve) => {
        const go = () => {
          waiting.delete(go);
          resolve();
        };
        waiting.add(go);
        release();
      });
      return send().catch((err: unknown) => {
        lost++;
        throw err;
      });
    });
  const run = () =>
    migrate(racing()).finally(() => {
      running--;
      release();
    });
  const runs = await Promise.all([run(), run()]);
  expect(runs.map((r) => r.failed)).toEqual([[], []]);
  expect(runs[0].migrated + runs[1].migrated).toBe(1);
  expect(runs[0].examples + runs[1].examples).toBe(examples(old));
  expect(lost).toBeGreaterThanOrEqual(old.length);
  expect(mismatches(old, await load('ws_twice'))).toEqual([]);
  expect(await partsOf('ws_twice')).toEqual(old.map((l) => [l.id]));
});

it('a fold between two parts: every count loads once', async () => {
  const old = labels('ws_fold', 3, 31_000);
  await writeVersion3(tables, 'ws_fold', old);
  // After the first part, a container folds more than OVERLAP_MS later: its window holds that part's entry.
  let folded = 0;
  const client = wrapped(async (command, send) => {
    const out = await send();
    if (partOf(command, 'ws_fold') && !folded) {
      await sleep(OVERLAP_MS + 500);
      folded = await new LearningFolder(admin, learning).fold('ws_fold');
    }
    return out;
  });
  expect(await migrate(client)).toEqual({ workspaces: 1, migrated: 1, examples: examples(old), failed: [] });
  expect(folded).toBeGreaterThan(0);
  const label = await admin.send(
    new GetCommand({ TableName: learning, Key: { ws: 'ws_fold', sk: `c#0#${old[0].id}` }, ConsistentRead: true }),
  );
  expect(label.Item?.docs).toBe(old[0].docs);
  expect(mismatches(old, await load('ws_fold'))).toEqual([]);
});

it('a workspace reset since version 4, before the migration or between its parts, gets only the mark', async () => {
  const before = labels('ws_reset', 2, 10);
  const between = labels('ws_reset_mid', 3, 31_000);
  await writeVersion3(tables, 'ws_reset', before);
  await writeVersion3(tables, 'ws_reset_mid', between);
  // ws_reset: a reset moved its model item (made by its first load) to generation 1.
  await load('ws_reset');
  await admin.send(
    new UpdateCommand({
      TableName: learning,
      Key: { ws: 'ws_reset', sk: MODEL_KEY },
      UpdateExpression: 'SET g = :g',
      ExpressionAttributeValues: { ':g': 1 },
    }),
  );
  // ws_reset_mid: forgotten after its first part (which the forget deletes, unfolded).
  let forgotten = 0;
  const client = wrapped(async (command, send) => {
    const out = await send();
    if (partOf(command, 'ws_reset_mid') && !forgotten)
      forgotten = await new DynamoModelWriteStore(admin, tables.names.decisions, learning).forget('ws_reset_mid');
    return out;
  });
  expect(await migrate(client)).toEqual({
    workspaces: 2,
    migrated: 2,
    examples: examples(between.slice(0, 1)),
    failed: [],
  });
  expect(forgotten).toBe(1);
  for (const ws of ['ws_reset', 'ws_reset_mid']) {
    expect(await partsOf(ws)).toEqual([]);
    expect(mismatches([], await load(ws))).toEqual([]);
  }
});

it('a forget after the deploy and before the migration is not undone by it, the model item made or not', async () => {
  // Version 3's counts are not in the learning table yet: the forget must still switch the generation, or the migration
  // writes them back into the generation the partner asked to forget.
  const loaded = labels('ws_forget_loaded', 2, 10);
  const unloaded = labels('ws_forget_unloaded', 2, 10);
  await writeVersion3(tables, 'ws_forget_loaded', loaded);
  await writeVersion3(tables, 'ws_forget_unloaded', unloaded);
  // One was loaded by a container since the deploy (its model item made), the other never.
  await load('ws_forget_loaded');
  const store = new DynamoModelWriteStore(admin, tables.names.decisions, learning);
  expect(await store.forget('ws_forget_loaded')).toBe(1);
  expect(await store.forget('ws_forget_unloaded')).toBe(1);
  expect(await migrate()).toEqual({ workspaces: 2, migrated: 2, examples: 0, failed: [] });
  for (const ws of ['ws_forget_loaded', 'ws_forget_unloaded']) {
    expect(await partsOf(ws)).toEqual([]);
    expect(mismatches([], await load(ws))).toEqual([]);
  }
  // Its key is version 3's still (its decisions' sketches are in it), and a second forget has nothing to forget.
  expect((await load('ws_forget_unloaded')).sketchKey).toBe('0123456789abcdef');
  expect(await store.forget('ws_forget_unloaded')).toBe(1);
});
