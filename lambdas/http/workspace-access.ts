// The one question every route asks before it touches a workspace: may this key use it? The authorizer never sees
// the body, so a workspace named there (or found on a stored decision) is checked here, against the same grants.
import type { Principal } from '../authorizer/authorize';

export interface WorkspaceAccess {
  allows(principal: Principal, workspaceId: string): Promise<boolean>;
}

/** Grants as the authorizer's verdict carries them. */
export const grantsFromVerdict: WorkspaceAccess = {
  async allows(principal, workspaceId) {
    return principal.workspaces.includes(workspaceId);
  },
};
