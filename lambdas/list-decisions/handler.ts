// Lambda entry for GET /api/v1/decisions: the route built once per container from the settings the stack wrote.
// Only the stores its route names (lambdas/dependencies.ts): no other store's code in its bundle (docs/performance.md).
import { parseSettings } from '../contract/settings';
import { createEdgeDependencies, decisionListOf } from '../dependencies';
import { listDecisionsRoute } from './route';

const edge = createEdgeDependencies(parseSettings(process.env), { inLambda: true });
export const handler = listDecisionsRoute({ ...edge, decisionList: decisionListOf(edge) });
