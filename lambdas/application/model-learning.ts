// Forgetting what a workspace learned (docs/partners.md, Learning): a new, empty model generation in one write,
// whatever the model's size, with its audit event; policy and decisions stay.
import type { AuditEventInput } from '../domain/audit';
import type { WorkspaceCache } from '../domain/learning/workspace-cache';
import type { ModelWriteStore } from '../domain/learning/model-writes';
import { afterModelWrites } from './model-write-queue';

export interface ForgetDeps {
  modelWrites: Pick<ModelWriteStore, 'forget'>;
  workspaces: Pick<WorkspaceCache, 'invalidate'>;
}

/** Answers the new generation. `by`: the audit event's actor and target (its before and after come from the store). */
export async function forgetModel(
  { modelWrites, workspaces }: ForgetDeps,
  workspaceId: string,
  by: Pick<AuditEventInput, 'actor' | 'target'>,
): Promise<number> {
  const generation = await afterModelWrites(workspaceId, () =>
    modelWrites.forget(workspaceId, ({ before, after }) => ({
      event: { actor: by.actor, action: 'model.forget', target: by.target, before, after },
      at: new Date(),
    })),
  );
  // This container decides as a fresh workspace at once; others within WORKSPACE_CACHE_TTL_SECONDS.
  workspaces.invalidate(workspaceId);
  return generation;
}
