// The fault-schedule test's one coupling to the learning store (test/support/learning-faults*.ts; docs/learning.md,
// "Fault-schedule test"). Everything else in the harness goes through the API's route handlers. A new store adapts
// the harness by editing this file alone: how a container loads a workspace's counts, how the store is settled before
// counts are compared, and how a fold is run as one of a schedule's operations. The final check calls
// loadAsContainer with a client without faults; a `load` operation calls it, and `foldOnce`, under the schedule's
// faults. A store that holds nothing back returns the loaded counts as they are; one that folds by other means (a
// stream consumer, say) runs one pass of it in foldOnce, or sets foldOnce to undefined (schedules then have no folds).
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Settings } from '../../lambdas/contract/settings';
import { createDependencies } from '../../lambdas/dependencies';
import { JOURNAL_GAP_GIVE_UP_MS, applyJournal } from '../../lambdas/domain/learning/journal';
import type { LearnedField } from '../../lambdas/domain/learning/model';
import type { WorkspaceState } from '../../lambdas/domain/ports';
import { getItem } from '../../lambdas/stores/dynamodb-client';
import { JournalFolder } from '../../lambdas/stores/journal-fold';
import { headFrom, headPk } from '../../lambdas/stores/workspace-head';

/** One label's counts as a container holds them: what the harness compares with its reference. */
export interface LoadedLabel {
  field: LearnedField;
  label: string;
  /** Examples (feedback or imported) counted under this label. */
  docs: number;
  /** Text buckets counted under it (the sum of its examples' sketch sizes). */
  total: number;
}

export interface LoadedWorkspace {
  labels: LoadedLabel[];
  /** The workspace's sketch key as stored (`sketchKeyOf` reads it): the harness sketches its signals with it. */
  sketchKey: string;
}

/**
 * Loads a workspace as a newly started container would: a fresh `createDependencies` over `client`, then
 * `workspaceStore.loadState`. Then it settles what today's store holds back: journal entries after a missing number
 * (a writer stopped between the head and its entry) wait JOURNAL_GAP_GIVE_UP_MS in a container before they are
 * used, so the loaded cursor is moved on in time, one give-up per gap, as a container that waited would have it.
 */
export async function loadAsContainer(
  settings: Settings,
  client: DynamoDBDocumentClient,
  workspaceId: string,
): Promise<LoadedWorkspace> {
  const deps = createDependencies(settings, { client });
  const state = await deps.workspaceStore.loadState(workspaceId);
  settleJournal(state);
  return {
    sketchKey: state.sketchKey,
    labels: state.model.labels.map((l) => ({ field: l.field, label: l.label, docs: l.docs, total: l.total })),
  };
}

function settleJournal(state: WorkspaceState): void {
  const cursor = state.journal;
  if (!cursor) return;
  let nowMs = Date.now();
  for (let round = 0; cursor.pending.size > 0 && round < 10_000; round++) {
    nowMs += JOURNAL_GAP_GIVE_UP_MS;
    applyJournal(state.model, cursor, Math.max(...cursor.pending.keys()), new Map(), nowMs);
  }
}

/**
 * One fold, as a schedule's operation (run under the schedule's faults, like any writer): today's store folds the
 * journal's next entry, or up to the head when an import is not folded yet (window 1, no lag, import weight 1, so a
 * fold meets entries still being written). Undefined when a store has nothing to fold.
 */
export const foldOnce:
  ((client: DynamoDBDocumentClient, tableName: string, workspaceId: string) => Promise<void>) | undefined = async (
  client,
  tableName,
  workspaceId,
) => {
  const folder = new JournalFolder(client, tableName, { window: 1, lag: 0, importWeight: 1 });
  const head = headFrom(await getItem(client, tableName, headPk(workspaceId)));
  await folder.maybeFold(workspaceId, head, Date.now());
};
