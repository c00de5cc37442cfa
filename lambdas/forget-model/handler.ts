// Lambda entry for DELETE /api/v1/workspaces/{workspace_id}/model.
// Only the stores its route names (lambdas/dependencies.ts): no other store's code in its bundle (docs/performance.md).
import { parseSettings } from '../contract/settings';
import { createEdgeDependencies, modelWritesOf, workspacesOf } from '../dependencies';
import { forgetModelRoute } from './route';

const edge = createEdgeDependencies(parseSettings(process.env), { inLambda: true });
export const handler = forgetModelRoute({ ...edge, modelWrites: modelWritesOf(edge), workspaces: workspacesOf(edge) });
