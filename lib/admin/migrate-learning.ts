// `workspace migrate-learning` (docs/deploy.md, "Upgrading to version 4"): moves what each workspace learned before
// version 4 (the decisions table's `wsmodel#`, `wslabel#`, `wshead#` and `wsjournal#` items) into the learning table,
// while the service serves. Each workspace's counts, as version 3 loaded them (its label items, and the journal entries
// after each label's fold mark), become entries of the learning table written in one transaction with the model
// item's mark `migrated`: a second run, or two at once, moves nothing twice. Feedback given meanwhile writes entries of
// its own, so it is counted once whichever lands first. A workspace that fails is reported, and the others go on.
import { type DynamoDBDocumentClient, TransactWriteCommand, paginateScan } from '@aws-sdk/lib-dynamodb';
import { ITEM_PREFIX } from '../../lambdas/contract/tables';
import { decodeChanges, decodeDeltas } from '../../lambdas/domain/learning/entries';
import { journalDeltas } from '../../lambdas/domain/learning/label-delta';
import type { LabelDelta } from '../../lambdas/domain/learning/model';
import { decodeSketch } from '../../lambdas/domain/learning/sketch';
import { batchGet } from '../../lambdas/stores/batch-writes';
import { cancellationReasons } from '../../lambdas/stores/database-faults';
import { MODEL_KEY, countAttributes, countsFrom, entryItem, readModelItem } from '../../lambdas/stores/learning-items';

/** Counts an entry holds at most (about 3 bytes each): well under DynamoDB's 400 KB item. */
const COUNTS_PER_ENTRY = 60_000;

export interface MigrationReport {
  workspaces: number;
  migrated: number;
  examples: number;
  /** Workspaces whose migration stopped on an error, with it: a rerun takes them up again. */
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
    const { counts } = countsFrom({ ...item, sk: `c#${generation}#${l}` });
    const attrs = countAttributes(counts);
    const delta: LabelDelta = {
      field: counts.field,
      label: counts.label,
      docs: counts.docs,
      total: counts.total,
      counts: new Map(),
    };
    for (const [name, n] of Object.entries(attrs)) if (name !== 'docs' && name !== 'total') delta.counts.set(name, n);
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
  return { generation, deltas: journalDeltas(parts).filter((d) => d.docs > 0) };
}

/** Deltas in groups of at most COUNTS_PER_ENTRY counts (one entry each). */
function chunked(deltas: LabelDelta[]): LabelDelta[][] {
  const out: LabelDelta[][] = [[]];
  let size = 0;
  for (const d of deltas) {
    if (size + d.counts.size > COUNTS_PER_ENTRY && out[out.length - 1].length) {
      out.push([]);
      size = 0;
    }
    out[out.length - 1].push(d);
    size += d.counts.size;
  }
  return out;
}

type Tables = { decisions: string; learning: string };

async function migrateWorkspace(client: DynamoDBDocumentClient, tables: Tables, ws: string, report: MigrationReport) {
  // The model item as the service makes it: the workspace's sketch key and generation from before.
  const model = await readModelItem(client, tables.learning, ws, tables.decisions);
  if (model.migrated) return;
  const old = await oldCounts(client, tables.decisions, ws);
  const at = Date.now();
  const parts = chunked(old.deltas);
  try {
    await client.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            // A reset since version 4 started a generation the old counts are not part of: only the mark moves.
            Update: {
              TableName: tables.learning,
              Key: { ws, sk: MODEL_KEY },
              UpdateExpression: 'SET migrated = :at',
              ConditionExpression: 'attribute_not_exists(migrated)',
              ExpressionAttributeValues: { ':at': at },
            },
          },
          ...(model.generation === old.generation
            ? parts
                .filter((p) => p.length)
                .map((deltas, i) => {
                  // Kept until folded, however long the workspace stays unloaded (no expiry: entryItem).
                  const item = entryItem(ws, at, `x.migrated.${i}`, old.generation, { deltas });
                  return { Put: { TableName: tables.learning, Item: item } };
                })
            : []),
        ],
      }),
    );
  } catch (err) {
    // Another run migrated it first.
    if (cancellationReasons(err)[0] === 'ConditionalCheckFailed') return;
    throw err;
  }
  report.migrated++;
  if (model.generation === old.generation) report.examples += old.deltas.reduce((sum, d) => sum + d.docs, 0);
}

export async function migrateLearning(client: DynamoDBDocumentClient, tables: Tables): Promise<MigrationReport> {
  const report: MigrationReport = { workspaces: 0, migrated: 0, examples: 0, failed: [] };
  for (const ws of await oldWorkspaces(client, tables.decisions)) {
    report.workspaces++;
    try {
      await migrateWorkspace(client, tables, ws, report);
    } catch (err) {
      // The others go on; a rerun takes this one up again.
      report.failed.push({ workspace_id: ws, error: (err as Error).message });
    }
  }
  return report;
}
