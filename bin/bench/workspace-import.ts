// What an imported example writes, in DynamoDB's billing terms (issue 23): an update is billed by the size of the
// whole item it leaves (1 unit per KB, twice inside a transaction), so the label items' sizes are read back and
// priced. Floor: an imported example should cost no more than a feedback's floor (1 unit). (A feedback's own units are
// measured where it is taught: workspace.ts.)
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { labelDeltas } from '../../lambdas/domain/learning/label-delta';
import { sketchSignal } from '../../lambdas/domain/learning/sketch';
import { importExamples } from '../../lambdas/import-examples/import-examples';
import { DynamoModelWriteStore } from '../../lambdas/stores/model-write-store';
import { labelPk } from '../../lambdas/stores/workspace-store';
import { headPk } from '../../lambdas/stores/workspace-head';
import { FOLD_WINDOW } from '../../lambdas/stores/journal-fold';
import { dynamoItemBytes, writeUnitsFor } from './cost-model';
import { type Figures, round2, round3 } from './common';
import { mulberry32 } from '../seeded-random';
import type { World } from './world';

const FEEDBACK_FLOOR_UNITS = 1;

export async function benchWorkspaceImport(
  world: World,
  teach: [string, string][],
  learnedWs: string,
): Promise<Figures> {
  const deps = world.service.dependencies;
  const table = deps.settings.decisionsTableName;
  const itemUnits = async (pk: string, factor: number) => {
    const out = await deps.client.send(new GetCommand({ TableName: table, Key: { pk } }));
    return out.Item ? factor * writeUnitsFor(dynamoItemBytes(out.Item)) : 0;
  };
  // A fold pays for the whole label items it touches. Teaching in file order, a window of FOLD_WINDOW feedbacks
  // touches a few labels; feedback in any order touches at most every label once: that bound, per feedback.
  const learned = await deps.workspaces.get(learnedWs);
  let allLabelUnits = 0;
  for (const l of learned.state.model.labels)
    allLabelUnits += await itemUnits(labelPk(learnedWs, l.field, l.label, learned.state.generation ?? 0), 1);

  // The same examples imported into a fresh workspace in chunks of 100: in file order, as a partner's history comes
  // (a chunk touches one or two labels), and shuffled with a fixed seed (a chunk touches many labels).
  const importUnitsPerExample = async (ws: string, examplesInOrder: [string, string][]) => {
    const store = new DynamoModelWriteStore(deps.client, table);
    let importUnits = 0;
    for (let i = 0; i < examplesInOrder.length; i += 100) {
      const examples = examplesInOrder
        .slice(i, i + 100)
        .map(([text, category]) => ({ signal: { source: 'support_message', body: text }, labels: { category } }));
      const out = await importExamples(
        ws,
        examples,
        { workspaces: deps.workspaces, store },
        { nowMs: Date.now(), idempotency: { pk: `idem#bench#${ws}#${i}`, requestHash: 'x' } },
      );
      if (out.kind !== 'imported') throw new Error(`bench import answered ${out.kind}`);
      const workspace = await deps.workspaces.get(ws);
      const deltas = labelDeltas(
        examples.map((e) => ({ sketch: sketchSignal(workspace.key, e.signal), labels: e.labels })),
      );
      // Each label item updated inside a transaction (2 units per KB of the item after), the record and the model item.
      for (const d of deltas)
        importUnits +=
          (await itemUnits(labelPk(ws, d.field, d.label, workspace.state.generation ?? 0), 2)) *
          Math.ceil((d.counts.size + 2) / 250);
      importUnits += 2 + (await itemUnits(`wsmodel#${ws}`, 2));
    }
    return importUnits / examplesInOrder.length;
  };
  const perExample = await importUnitsPerExample(`${learnedWs}_import`, teach);
  const rnd = mulberry32(23);
  const shuffled = teach
    .map((t) => [rnd(), t] as const)
    .sort((a, b) => a[0] - b[0])
    .map(([, t]) => t);
  const perExampleShuffled = await importUnitsPerExample(`${learnedWs}_import_shuffled`, shuffled);

  // Freshness: what a container past its TTL reads when nothing changed (the workspace head, eventually consistent:
  // half a unit per 4 KB), and how long that check takes beside a whole-model load.
  const readUnits = async (pk: string) => {
    const out = await deps.client.send(new GetCommand({ TableName: table, Key: { pk } }));
    return out.Item ? 0.5 * Math.ceil(dynamoItemBytes(out.Item) / 4096) : 0;
  };
  const checkUnits = await readUnits(headPk(learnedWs));
  const cached = (await deps.workspaces.get(learnedWs)).state;
  const t0 = process.hrtime.bigint();
  const unchanged = await deps.workspaceStore.refreshState(learnedWs, cached);
  const checkMs = Number(process.hrtime.bigint() - t0) / 1e6;
  if (unchanged !== undefined) throw new Error('the bench workspace changed under the freshness check');
  return {
    ws_feedback_fold_write_units_bound: round3(allLabelUnits / FOLD_WINDOW),
    ws_import_write_units_per_example: round2(perExample),
    ws_import_vs_feedback_floor: round2(perExample / FEEDBACK_FLOOR_UNITS),
    ws_import_write_units_per_example_shuffled: round2(perExampleShuffled),
    ws_import_shuffled_vs_feedback_floor: round2(perExampleShuffled / FEEDBACK_FLOOR_UNITS),
    ws_fresh_check_read_units: checkUnits,
    ws_fresh_check_ms: round2(checkMs),
  };
}
