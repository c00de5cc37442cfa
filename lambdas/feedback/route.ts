// POST /api/v1/decisions/{decision_id}/feedback (docs/partners.md, "Feedback: teach your workspace"). Order: 413, 415,
// INVALID_JSON (the chain), then 404 exactly as GET answers it (absent, expired or in a workspace the key may not use),
// then VALIDATION_ERROR.
import type { RouteDependencies } from '../dependencies';
import { DECISION_ID_PATTERN } from '../domain/ids';
import { type RouteHandler, apiHandler } from '../http/api-handler';
import { ApiError, validInput, validationError } from '../http/errors';
import { ModelBusyError } from '../domain/ports';
import { validateFeedback } from '../http/feedback-schema';
import { LABEL_LIMIT_MESSAGE, recordFeedback } from '../application/record-feedback';
import { applyOwnEntry } from '../application/model-learning';

export function feedbackRoute(deps: RouteDependencies<'feedbackStore' | 'workspaces'>): RouteHandler {
  const { feedbackStore, workspaceAccess, workspaces, telemetry } = deps;
  return apiHandler(
    deps,
    ['key', 'scope', 'rate-limit', { jsonBody: {} }],
    async ({ event, principal, forbiddenKeys, logInfo }) => {
      const decisionId = event.pathParameters?.decision_id ?? '';
      const target = DECISION_ID_PATTERN.test(decisionId) ? await feedbackStore.getTarget(decisionId) : undefined;
      if (!target || !(await workspaceAccess.allows(principal, target.decision.workspace_id))) {
        throw new ApiError('DECISION_NOT_FOUND');
      }
      telemetry.tracer.annotate('decision_id', decisionId);
      const { fields } = validInput(validateFeedback(event.body), undefined, forbiddenKeys, event.body);
      const workspaceId = target.decision.workspace_id;
      const createdAt = new Date().toISOString();
      // A forget through another container since this one cached the workspace: load it again, so the feedback is
      // computed against the generation it lands in (docs/partners.md, "Importing your history, and forgetting it").
      let workspace = await workspaces.get(workspaceId);
      if ((workspace.state.generation ?? 0) !== (await feedbackStore.generationOf(workspaceId))) {
        workspaces.invalidate(workspaceId);
        workspace = await workspaces.get(workspaceId);
      }
      const outcome = await recordFeedback(target, fields, feedbackStore, workspace, createdAt);
      if (outcome.kind === 'busy') throw new ModelBusyError();
      if (outcome.kind === 'past_limit')
        throw validationError(outcome.fields.map((field) => ({ field, message: LABEL_LIMIT_MESSAGE })));
      // This container decides with what was just learned at once (its cached model takes the same change, no
      // reload); other containers within WORKSPACE_CACHE_TTL_SECONDS.
      // A relabel's removals wait for the read that returns its entry: the next request here makes it, so this
      // container never counts the decision under both labels for a TTL (docs/learning.md, "Online").
      // The entry is weighed again with what it learned (the cache's bound holds for what it holds).
      if (workspaces.update(workspaceId, (cached) => applyOwnEntry(cached.state, outcome)))
        workspaces.checkSoon(workspaceId);
      logInfo('feedback recorded', { decision_id: decisionId, workspace_id: workspaceId });
      return {
        statusCode: 200,
        body: {
          decision_id: decisionId,
          workspace_id: workspaceId,
          feedback: fields,
          created_at: createdAt,
        },
      };
    },
  );
}
