// The learning table's items (docs/learning.md, "Storage layout"): per workspace (`ws`) the model item `m`, each
// label's folded counts `c#<generation>#<field>:<label>` and the entries `e#<time>#<id>`. Keys, codecs and reads.
import { randomBytes } from 'node:crypto';
import { type DynamoDBDocumentClient, GetCommand, UpdateCommand, paginateQuery } from '@aws-sdk/lib-dynamodb';
import { type Entry, type EntryBody, entryAttributes, entryBody, labelOf } from '../domain/learning/entries';
import {
  COUNT_KINDS,
  addToLabelCounts,
  countCode,
  encodeLabelCounts,
  forEachLabelCount,
} from '../domain/learning/count-codec';
import { type LabelCounts, type LabelDelta, labelCounts } from '../domain/learning/model';
import { SENDER_BUCKETS, TEXT_BUCKETS, newSketchKey } from '../domain/learning/sketch';
import { ITEM_PREFIX } from '../contract/tables';
import { consumedUnits } from './dynamodb-client';

export const MODEL_KEY = 'm';
/**
 * How long an entry is kept once nothing needs it: 30 days after the fold that summed it into the label items, or
 * after it was written for one that moves no counts (a policy change, a reset). A container's check reads again
 * entries it has not seen since its last read, however long ago (docs/learning.md, "Kept fresh without reloads").
 */
const ENTRY_SECONDS = 30 * 24 * 60 * 60;
export const entryExpiry = (nowMs: number) => Math.floor(nowMs / 1000) + ENTRY_SECONDS;

export const countsKey = (generation: number, id: string) => `c#${generation}#${id}`;
const entryKey = (at: number, id: string) => `e#${String(Math.max(0, Math.floor(at))).padStart(13, '0')}#${id}`;
/** An id for an entry no retry can write twice under another id (an import): random, fixed for its write. */
export const randomId = () => randomBytes(9).toString('base64url');

interface ModelItem {
  generation: number;
  sketchKey?: string;
  /** Entries up to this time are in the label items. */
  folded: number;
  /** A fold in flight: the end of its window, and when it was claimed. */
  folding?: number;
  foldingAt?: number;
  /** When `admin workspace migrate-learning` moved the counts from before version 4 (absent: not yet). */
  migrated?: number;
}

const modelFrom = (item: Record<string, unknown> | undefined): ModelItem => ({
  generation: Number(item?.g ?? 0),
  sketchKey: typeof item?.sketch_key === 'string' ? item.sketch_key : undefined,
  folded: Number(item?.f ?? 0),
  folding: item?.fw === undefined ? undefined : Number(item.fw),
  foldingAt: item?.fa === undefined ? undefined : Number(item.fa),
  migrated: item?.migrated === undefined ? undefined : Number(item.migrated),
});

/** The model item, read consistently (none yet: generation 0, nothing folded, no sketch key). */
export const getModel = async (client: DynamoDBDocumentClient, table: string, ws: string): Promise<ModelItem> =>
  modelFrom(
    (await client.send(new GetCommand({ TableName: table, Key: { ws, sk: MODEL_KEY }, ConsistentRead: true }))).Item,
  );

/**
 * The model item, made on a workspace's first load (concurrent first loads agree). A workspace that learned before
 * version 4 keeps its sketch key and generation, read from its model item in the decisions table (`wsmodel#`):
 * its counts, moved by `admin workspace migrate-learning`, and its decisions' sketches are in that key. `newKey`
 * makes a new workspace's key (the evals pass seeded ones, so that their figures repeat: bin/eval/seeded-sketch-keys.ts);
 * `null` reads without making the item (`admin workspace model`, a read command: a typed workspace id leaves nothing
 * behind), answering the generation a first load would give it and no sketch key.
 */
export async function readModelItem(
  client: DynamoDBDocumentClient,
  table: string,
  ws: string,
  decisionsTable: string,
  newKey: (() => string) | null = newSketchKey,
): Promise<ModelItem> {
  const model = await getModel(client, table, ws);
  if (model.sketchKey !== undefined) return model;
  const before = await versionThreeModel(client, decisionsTable, ws);
  if (newKey === null) return { ...model, generation: model.generation || Number(before?.generation ?? 0) };
  const out = await client.send(
    new UpdateCommand({
      TableName: table,
      Key: { ws, sk: MODEL_KEY },
      UpdateExpression: 'SET sketch_key = if_not_exists(sketch_key, :key), g = if_not_exists(g, :g)',
      ExpressionAttributeValues: {
        ':key': typeof before?.sketch_key === 'string' ? before.sketch_key : newKey(),
        ':g': Number(before?.generation ?? 0),
      },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return modelFrom(out.Attributes);
}

/** A workspace's model item from before version 4 (`wsmodel#` in the decisions table), if it has one. */
const versionThreeModel = async (client: DynamoDBDocumentClient, decisionsTable: string, ws: string) =>
  (
    await client.send(
      new GetCommand({ TableName: decisionsTable, Key: { pk: ITEM_PREFIX.workspaceModel + ws }, ConsistentRead: true }),
    )
  ).Item;

/** A count's attribute in the form before the binary (one attribute per count): its kind, then its bucket in base 36. */
const COUNT_NAME = /^[tsd][0-9a-z]{1,3}$/;
const BUCKETS = [TEXT_BUCKETS, SENDER_BUCKETS, SENDER_BUCKETS];

/**
 * The count attributes of the form before the binary, by code (kind << 14 | bucket): an item no fold has rewritten
 * since the binary came in, or one an older Lambda added to during a deploy. A load and a fold add them to `cb`.
 */
function legacyCounts(item: Record<string, unknown>): Map<number, number> {
  const codes = new Map<number, number>();
  for (const [name, raw] of Object.entries(item)) {
    if (!COUNT_NAME.test(name) || typeof raw !== 'number') continue;
    const kind = COUNT_KINDS.indexOf(name[0]);
    const bucket = parseInt(name.slice(1), 36);
    if (bucket < BUCKETS[kind]) codes.set((kind << 14) | bucket, raw);
  }
  return codes;
}

/**
 * A label item's counts as a load uses them (the binary `cb`, count-codec.ts, plus any count attributes): those above
 * 0, and docs and total no lower than 0 (a stored count may be below 0 for a while: docs/learning.md, "Folding").
 * `w` is the last fold it holds.
 */
export function countsFrom(item: Record<string, unknown>): { counts: LabelCounts; folded: number } {
  const { field, label } = labelOf(String(item.sk).replace(/^c#\d+#/, ''));
  const counts = labelCounts(field, label);
  counts.docs = Math.max(0, Number(item.docs ?? 0));
  counts.total = Math.max(0, Number(item.total ?? 0));
  const maps = [counts.text, counts.senders, counts.domains] as const;
  const add = (kind: number, bucket: number, n: number) => {
    if (kind < 3 && bucket < BUCKETS[kind]) maps[kind].set(bucket, (maps[kind].get(bucket) ?? 0) + n);
  };
  if (item.cb instanceof Uint8Array) forEachLabelCount(item.cb, add);
  for (const [code, n] of legacyCounts(item)) add(code >>> 14, code & 0x3fff, n);
  for (const map of maps) for (const [bucket, n] of map) if (!(n > 0)) map.delete(bucket);
  return { counts, folded: Number(item.w ?? 0) };
}

/**
 * A label item with a fold's share added exactly, as DynamoDB's ADD adds (no floor at 0), its counts in one binary
 * and its mark `w` at `end`; `item` undefined: the label has none yet.
 */
export function labelItemPlus(
  ws: string,
  sk: string,
  item: Record<string, unknown> | undefined,
  delta: LabelDelta,
  end: number,
): Record<string, unknown> {
  const add = item ? legacyCounts(item) : new Map<number, number>();
  for (const [name, n] of delta.counts) {
    const code = countCode(name);
    add.set(code, (add.get(code) ?? 0) + n);
  }
  const cb = addToLabelCounts(item?.cb instanceof Uint8Array ? item.cb : undefined, add);
  return {
    ws,
    sk,
    docs: Number(item?.docs ?? 0) + delta.docs,
    total: Number(item?.total ?? 0) + delta.total,
    ...(cb.length > 0 ? { cb } : {}),
    w: end,
  };
}

/** A label's counts as its item's attributes: docs, total and the counts in one binary (count-codec.ts). */
export function countAttributes(counts: LabelCounts): Record<string, unknown> {
  const out: Record<string, unknown> = { docs: counts.docs, total: counts.total };
  const cb = encodeLabelCounts([counts.text, counts.senders, counts.domains]);
  // DynamoDB takes an empty binary attribute, but nothing is the plainer way to store no counts.
  if (cb.length > 0) out.cb = cb;
  return out;
}

/** Items' size, about as DynamoDB sent them: as JSON, each binary by its length (not as the digits of its length). */
export function itemsBytes(items: readonly Record<string, unknown>[]): number {
  let binary = 0;
  const json = items.reduce(
    (sum, i) =>
      sum +
      JSON.stringify(i, (_k, v: unknown) => {
        if (!(v instanceof Uint8Array)) return v;
        binary += v.length;
        return '';
      }).length,
    0,
  );
  return json + binary;
}

const KIND_OF: Record<string, Entry['kind']> = { f: 'feedback', x: 'import', p: 'policy', r: 'reset' };

export function entryFrom(item: Record<string, unknown>): Entry {
  const key = String(item.sk);
  return {
    key,
    at: Number(key.slice(2, 15)),
    generation: Number(item.g ?? 0),
    kind: KIND_OF[key[16]] ?? 'policy',
    ...entryBody(item),
  };
}

/** An entry as an item: `id` starts with its kind's letter (f feedback, x import, p policy, r reset). */
export const entryItem = (ws: string, at: number, id: string, generation: number, body: EntryBody) => ({
  ws,
  sk: entryKey(at, id),
  g: generation,
  ...entryAttributes(body),
  // One that moves counts has none until the fold that sums it (learning-fold.ts): TTL must not delete a count first.
  ...((body.sketch && body.changes?.length) || body.deltas?.length ? {} : { expires_at: entryExpiry(at) }),
});

/** A policy change's entry, in the transaction that changes the policy: the containers' next check reads it again. */
export const policyEntryPut = (table: string, ws: string, version: number) => ({
  Put: { TableName: table, Item: entryItem(ws, Date.now(), `p.${version}`, 0, {}) },
});

/**
 * Every item of `ws` whose key lies in (after, upTo] (a key prefix range), page by page, with read units consumed;
 * with `attributes`, only those of each item (DynamoDB reads and bills the whole items all the same, but sends, and
 * the SDK parses, only these).
 */
export async function queryRange(
  client: DynamoDBDocumentClient,
  table: string,
  ws: string,
  range: { after: string; upTo: string },
  consistent: boolean,
  attributes?: readonly string[],
): Promise<{ items: Record<string, unknown>[]; units: number; requests: number }> {
  const items: Record<string, unknown>[] = [];
  let units = 0;
  let requests = 0;
  const names = attributes && Object.fromEntries(attributes.map((a, i) => [`#p${i}`, a]));
  const pages = paginateQuery(
    { client },
    {
      TableName: table,
      KeyConditionExpression: 'ws = :ws AND sk BETWEEN :after AND :upTo',
      ExpressionAttributeValues: { ':ws': ws, ':after': range.after, ':upTo': range.upTo },
      ...(names ? { ProjectionExpression: Object.keys(names).join(', '), ExpressionAttributeNames: names } : {}),
      ConsistentRead: consistent,
      ReturnConsumedCapacity: 'TOTAL',
    },
  );
  for await (const out of pages) {
    requests++;
    units += consumedUnits(out);
    for (const item of out.Items ?? []) if (item.sk !== range.after) items.push(item);
  }
  return { items, units, requests };
}

/** The entries with a time after `afterMs` (up to `upToMs`, inclusive). */
export const queryEntries = (
  client: DynamoDBDocumentClient,
  table: string,
  ws: string,
  afterMs: number,
  consistent: boolean,
  upToMs = 9_999_999_999_999,
) =>
  queryRange(client, table, ws, { after: entryKey(afterMs, '~'), upTo: entryKey(upToMs, '~') }, consistent).then(
    (r) => ({ ...r, entries: r.items.map(entryFrom) }),
  );

/** A generation's label items. */
export const queryCounts = (client: DynamoDBDocumentClient, table: string, ws: string, generation: number) =>
  queryRange(client, table, ws, { after: `c#${generation}#`, upTo: `c#${generation}#~` }, true);

/**
 * Every generation's label items, each with its generation (a forget's: it deletes those older ones left behind):
 * only their key and `docs`, not their counts (up to 3 x 16,384 counts an item; parsed whole, 600 labels of 4,800
 * counts took the forget 6.5 s of CPU: docs/operations.md, "Worst-case work per request").
 */
export const queryAllCounts = async (client: DynamoDBDocumentClient, table: string, ws: string) =>
  (await queryRange(client, table, ws, { after: 'c#', upTo: 'c#~' }, true, ['sk', 'docs'])).items.map((item) => ({
    item,
    generation: Number(String(item.sk).split('#')[1]),
  }));

/**
 * The entries after `afterMs` as a forget needs them: key, generation and whether each moves counts (as movesCounts in
 * entries.ts: a feedback's sketch `s`, at most 197 bytes, with the labels it moved, or an import's labels), without an
 * import's counts (`dx`, up to about 135 KB an entry).
 */
export async function queryEntryKeys(client: DynamoDBDocumentClient, table: string, ws: string, afterMs: number) {
  const range = { after: entryKey(afterMs, '~'), upTo: entryKey(9_999_999_999_999, '~') };
  const { items } = await queryRange(client, table, ws, range, true, ['sk', 'g', 's', 'ch', 'dl']);
  return items.map((item) => ({
    key: String(item.sk),
    generation: Number(item.g ?? 0),
    moves:
      (item.s instanceof Uint8Array && Array.isArray(item.ch) && item.ch.length > 0) ||
      (Array.isArray(item.dl) && item.dl.length > 0),
  }));
}
