// The first load of a workspace that learned a lot (docs/operations.md, "Worst-case work per request"): a container
// that has not loaded it reads and parses every count it learned before it answers, inside the Lambda's 10 s. 600
// labels of 4,800 text counts (2.88 million counts, about 75 imports of 100 long examples), written as folds write
// them; then this process's CPU time for the load and the prediction index, the median of 3. A 512 MB Lambda has
// about 0.29 of a vCPU (512 / 1,769 MB), so 10 s there is about 2.9 s of one core here.
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { learningTableOf } from '../../lambdas/contract/settings';
import { labelCounts } from '../../lambdas/domain/learning/model';
import { cachedWorkspace } from '../../lambdas/domain/learning/workspace-cache';
import { countAttributes, countsKey, readModelItem } from '../../lambdas/stores/learning-items';
import { type Figures, cpuMs, median } from './common';
import type { World } from './world';

const LABELS = 600;
const COUNTS = 4_800;
/** One core's CPU time that a 512 MB Lambda's share of a vCPU takes 10 s to give. */
const LAMBDA_TIMEOUT_CPU_MS = (10_000 * 512) / 1_769;

export async function benchLargeWorkspaceLoad(world: World): Promise<Figures> {
  const deps = world.service.dependencies;
  const learning = learningTableOf(deps.settings);
  const ws = `${world.workspace}_large`;
  const model = await readModelItem(deps.client, learning, ws, deps.settings.decisionsTableName);
  const items = Array.from({ length: LABELS }, (_, l) => {
    const counts = labelCounts(l % 2 ? 'category' : 'queue', `label_${l}`);
    for (let b = 0; b < COUNTS; b++) counts.text.set((b * 3 + l * 7) % 16_384, 1 + (b % 40));
    counts.docs = 100;
    counts.total = COUNTS * 20;
    return { ws, sk: countsKey(model.generation, `${counts.field}:${counts.label}`), ...countAttributes(counts), w: 1 };
  });
  for (let i = 0; i < items.length; i += 10)
    await deps.client.send(
      new BatchWriteCommand({
        RequestItems: { [learning]: items.slice(i, i + 10).map((Item) => ({ PutRequest: { Item } })) },
      }),
    );
  const runs: number[] = [];
  let loadedCounts = 0;
  for (let run = 0; run < 3; run++)
    runs.push(
      await cpuMs(async () => {
        const state = await deps.workspaceStore.loadState(ws);
        cachedWorkspace(state);
        loadedCounts = state.model.labels.reduce((sum, l) => sum + l.text.size, 0);
      }),
    );
  if (loadedCounts !== LABELS * COUNTS) throw new Error(`loaded ${loadedCounts} counts of ${LABELS * COUNTS}`);
  const cpu = median(runs);
  return {
    ws_large_load_counts: loadedCounts,
    ws_large_load_cpu_ms: Math.round(cpu),
    ws_large_load_lambda_s: (cpu / LAMBDA_TIMEOUT_CPU_MS) * 10,
    ws_large_load_counts_in_lambda_timeout: Math.round((loadedCounts * LAMBDA_TIMEOUT_CPU_MS) / cpu),
  };
}
