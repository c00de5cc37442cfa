// The workspace named in a route's path: 403 WORKSPACE_NOT_ALLOWED unless the key may use it (a malformed id can have
// no grant: the same 403), before anything about the body (contract sections 13 and 15).
import type { Principal } from '../authorizer/authorize';
import type { Dependencies } from '../dependencies';
import { WORKSPACE_ID_PATTERN } from '../analyze/signal-schema';
import type { ApiEvent } from '../http/api-handler';
import { ApiError } from '../http/errors';

export async function requireWorkspaceInPath(deps: Pick<Dependencies, 'workspaceAccess'>, event: ApiEvent, principal: Principal): Promise<string> {
  const workspaceId = event.pathParameters?.workspace_id ?? '';
  if (!WORKSPACE_ID_PATTERN.test(workspaceId) || !(await deps.workspaceAccess.allows(principal, workspaceId))) {
    throw new ApiError('WORKSPACE_NOT_ALLOWED');
  }
  return workspaceId;
}
