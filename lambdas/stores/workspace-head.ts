// The workspace head (`wshead#`) and the feedback journal (`wsjournal#`) in the decisions table (docs/learning.md,
// Storage layout).
import { randomBytes } from 'node:crypto';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { batchGet } from './batch-writes';
import { conditionFailed } from './database-faults';
import { ITEM_PREFIX } from '../contract/tables';
import { type JournalEntry, decodeChanges } from '../domain/learning/journal';
import { decodeDeltas } from '../domain/learning/label-delta';
import { SENDER_BUCKETS, TEXT_BUCKETS, decodeSketch } from '../domain/learning/sketch';
import { type LabelCounts, type LearnedField, labelCounts } from '../domain/learning/model';

export const WORKSPACE_PREFIX = {
  policy: ITEM_PREFIX.policy,
  model: ITEM_PREFIX.workspaceModel,
  label: ITEM_PREFIX.workspaceLabel,
} as const;
/** A label item's key in a model generation (generation 0 keeps the layout of before resets existed). */
export const labelPk = (workspaceId: string, field: LearnedField, label: string, generation = 0) =>
  `${WORKSPACE_PREFIX.label}${workspaceId}#${generation > 0 ? `g${generation}#` : ''}${field}:${label}`;
/** A label's `<field>:<label>` name, split. */
export const fieldAndLabel = (name: string): [LearnedField, string] => {
  const colon = name.indexOf(':');
  return [name.slice(0, colon) as LearnedField, name.slice(colon + 1)];
};

/** A count's attribute: its kind, then its bucket in base 36 (below 2^14: at most 3 digits). */
const COUNT_NAME = /^[tsd][0-9a-z]{1,3}$/;

/**
 * A label item's attributes back into counts; zero counts (left by replaced feedback) are skipped. The item's own
 * attributes (`docs`, `total`, `pk`, ...) are not counts even where they look like one: `docs` would read as domain
 * bucket "ocs", out of range.
 */
export function countsFrom(field: LearnedField, label: string, item: Record<string, unknown>): LabelCounts {
  const counts = labelCounts(field, label);
  counts.docs = Number(item.docs ?? 0);
  counts.total = Number(item.total ?? 0);
  for (const [name, raw] of Object.entries(item)) {
    if (!COUNT_NAME.test(name)) continue;
    const kind = name[0];
    const bucket = parseInt(name.slice(1), 36);
    const n = Number(raw);
    if (bucket >= (kind === 't' ? TEXT_BUCKETS : SENDER_BUCKETS) || !(n > 0)) continue;
    (kind === 't' ? counts.text : kind === 's' ? counts.senders : counts.domains).set(bucket, n);
  }
  return counts;
}

export const headPk = (workspaceId: string) => `${ITEM_PREFIX.workspaceHead}${workspaceId}`;
export const journalPk = (workspaceId: string, generation: number, seq: number) =>
  `${ITEM_PREFIX.workspaceJournal}${workspaceId}#g${generation}#${seq}`;
export const foldPlanPk = (workspaceId: string, generation: number, end: number) =>
  `${ITEM_PREFIX.workspaceJournal}${workspaceId}#g${generation}#fold${end}`;

export interface Head {
  /** Absent on a head made before heads kept it (the loader sets it from the model item). */
  generation?: number;
  seq: number;
  folded: number;
  folding?: number;
  foldingAt?: number;
  policyChanges: number;
  modelChanges: number;
  unfoldedSince?: number;
  /** Examples in the import entries not folded yet (`iw`): a fold is due once they weigh a window. */
  importWeight: number;
  /** The journal's number when the generation began (`gs`, set by a reset): its entries are numbered after it. */
  generationStart: number;
  /**
   * The highest journal number a fold found missing (`gap_seq`), when a fold first did (`gap_at`), and when one last
   * looked (`gap_checked_at`).
   */
  gapSeq?: number;
  gapAt?: number;
  gapCheckedAt?: number;
}

const num = (v: unknown) => (v === undefined || v === null ? undefined : Number(v));

export function headFrom(item: Record<string, unknown> | undefined): Head {
  return {
    generation: num(item?.generation),
    seq: num(item?.seq) ?? 0,
    folded: num(item?.folded) ?? 0,
    folding: num(item?.folding),
    foldingAt: num(item?.folding_at),
    policyChanges: num(item?.pv) ?? 0,
    modelChanges: num(item?.mv) ?? 0,
    unfoldedSince: num(item?.unfolded_since),
    importWeight: num(item?.iw) ?? 0,
    generationStart: num(item?.gs) ?? 0,
    gapSeq: num(item?.gap_seq),
    gapAt: num(item?.gap_at),
    gapCheckedAt: num(item?.gap_checked_at),
  };
}

export function entryFrom(seq: number, item: Record<string, unknown>): JournalEntry {
  return {
    seq,
    sketch: item.sketch instanceof Uint8Array ? decodeSketch(item.sketch) : undefined,
    changes: decodeChanges(item.ch),
    ...(item.dx instanceof Uint8Array && Array.isArray(item.dl)
      ? { deltas: decodeDeltas(item.dl as string[], item.dx) }
      : {}),
    // An import's examples, counted in the head's import weight, also when its entry moves nothing (folds take it off).
    ...(item.xn !== undefined ? { examples: Number(item.xn) } : {}),
  };
}

/** An entry's size for the read figures: its sketch or its import counts, and the rest at about 40 bytes. */
export const entryBytes = (item: Record<string, unknown>) =>
  40 +
  (item.sketch instanceof Uint8Array ? item.sketch.length : 0) +
  (item.dx instanceof Uint8Array ? item.dx.length + JSON.stringify(item.dl ?? []).length : 0);

/** A write that met a transaction on the same item (an import, a reset, a policy change): tried again shortly. */
export async function retryingConflicts<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await write();
    } catch (err) {
      if ((err as { name?: string }).name !== 'TransactionConflictException' || attempt >= 5) throw err;
      await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
    }
  }
}

/** An update of a workspace's head, tried again when it meets a transaction on the head. */
export const updateHead = (
  client: DynamoDBDocumentClient,
  tableName: string,
  workspaceId: string,
  update: Omit<UpdateCommandInput, 'TableName' | 'Key'>,
) =>
  retryingConflicts(() =>
    client.send(new UpdateCommand({ TableName: tableName, Key: { pk: headPk(workspaceId) }, ...update })),
  );

/** A token that tells one write from its writer's others: the SDK sends the same one again when it retries. */
export const writeToken = () => randomBytes(6).toString('base64url');

/**
 * Takes the journal's next number for a feedback or an import (`examples` adds to the head's import weight). The token
 * makes the SDK's retry of a write that landed but whose answer was lost fail, and read the number it took from the
 * head, instead of taking a second one that no entry would ever fill.
 */
export async function takeJournalNumber(
  client: DynamoDBDocumentClient,
  tableName: string,
  workspaceId: string,
  nowMs: number,
  examples?: number,
): Promise<Head> {
  try {
    const out = await updateHead(client, tableName, workspaceId, {
      UpdateExpression: `ADD seq :one${examples === undefined ? '' : ', iw :n'} SET unfolded_since = if_not_exists(unfolded_since, :now), taken_by = :token`,
      ConditionExpression: 'attribute_not_exists(taken_by) OR taken_by <> :token',
      ExpressionAttributeValues: {
        ...{ ':one': 1, ':now': nowMs, ':token': writeToken() },
        ...(examples === undefined ? {} : { ':n': examples }),
      },
      ReturnValues: 'ALL_NEW',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    });
    return headFrom(out.Attributes);
  } catch (err) {
    // Only this write's own earlier attempt leaves its token: the head is as that attempt left it. (Had another writer
    // taken a number in between, the resend took a second one: a gap given up after JOURNAL_GAP_GIVE_UP_MS.)
    if (!conditionFailed(err)) throw err;
    const item = (err as { Item?: Record<string, AttributeValue> }).Item;
    if (!item) throw err;
    return headFrom(unmarshall(item));
  }
}

/** A head written before heads held the generation gets the model item's (once per workspace, on its first load). */
export async function initHead(
  client: DynamoDBDocumentClient,
  tableName: string,
  workspaceId: string,
  generation: number,
): Promise<Head> {
  const out = await client.send(
    new UpdateCommand({
      TableName: tableName,
      Key: { pk: headPk(workspaceId) },
      UpdateExpression:
        'SET #gen = if_not_exists(#gen, :gen), folded = if_not_exists(folded, :zero), seq = if_not_exists(seq, :zero)',
      ExpressionAttributeNames: { '#gen': 'generation' },
      ExpressionAttributeValues: { ':gen': generation, ':zero': 0 },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return headFrom(out.Attributes);
}

/**
 * Journal entries by seq (undefined: not there yet). Read eventually consistent (half the price); the few found
 * missing are read once more strongly consistent, since an entry written a moment ago may not be visible yet.
 * `onRead` is told of each seq's item (or its absence) in each of the two reads.
 */
export async function readJournal(
  client: DynamoDBDocumentClient,
  tableName: string,
  workspaceId: string,
  generation: number,
  seqs: number[],
  onRead?: (item: Record<string, unknown> | undefined, consistent: boolean) => void,
): Promise<{ entries: Map<number, JournalEntry | undefined>; requests: number; bytes: number }> {
  const entries = new Map<number, JournalEntry | undefined>();
  let requests = 0;
  let bytes = 0;
  let missing = seqs;
  for (const consistent of [false, true]) {
    if (missing.length === 0) break;
    const out = await batchGet(
      client,
      tableName,
      missing.map((s) => journalPk(workspaceId, generation, s)),
      consistent,
    );
    requests += out.requests;
    for (const s of missing) {
      const item = out.items.get(journalPk(workspaceId, generation, s));
      entries.set(s, item && entryFrom(s, item));
      onRead?.(item, consistent);
      if (item) bytes += entryBytes(item);
    }
    missing = missing.filter((s) => !entries.get(s));
  }
  return { entries, requests, bytes };
}
