// GET /api/v1/decisions/{decision_id}
import type { RouteDependencies } from '../dependencies';
import { DECISION_ID_PATTERN } from '../domain/ids';
import { type RouteHandler, apiHandler } from '../http/api-handler';
import { ApiError } from '../http/errors';

export function getDecisionRoute(deps: RouteDependencies<'decisionStore'>): RouteHandler {
  const { decisionStore, workspaceAccess, telemetry } = deps;
  return apiHandler(deps, ['key', 'scope', 'rate-limit'], async ({ event, principal }) => {
    const decisionId = event.pathParameters?.decision_id ?? '';
    // A malformed id cannot exist: answer without a read.
    const decision = DECISION_ID_PATTERN.test(decisionId) ? await decisionStore.get(decisionId) : undefined;
    // A decision in a workspace this key may not access is reported as absent: existence is never leaked.
    if (!decision || !(await workspaceAccess.allows(principal, decision.workspace_id)))
      throw new ApiError('DECISION_NOT_FOUND');
    telemetry.tracer.annotate('decision_id', decisionId);
    return { statusCode: 200, body: decision };
  });
}
