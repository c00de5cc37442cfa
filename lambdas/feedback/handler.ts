// Lambda entry for POST /api/v1/decisions/{decision_id}/feedback.
// Only the stores its route names (lambdas/dependencies.ts): no other store's code in its bundle (docs/performance.md).
import { parseSettings } from '../contract/settings';
import { createEdgeDependencies, feedbackStoreOf, workspacesOf } from '../dependencies';
import { feedbackRoute } from './route';

const edge = createEdgeDependencies(parseSettings(process.env), { inLambda: true });
export const handler = feedbackRoute({ ...edge, feedbackStore: feedbackStoreOf(edge), workspaces: workspacesOf(edge) });
