// The one check every idempotent replay passes (analyze, batch, import): a replay is authorized again (docs/partners.md,
// "Retrying"). An Idempotency-Key's record belongs to the partner, not to the key that wrote it, so the caller that
// replays it (another key of the partner, or the same key after an ungrant) must still be granted every workspace
// the stored answer names; what it may not see is withheld, never handed out.
import type { Principal } from '../domain/principal';
import type { WorkspaceAccess } from './workspace-access';

/** For each stored workspace id (in order): whether this caller may be answered with what the replay holds for it. */
export async function replayAllowed(
  access: WorkspaceAccess,
  principal: Principal,
  workspaceIds: readonly string[],
): Promise<boolean[]> {
  const answers = new Map<string, boolean>();
  const out: boolean[] = [];
  for (const id of workspaceIds) {
    let allowed = answers.get(id);
    if (allowed === undefined) {
      allowed = await access.allows(principal, id);
      answers.set(id, allowed);
    }
    out.push(allowed);
  }
  return out;
}

/** Whether a replay that names one workspace (a single decision, an import) may be answered to this caller. */
export const replayAllowedFor = async (access: WorkspaceAccess, principal: Principal, workspaceId: string) =>
  (await replayAllowed(access, principal, [workspaceId]))[0] === true;
