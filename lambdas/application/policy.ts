// The policy use cases: read a workspace's policy, and replace it (optimistic concurrency on its version) so that
// this container decides with the new one at once; other containers within WORKSPACE_CACHE_TTL_SECONDS.
import type { WorkspaceCache } from '../domain/learning/workspace-cache';
import type { StoredPolicy, WorkspacePolicy } from '../domain/policy';
import type { AuditActor, PolicyWrite, WorkspaceStore } from '../domain/ports';

interface PolicyDependencies {
  workspaceStore: Pick<WorkspaceStore, 'getPolicy' | 'putPolicy'>;
  workspaces: Pick<WorkspaceCache, 'invalidate'>;
}

export function readPolicy({ workspaceStore }: PolicyDependencies, workspaceId: string): Promise<StoredPolicy> {
  return workspaceStore.getPolicy(workspaceId);
}

/** `ifMatch`: the version the caller last read, or undefined to replace whatever is there. `by`: who, for the audit
 * log, which records the change in the same transaction. */
export async function replacePolicy(
  { workspaceStore, workspaces }: PolicyDependencies,
  workspaceId: string,
  policy: WorkspacePolicy,
  ifMatch: number | undefined,
  now: Date,
  by: AuditActor,
): Promise<PolicyWrite> {
  const result = await workspaceStore.putPolicy(workspaceId, policy, ifMatch, now.toISOString(), by);
  if (result.kind === 'stored') workspaces.invalidate(workspaceId);
  return result;
}
