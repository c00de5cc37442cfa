// GET /api/v1/decisions?workspace_id=...: a workspace's decisions, newest first, one page per request.
import type { RouteDependencies } from '../dependencies';
import { type RouteHandler, apiHandler } from '../http/api-handler';
import { ApiError, validationError } from '../http/errors';
import { listQuery, workspaceParameter } from './list-query';
import { decisionTimeMs } from '../domain/ids';

const DAY_MS = 24 * 60 * 60 * 1000;

export function listDecisionsRoute(deps: RouteDependencies<'decisionList'>): RouteHandler {
  const { decisionList, workspaceAccess } = deps;
  return apiHandler(deps, ['key', 'scope', 'rate-limit'], async ({ event, principal }) => {
    const params = (event.queryStringParameters ?? {}) as Record<string, string>;
    // Refusal order (docs/partners.md, Errors): a missing or malformed workspace, then the grant, then the rest.
    const workspace = workspaceParameter(params);
    if ('detail' in workspace) throw validationError([workspace.detail]);
    const { workspaceId } = workspace;
    if (!(await workspaceAccess.allows(principal, workspaceId))) throw new ApiError('WORKSPACE_NOT_ALLOWED');
    const parsed = listQuery(params);
    if (!parsed.ok) throw validationError(parsed.details);
    const { query } = parsed;

    // The cursor must be a decision of this workspace: another workspace's id would otherwise page through
    // nothing silently, and an id that never existed is a client bug worth naming. One past its retention is the
    // end of the list: it and every older decision have expired, and TTL may have deleted it already (a page's last
    // id is its oldest decision, the first to go; docs/partners.md, "Listing decisions").
    const nowMs = Date.now();
    const retainedAfterMs = nowMs - deps.settings.decisionRetentionDays * DAY_MS;
    if (query.startingAfter && (await decisionList.workspaceOf(query.startingAfter)) !== workspaceId) {
      if (decisionTimeMs(query.startingAfter) <= retainedAfterMs)
        return { statusCode: 200, body: { object: 'list', data: [], has_more: false } };
      throw validationError([
        { field: 'starting_after', message: 'must be the decision_id of a decision of this workspace' },
      ]);
    }
    // Only decisions of the retention period are read: older ones have expired, and the listing index still holds
    // them until TTL's sweep (a day or more) deletes them. Reading through them, 101 a round trip, is what a page
    // after a workspace's last live decision would do: tens of thousands of them outlast the function's timeout.
    const createdAfterMs = Math.max(query.createdAfterMs ?? retainedAfterMs, retainedAfterMs);
    const page = await decisionList.list({ workspaceId, ...query, createdAfterMs, nowMs });
    return { statusCode: 200, body: { object: 'list', data: page.decisions, has_more: page.hasMore } };
  });
}
