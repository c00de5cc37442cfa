// Lambda entry for POST /api/v1/signals/analyze: the route built once per container from the settings the stack wrote.
// Only the stores its route names (lambdas/dependencies.ts): no other store's code in its bundle (docs/performance.md).
import { parseSettings } from '../contract/settings';
import { createEdgeDependencies, decisionStoreOf, workspacesOf } from '../dependencies';
import { analyzeRoute } from './route';

const edge = createEdgeDependencies(parseSettings(process.env), { inLambda: true });
export const handler = analyzeRoute({ ...edge, decisionStore: decisionStoreOf(edge), workspaces: workspacesOf(edge) });
