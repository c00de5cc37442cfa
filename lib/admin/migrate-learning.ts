// `workspace migrate-learning` (docs/deploy.md, "Upgrading to version 4"): moves what each workspace learned before
// version 4 (the decisions table's `wsmodel#`, `wslabel#`, `wshead#` and `wsjournal#` items) into the learning table,
// while the service serves. Each workspace's counts, as version 3 loaded them (its label items, and the journal entries
// after each label's fold mark), become entries of the learning table, written part by part (a transaction holds at
// most 4 MB: 1.3 million counts), each part in one transaction with the model item's marks: a second run, or two at
// once, moves nothing twice, and a run after a crash goes on where it stopped. Feedback given meanwhile writes entries
// of its own, so it is counted once whichever lands first. A workspace that fails is reported, and the others go on.
import { type DynamoDBDocumentClient, GetCommand, TransactWriteCommand, paginateScan } from '@aws-sdk/lib-dynamodb';
import { ITEM_PREFIX } from '../../lambdas/contract/tables';
import { OVERLAP_MS, decodeChanges, decodeDeltas } from '../../lambdas/domain/learning/entries';
import { journalDeltas } from '../../lambdas/domain/learning/label-delta';
import { type LabelDelta, namedCounts } from '../../lambdas/domain/learning/model';
import { decodeSketch } from '../../lambdas/domain/learning/sketch';
import { batchGet } from '../../lambdas/stores/batch-writes';
import { cancellationReasons, transactionConflict } from '../../lambdas/stores/database-faults';
import { MODEL_KEY, countsFrom, entryItem, randomId, readModelItem } from '../../lambdas/stores/learning-items';
import { ADMIN_CONTENTION_RETRY, AGAIN, retrying } from '../../lambdas/domain/retry';

/** Counts an entry holds at most (about 3 bytes each): well under DynamoDB's 400 KB item. */
const COUNTS_PER_ENTRY = 60_000;

interface MigrationReport {
  workspaces: number;
  /** Workspaces this run set `migrated` on. */
  migrated: number;
  /** Examples in the parts this run wrote. */
  examples: number;
  /** Workspaces whose migration stopped on an error, with it: a rerun goes on after the last part that landed. */
  failed: { workspace_id: string; error: string }[];
}

/** The workspaces that learned before version 4: those with a `wsmodel#` item (one Scan, once). */
async function oldWorkspaces(client: DynamoDBDocumentClient, table: string): Promise<string[]> {
  const out: string[] = [];
  const pages = paginateScan(
    { client },
    {
      TableName: table,
      FilterExpression: 'begins_with(pk, :p)',
      ExpressionAttributeValues: { ':p': ITEM_PREFIX.workspaceModel },
      ProjectionExpression: 'pk',
    },
  );
  for await (const page of pages) {
    for (const item of page.Items ?? []) out.push(String(item.pk).slice(ITEM_PREFIX.workspaceModel.length));
  }
  return out.sort();
}

/** A workspace's counts as version 3 loaded them, summed per label. */
async function oldCounts(client: DynamoDBDocumentClient, table: string, ws: string) {
  const get = async (pks: string[]) => (await batchGet(client, table, pks, true)).items;
  const model = (await get([ITEM_PREFIX.workspaceModel + ws])).get(ITEM_PREFIX.workspaceModel + ws) ?? {};
  const generation = Number(model.generation ?? 0);
  const head = (await get([ITEM_PREFIX.workspaceHead + ws])).get(ITEM_PREFIX.workspaceHead + ws) ?? {};
  const labels = [...((model.labels as Set<string> | undefined) ?? [])];
  const labelPk = (l: string) => `${ITEM_PREFIX.workspaceLabel}${ws}#${generation > 0 ? `g${generation}#` : ''}${l}`;
  const items = await get(labels.map(labelPk));
  const marks = new Map<string, number>();
  const parts: {
    sketch?: ReturnType<typeof decodeSketch>;
    changes: ReturnType<typeof decodeChanges>;
    deltas?: LabelDelta[];
  }[] = [];
  for (const l of labels) {
    const item = items.get(labelPk(l));
    if (!item) continue;
    marks.set(l, Number(item.lf ?? 0));
    // Version 3 named sender bucket 20's count `sk` (its items are keyed by `pk`), the name a label item's sort key has
    // here: read as `s0k`, as countName names it since.
    const { sk: sender20, ...counted } = item;
    const { counts } = countsFrom({
      ...counted,
      ...(typeof sender20 === 'number' ? { s0k: sender20 } : {}),
      sk: `c#${generation}#${l}`,
    });
    const delta: LabelDelta = {
      field: counts.field,
      label: counts.label,
      docs: counts.docs,
      total: counts.total,
      counts: namedCounts(counts),
    };
    parts.push({ changes: [], deltas: [delta] });
  }
  // The journal after the fold marker; a label folded past an entry (its mark) already holds it.
  const [folded, seq] = [Number(head.folded ?? 0), Number(head.seq ?? 0)];
  const seqs = Array.from({ length: Math.max(0, seq - folded) }, (_, i) => folded + 1 + i);
  const entryPk = (s: number) => `${ITEM_PREFIX.workspaceJournal}${ws}#g${generation}#${s}`;
  const entries = await get(seqs.map(entryPk));
  for (const s of seqs) {
    const e = entries.get(entryPk(s));
    if (!e) continue;
    const after = (id: string) => s > (marks.get(id) ?? 0);
    parts.push({
      sketch: e.sketch instanceof Uint8Array ? decodeSketch(e.sketch) : undefined,
      changes: decodeChanges(e.ch).filter((c) => after(`${c.field}:${c.label}`)),
      deltas:
        e.dx instanceof Uint8Array && Array.isArray(e.dl)
          ? decodeDeltas(e.dl as string[], e.dx).filter((d) => after(`${d.field}:${d.label}`))
          : undefined,
    });
  }
  return {
    generation,
    deltas: journalDeltas(parts)
      .filter((d) => d.docs > 0)
      .map(withoutNegatives),
  };
}

/**
 * A label's sums as an entry may hold them: an entry's counts are unsigned (entries.ts). Version 3 could sum a count
 * below 0 (a decision moved out of a label whose adding it had lost); a load counts such a count as none, so it moves
 * as none.
 */
const withoutNegatives = (d: LabelDelta): LabelDelta => ({
  ...d,
  total: Math.max(0, d.total),
  counts: new Map([...d.counts].filter(([, n]) => n > 0)),
});

const idOf = (d: LabelDelta) => `${d.field}:${d.label}`;

/**
 * The first part of `rest` (in label order): whole labels, up to COUNTS_PER_ENTRY counts, one label at least (a
 * label is never split: version 3's hold at most 3 x 16,384 counts).
 */
function firstPart(rest: LabelDelta[]): LabelDelta[] {
  let [n, size] = [0, 0];
  while (n < rest.length && (n === 0 || size + rest[n].counts.size <= COUNTS_PER_ENTRY)) size += rest[n++].counts.size;
  return rest.slice(0, n);
}

/** The model item's generation and migration marks, read consistently. */
async function marks(client: DynamoDBDocumentClient, table: string, ws: string) {
  const item = (
    await client.send(new GetCommand({ TableName: table, Key: { ws, sk: MODEL_KEY }, ConsistentRead: true }))
  ).Item;
  return {
    generation: Number(item?.g ?? 0),
    migrated: item?.migrated !== undefined,
    movedThrough: typeof item?.ml === 'string' ? item.ml : undefined,
  };
}

type Tables = { decisions: string; learning: string };

/**
 * The next part after the model item's mark `ml` (the last label moved, in label order): its entry and the mark moved
 * to its last label, in one transaction, on the condition that the mark is where this run read it, that the model is
 * in the old counts' generation and that `migrated` is absent; the last part (or none left) sets `migrated`. So each
 * part lands once, whoever writes it and however often. Answers whether the workspace is done, or AGAIN to read again.
 */
async function nextPart(
  client: DynamoDBDocumentClient,
  table: string,
  ws: string,
  old: { generation: number; deltas: LabelDelta[] },
  report: MigrationReport,
): Promise<boolean | typeof AGAIN> {
  const model = await marks(client, table, ws);
  if (model.migrated) return true;
  const after = model.movedThrough;
  // A reset since version 4 started a generation the old counts are not part of: only the mark moves.
  const rest =
    model.generation === old.generation ? old.deltas.filter((d) => after === undefined || idOf(d) > after) : [];
  const part = firstPart(rest);
  const last = part.length === rest.length;
  // Its own time, taken now: a fold since the part before may have passed that one's (docs/learning.md, "Folding").
  const at = Date.now();
  const sets = [...(part.length ? ['ml = :ml'] : []), ...(last ? ['migrated = :at'] : [])];
  const markHere = after === undefined ? 'attribute_not_exists(ml)' : 'ml = :after';
  const update = {
    TableName: table,
    Key: { ws, sk: MODEL_KEY },
    UpdateExpression: `SET ${sets.join(', ')}`,
    ConditionExpression: `attribute_not_exists(migrated) AND g = :g AND ${markHere}`,
    ExpressionAttributeValues: {
      ':g': model.generation,
      ...(part.length ? { ':ml': idOf(part[part.length - 1]) } : {}),
      ...(last ? { ':at': at } : {}),
      ...(after === undefined ? {} : { ':after': after }),
    },
  };
  // Kept until folded, however long the workspace stays unloaded (no expiry: entryItem).
  const entry = entryItem(ws, at, `x.migrated.${randomId()}`, old.generation, { deltas: part });
  const put = part.length ? [{ Put: { TableName: table, Item: entry } }] : [];
  // Given up after OVERLAP_MS / 2, as the service's writers do: the entry lands within half the overlap of its time.
  const abortSignal = AbortSignal.timeout(OVERLAP_MS / 2);
  try {
    await client.send(new TransactWriteCommand({ TransactItems: [{ Update: update }, ...put] }), { abortSignal });
  } catch (err) {
    // Another run moved the mark, or a reset the generation: progress, not contention; the next part is read at once.
    if (cancellationReasons(err)[0] === 'ConditionalCheckFailed') return false;
    if (abortSignal.aborted || transactionConflict(err)) return AGAIN;
    throw err;
  }
  report.examples += part.reduce((sum, d) => sum + d.docs, 0);
  if (last) report.migrated++;
  return last;
}

/** One workspace, part by part; a rerun after a crash goes on after the last part that landed. */
async function migrateWorkspace(client: DynamoDBDocumentClient, tables: Tables, ws: string, report: MigrationReport) {
  // The model item as the service makes it: the workspace's sketch key and generation from before.
  if ((await readModelItem(client, tables.learning, ws, tables.decisions)).migrated !== undefined) return;
  const old = await oldCounts(client, tables.decisions, ws);
  // In the order the mark compares label ids in (as strings): a run after another cuts the parts after its mark alike.
  old.deltas.sort((a, b) => (idOf(a) < idOf(b) ? -1 : idOf(a) > idOf(b) ? 1 : 0));
  const next = () => nextPart(client, tables.learning, ws, old, report);
  for (let done = false; !done;) done = await retrying('migration part', next, ADMIN_CONTENTION_RETRY);
}

export async function migrateLearning(client: DynamoDBDocumentClient, tables: Tables): Promise<MigrationReport> {
  const report: MigrationReport = { workspaces: 0, migrated: 0, examples: 0, failed: [] };
  for (const ws of await oldWorkspaces(client, tables.decisions)) {
    report.workspaces++;
    try {
      await migrateWorkspace(client, tables, ws, report);
    } catch (err) {
      // The others go on; a rerun takes this one up after its mark.
      report.failed.push({ workspace_id: ws, error: (err as Error).message });
    }
  }
  return report;
}
