// Feedback's cost on a workspace that learned: the cost section's feedback line again, on the bench workspace after
// the workspace section taught it, with the journal's folds paid in. A fold sums FOLD_WINDOW feedbacks into the label
// items (billed by the whole items it touches) once per window, so one sample of a few hundred feedbacks holds one
// fold or none: the folds' units measured while teaching the whole workspace are spread over every feedback instead
// (amortized), and the sample's own fold units taken out.
import { API_BASE_PATH } from '../../lambdas/contract/routes';
import type { DynamoWorkspaceStore } from '../../lambdas/stores/workspace-store';
import { type CallSample, FEEDBACK_FLOOR, priceFigures, resources, withMeteredService } from './cost-measure';
import { type Figures, progress } from './common';
import { ANALYZE_PATH } from './requests';
import type { World } from './world';

type FoldUnits = { write: number; read: number };

/**
 * `teach`: [query, category] pairs to correct decisions with; `foldUnitsPerFeedback`: write and read units;
 * `shuffledFoldUnitsPerFeedback`: the same measured teaching in a seeded shuffled order (feedback in any order), priced
 * on the same calls as `cost_feedback_learned_shuffled_*`.
 */
export async function benchLearnedFeedbackCost(
  world: World,
  teach: [string, string][],
  foldUnitsPerFeedback: FoldUnits,
  shuffledFoldUnitsPerFeedback: FoldUnits,
): Promise<Figures> {
  const samples = await withMeteredService(world, async (call, service) => {
    const folder = (service.dependencies.workspaceStore as DynamoWorkspaceStore).folder;
    progress(`  cost: feedback on the taught workspace, ${teach.length} corrections ...`);
    const ids: string[] = [];
    for (const [text] of teach) {
      const body = JSON.stringify({ workspace_id: world.workspace, source: 'support_message', body: text });
      const out = await call({ method: 'POST', path: ANALYZE_PATH, body });
      ids.push((JSON.parse(out.result.body) as { decision_id: string }).decision_id);
    }
    const feedbacks: CallSample[] = [];
    for (const [i, [, category]] of teach.entries()) {
      const before = { ...folder.stats };
      const path = `${API_BASE_PATH}/decisions/${ids[i]}/feedback`;
      const sample = await call({ method: 'POST', path, body: JSON.stringify({ category }) });
      // This call's own fold (if any) is replaced by every feedback's share of all folds.
      sample.writeUnits += foldUnitsPerFeedback.write - (folder.stats.writeUnits - before.writeUnits);
      sample.readUnits += foldUnitsPerFeedback.read - (folder.stats.readUnits - before.readUnits);
      feedbacks.push(sample);
    }
    return feedbacks;
  });
  const { measured, floor } = resources({ name: 'feedback_learned', decisions: 1, samples, floor: FEEDBACK_FLOOR });
  // The same calls with the shuffled teaching's fold share in place of the file-order one.
  const shuffled = resources({
    name: 'feedback_learned_shuffled',
    decisions: 1,
    floor: FEEDBACK_FLOOR,
    samples: samples.map((s) => ({
      ...s,
      writeUnits: s.writeUnits - foldUnitsPerFeedback.write + shuffledFoldUnitsPerFeedback.write,
      readUnits: s.readUnits - foldUnitsPerFeedback.read + shuffledFoldUnitsPerFeedback.read,
    })),
  });
  return {
    ...priceFigures('feedback_learned', measured, floor),
    ...priceFigures('feedback_learned_shuffled', shuffled.measured, shuffled.floor),
    cost_feedback_learned_write_units: measured.writeUnits,
    cost_feedback_learned_read_units: measured.readUnits,
    cost_feedback_learned_billed_ms_route: measured.billedMs[1],
    cost_feedback_learned_calls_measured: samples.filter((s) => s.result.statusCode === 200).length,
  };
}
