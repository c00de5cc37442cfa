// Lambda entry for GET /api/v1/decisions/{decision_id}: the route built once per container from the settings the stack wrote.
// Only the stores its route names (lambdas/dependencies.ts): no other store's code in its bundle (docs/performance.md).
import { parseSettings } from '../contract/settings';
import { createEdgeDependencies, decisionStoreOf } from '../dependencies';
import { getDecisionRoute } from './route';

const edge = createEdgeDependencies(parseSettings(process.env), { inLambda: true });
export const handler = getDecisionRoute({ ...edge, decisionStore: decisionStoreOf(edge) });
