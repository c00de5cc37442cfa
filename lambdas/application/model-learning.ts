// Forgetting what a workspace learned (docs/partners.md, Learning): a new, empty model generation in one write,
// whatever the model's size, with its audit event; policy and decisions stay. And a container's own feedback, applied
// to its cached model at once.
import type { AuditEventInput } from '../domain/audit';
import { applyOwn } from '../domain/learning/entries';
import type { FeedbackRecorded, WorkspaceState } from '../domain/ports';
import type { WorkspaceCache } from '../domain/learning/workspace-cache';
import type { ModelWriteStore } from '../domain/learning/model-writes';

interface ForgetDeps {
  modelWrites: Pick<ModelWriteStore, 'forget'>;
  workspaces: Pick<WorkspaceCache, 'invalidate'>;
}

/** Answers the generation afterwards. `by`: the audit event's actor and target (its before and after: the store's). */
export async function forgetModel(
  { modelWrites, workspaces }: ForgetDeps,
  workspaceId: string,
  by: Pick<AuditEventInput, 'actor' | 'target'>,
): Promise<number> {
  const generation = await modelWrites.forget(workspaceId, ({ before, after }) => ({
    event: { actor: by.actor, action: 'model.forget', target: by.target, before, after },
    at: new Date(),
  }));
  // This container decides as a fresh workspace at once; others within WORKSPACE_CACHE_TTL_SECONDS.
  workspaces.invalidate(workspaceId);
  return generation;
}

/**
 * The container that took a feedback or an import decides with it at once: its cached model takes the entry written
 * (no reload), marked applied so the next check does not apply it twice. Other containers read the entry within
 * WORKSPACE_CACHE_TTL_SECONDS. An entry of another generation (a reset this container has not seen yet) moves nothing.
 * Answers whether a relabel's removals wait for the next check (applyOwn).
 */
export function applyOwnEntry(state: WorkspaceState, { entry }: FeedbackRecorded): boolean {
  if (!entry || !state.entries || entry.generation !== (state.generation ?? 0)) return false;
  return applyOwn(state.model, state.entries, entry);
}
