// What an imported example costs in DynamoDB's billing terms: every write the imports make, priced as the
// cost section prices them (items sent by their size, twice inside a transaction; updates as DynamoDB Local reports
// them), with the folds that add the imports to the label items, the last one forced (a quiet workspace folds within
// FOLD_AGE_MS). Floor: an imported example should cost no more than a feedback's floor (1 unit). (A feedback's own
// units are measured where it is taught: workspace.ts.)
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { learningTableOf } from '../../lambdas/contract/settings';
import { OVERLAP_MS } from '../../lambdas/domain/learning/entries';
import { importExamples } from '../../lambdas/import-examples/import-examples';
import { importAudit } from '../../lambdas/application/import-examples';
import { FOLD_TAKEOVER_MS, FOLD_WINDOW, LearningFolder } from '../../lambdas/stores/learning-fold';
import { countsKey } from '../../lambdas/stores/learning-items';
import { DynamoModelWriteStore } from '../../lambdas/stores/model-write-store';
import { CapacityMeter } from './cost-measure';
import { dynamoItemBytes, writeUnitsFor } from './cost-model';
import { actorForKey } from '../../lambdas/domain/audit';
import { type Figures, shuffled, wallMs } from './common';
import type { World } from './world';

const FEEDBACK_FLOOR_UNITS = 1;

export async function benchWorkspaceImport(
  world: World,
  teach: [string, string][],
  learnedWs: string,
): Promise<Figures> {
  const deps = world.service.dependencies;
  const table = deps.settings.decisionsTableName;
  const learning = learningTableOf(deps.settings);
  /** The stored label item's size in bytes (0 when there is none). */
  const itemBytes = async (ws: string, sk: string) => {
    const out = await deps.client.send(new GetCommand({ TableName: learning, Key: { ws, sk } }));
    return out.Item ? dynamoItemBytes(out.Item) : 0;
  };
  // A fold pays for the whole label items it touches. Teaching in file order, a window of FOLD_WINDOW feedbacks
  // touches a few labels; feedback in any order touches at most every label once: that bound, per feedback.
  const learned = await deps.workspaces.get(learnedWs);
  let allLabelUnits = 0;
  for (const l of learned.state.model.labels) {
    const bytes = await itemBytes(learnedWs, countsKey(learned.state.generation ?? 0, `${l.field}:${l.label}`));
    allLabelUnits += bytes ? writeUnitsFor(bytes) : 0;
  }

  // The same examples imported into a fresh workspace in requests of 100: in file order, as a partner's history comes
  // (a request touches one or two labels), and shuffled with a fixed seed (a request touches many labels).
  const meter = new CapacityMeter(world);
  const importUnitsPerExample = async (ws: string, examplesInOrder: [string, string][]) => {
    const store = new DynamoModelWriteStore(deps.client, table, learning);
    const folder = new LearningFolder(deps.client, learning);
    await deps.workspaces.get(ws);
    meter.reset();
    const detach = meter.attachClient(deps.client);
    try {
      for (let i = 0; i < examplesInOrder.length; i += 100) {
        const examples = examplesInOrder
          .slice(i, i + 100)
          .map(([text, category]) => ({ signal: { source: 'support_message', body: text }, labels: { category } }));
        const out = await importExamples(
          ws,
          examples,
          { workspaces: deps.workspaces, store },
          {
            nowMs: Date.now(),
            idempotency: { pk: `idem#bench#${ws}#${i}`, requestHash: 'x' },
            // The route's audit event, in the same transaction (lambdas/import-examples/route.ts).
            audit: importAudit(actorForKey('key_bench'), { workspace_id: ws, partner_id: 'bench' }, () => new Date()),
          },
        );
        if (out.kind !== 'imported') throw new Error(`bench import answered ${out.kind}`);
        await meter.settle();
      }
      // The imports folded, as a quiet workspace's are within FOLD_AGE_MS.
      await folder.fold(ws, Date.now() + OVERLAP_MS);
    } finally {
      detach();
    }
    return {
      write: meter.writeUnits / examplesInOrder.length,
      read: meter.readUnits / examplesInOrder.length,
      folds: folder.stats.folds,
    };
  };
  const perExample = await importUnitsPerExample(`${learnedWs}_import`, teach);
  const perExampleShuffled = await importUnitsPerExample(`${learnedWs}_import_shuffled`, shuffled(teach, 23));

  // Freshness: what a container past its TTL reads when nothing changed (one Query of the entries since its last read
  // less OVERLAP_MS, eventually consistent: half a unit per 4 KB), and how long that check takes beside a whole-model
  // load. The cursor is checked as it stands: moving its readAt back made the Query return entries of the OVERLAP_MS
  // before the window the cursor remembers, which it then applied a second time (with --quick the teaching ends
  // seconds before, so the check failed and the cached model's counts were doubled for the sections after it).
  // Nothing pending either: a fold its teaching left claimed (cut by FOLD_RUN_MS) is finished, as the first check after
  // FOLD_TAKEOVER_MS would, and the container's next check sees it done. Its cost is the fold's, not a check's.
  await new LearningFolder(deps.client, learning).fold(learnedWs, Date.now() + FOLD_TAKEOVER_MS);
  const cached = (await deps.workspaces.get(learnedWs)).state;
  await deps.workspaceStore.refreshState(learnedWs, cached);
  let unchanged: unknown;
  meter.reset();
  const detachCheck = meter.attachClient(deps.client);
  const checkMs = await wallMs(async () => (unchanged = await deps.workspaceStore.refreshState(learnedWs, cached)));
  detachCheck();
  // AWS bills a Query at least half a unit (eventually consistent); DynamoDB Local reports 0 for an empty one.
  const checkUnits = Math.max(0.5, meter.readUnits);
  if (unchanged !== undefined) throw new Error('the bench workspace changed under the freshness check');
  // At 10 feedbacks a second, a check reads the entries of the TTL and the overlap: half a unit per 4 KB of them.
  const entry = await deps.client.send(
    new QueryCommand({
      TableName: learning,
      KeyConditionExpression: 'ws = :ws AND begins_with(sk, :e)',
      ExpressionAttributeValues: { ':ws': learnedWs, ':e': 'e#' },
      Limit: 50,
    }),
  );
  const feedbackEntries = (entry.Items ?? []).filter((i) => String(i.sk).includes('#f.'));
  const entryBytes =
    feedbackEntries.reduce((sum, i) => sum + dynamoItemBytes(i), 0) / Math.max(1, feedbackEntries.length);
  const perCheck = 10 * (deps.settings.workspaceCacheTtlSeconds + OVERLAP_MS / 1000);
  const busyCheckUnits = 0.5 * Math.ceil((perCheck * entryBytes) / 4096);
  return {
    ws_feedback_fold_write_units_bound: allLabelUnits / FOLD_WINDOW,
    ws_import_write_units_per_example: perExample.write,
    ws_import_vs_feedback_floor: perExample.write / FEEDBACK_FLOOR_UNITS,
    ws_import_write_units_per_example_shuffled: perExampleShuffled.write,
    ws_import_shuffled_vs_feedback_floor: perExampleShuffled.write / FEEDBACK_FLOOR_UNITS,
    ws_import_read_units_per_example: perExample.read,
    ws_import_read_units_per_example_shuffled: perExampleShuffled.read,
    ws_import_folds: perExample.folds,
    ws_import_folds_shuffled: perExampleShuffled.folds,
    ws_fresh_check_read_units: checkUnits,
    ws_fresh_check_read_units_10_per_s: busyCheckUnits,
    ws_feedback_entry_bytes: entryBytes,
    ws_fresh_check_ms: checkMs,
  };
}
