// DELETE /api/v1/workspaces/{workspace_id}/model (docs/partners.md, "Importing your history, and forgetting it"):
// forgets everything the workspace learned by switching to a new, empty model generation in one write, whatever the
// model's size; policy and decisions stay.
import { actorForKey } from '../domain/audit';
import { forgetModel } from '../application/model-learning';
import type { RouteDependencies } from '../dependencies';
import { type Check, type RouteHandler, apiHandler } from '../http/api-handler';

const CHECKS: Check[] = ['key', 'scope', 'rate-limit', { workspace: 'path' }];

export function forgetModelRoute(deps: RouteDependencies<'modelWrites' | 'workspaces'>): RouteHandler {
  return apiHandler(deps, CHECKS, async ({ event, principal, logInfo }) => {
    const workspaceId = event.pathParameters?.workspace_id ?? '';
    const generation = await forgetModel(deps, workspaceId, {
      actor: actorForKey(principal.key_id),
      target: { workspace_id: workspaceId, partner_id: principal.partner_id },
    });
    logInfo('model forgotten', { workspace_id: workspaceId, generation });
    return { statusCode: 200, body: { workspace_id: workspaceId, forgotten: true } };
  });
}
