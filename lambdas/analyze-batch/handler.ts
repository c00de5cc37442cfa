// Lambda entry for POST /api/v1/signals/analyze-batch: the route built once per container from the settings the stack wrote.
// Only the stores its route names (lambdas/dependencies.ts): no other store's code in its bundle (docs/performance.md).
import { parseSettings } from '../contract/settings';
import { createEdgeDependencies, decisionBatchOf, workspacesOf } from '../dependencies';
import { analyzeBatchRoute } from './route';

const edge = createEdgeDependencies(parseSettings(process.env), { inLambda: true });
export const handler = analyzeBatchRoute({
  ...edge,
  decisionBatch: decisionBatchOf(edge),
  workspaces: workspacesOf(edge),
});
