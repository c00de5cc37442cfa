// Forgetting what a workspace learned (docs/partners.md, Learning): a new, empty model generation in one write,
// whatever the model's size, with its audit event; policy and decisions stay. And a container's own feedback, applied
// to its cached model at once.
import type { AuditEventInput } from '../domain/audit';
import { applyOwn } from '../domain/learning/journal';
import { applyChanges, learnedChanges } from '../domain/learning/model';
import type { Sketch } from '../domain/learning/sketch';
import type { FeedbackFields, FeedbackTarget, WorkspaceState } from '../domain/ports';
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

/**
 * The container that took a feedback decides with it at once: its cached model takes the same change (no reload),
 * and its journal entry is marked applied so the next check does not apply it twice. Other containers read the entry
 * within WORKSPACE_CACHE_TTL_SECONDS.
 */
export function applyOwnFeedback(
  state: WorkspaceState,
  sketch: Sketch,
  outcome: { target: FeedbackTarget; learned: FeedbackFields; journal?: { seq: number; generation: number } },
): void {
  const changes = learnedChanges(outcome.target.learned, outcome.learned);
  const { journal } = outcome;
  if (journal && state.journal) {
    // An entry of another generation (a reset this container has not seen yet) moved nothing.
    if (journal.generation !== (state.generation ?? 0)) return;
    applyOwn(state.model, state.journal, { seq: journal.seq, sketch, changes });
    return;
  }
  applyChanges(state.model, sketch, changes);
}
