// Lambda entry for GET /api/v1/workspaces/{workspace_id}/policy.
// Only the stores its route names (lambdas/dependencies.ts): no other store's code in its bundle (docs/performance.md).
import { parseSettings } from '../../contract/settings';
import { createEdgeDependencies, workspaceCacheOf, workspaceStoreOf } from '../../dependencies';
import { getPolicyRoute } from '../route';

const edge = createEdgeDependencies(parseSettings(process.env), { inLambda: true });
const workspaceStore = workspaceStoreOf(edge);
export const handler = getPolicyRoute({ ...edge, workspaceStore, workspaces: workspaceCacheOf(edge, workspaceStore) });
