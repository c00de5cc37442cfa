// What a forget reads (docs/operations.md, "Worst-case work per request"): the keys and `docs` of the workspace's label
// items and the keys of its unfolded entries, never their counts. A label item holds up to 3 x 16,384 counts and an
// import's entry up to about 135 KB; read whole, a workspace of 600 labels of 4,800 counts (17 MB, one attribute a count as
// folds wrote them before the binary form) cost the forget 6.5 s of CPU and 500 MB of memory, more than a 512 MB Lambda
// has in its 10 s.
import { BatchWriteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { learningTableOf } from '../../lambdas/contract/settings';
import { type LabelDelta, labelCounts } from '../../lambdas/domain/learning/model';
import { countAttributes, entryItem, itemsBytes, readModelItem } from '../../lambdas/stores/learning-items';
import { DynamoModelWriteStore } from '../../lambdas/stores/model-write-store';
import { type TestTables, createTestTables } from '../support/dynamodb';
import { testSettings } from '../support/local-api';

let tables: TestTables;
let learning: string;
beforeAll(async () => {
  tables = await createTestTables('forgetbounds');
  learning = learningTableOf(testSettings(tables));
});
afterAll(async () => tables?.drop());

const LABELS = 20;
const COUNTS = 3_000;

/** A client that adds up the items every Query answered. */
function measuringClient() {
  const send = tables.client.send.bind(tables.client) as (command: unknown) => Promise<unknown>;
  const read = { bytes: 0 };
  const client = Object.create(tables.client) as typeof tables.client;
  (client as { send: unknown }).send = async (command: unknown) => {
    const out = await send(command);
    if (command instanceof QueryCommand)
      read.bytes += itemsBytes((out as { Items?: Record<string, unknown>[] }).Items ?? []);
    return out;
  };
  return { client, read };
}

const query = async (ws: string, prefix: string) =>
  (
    await tables.client.send(
      new QueryCommand({
        TableName: learning,
        KeyConditionExpression: 'ws = :ws AND begins_with(sk, :p)',
        ExpressionAttributeValues: { ':ws': ws, ':p': prefix },
        ConsistentRead: true,
      }),
    )
  ).Items ?? [];

it("a forget reads its labels' keys and docs and its entries' keys, not their counts, and deletes them all", async () => {
  const ws = 'ws_forget_big';
  await readModelItem(tables.client, learning, ws, tables.names.decisions);
  // Label items as a fold writes them, each with COUNTS text counts.
  const labels = Array.from({ length: LABELS }, (_, l) => {
    const counts = labelCounts('category', `label_${l}`);
    for (let b = 0; b < COUNTS; b++) counts.text.set((b * 5 + l) % 16_384, 1 + (b % 4));
    counts.docs = 30;
    counts.total = COUNTS;
    return { ws, sk: `c#0#category:label_${l}`, ...countAttributes(counts), w: 1 };
  });
  for (let i = 0; i < labels.length; i += 25)
    await tables.client.send(
      new BatchWriteCommand({
        RequestItems: { [learning]: labels.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) },
      }),
    );
  // An import's entry, not folded yet: its counts in one binary.
  const delta: LabelDelta = {
    field: 'queue',
    label: 'billing',
    docs: 100,
    total: COUNTS,
    counts: new Map(Array.from({ length: COUNTS }, (_, b) => [`t${b.toString(36)}`, 2] as [string, number])),
  };
  await tables.client.send(
    new BatchWriteCommand({
      RequestItems: {
        [learning]: [{ PutRequest: { Item: entryItem(ws, Date.now(), 'x.big', 0, { deltas: [delta] }) } }],
      },
    }),
  );
  const stored = itemsBytes(await query(ws, 'c#')) + itemsBytes(await query(ws, 'e#'));
  expect(stored).toBeGreaterThan(150_000);

  const { client, read } = measuringClient();
  const before: unknown[] = [];
  const forget = new DynamoModelWriteStore(client, tables.names.decisions, learning);
  const generation = await forget.forget(ws, ({ before: b, after }) => {
    before.push(b);
    return {
      event: { actor: 'key:key_test', action: 'model.forget', target: { workspace_id: ws }, before: b, after },
      at: new Date(),
    };
  });

  expect(generation).toBe(1);
  // The import's entry is not folded yet: named as one entry, whose counts the forget does not read.
  expect(before).toEqual([{ generation: 0, labels: LABELS, version: LABELS * 30, entries: 1 }]);
  // Keys and docs: about 40 bytes an item, against some 9 KB a label item and as much the import's entry.
  expect(read.bytes).toBeLessThan(2_000);
  expect(await query(ws, 'c#')).toEqual([]);
  expect((await query(ws, 'e#')).map((i) => String(i.sk).slice(16))).toEqual(['r.1']);
});
