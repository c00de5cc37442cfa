// The fault-schedule test's one coupling to the learning store (test/support/learning-faults*.ts; docs/learning.md,
// "Fault-schedule test"). Everything else in the harness goes through the API's route handlers. A new store adapts
// the harness by editing this file alone: how a container loads a workspace's counts, and how a fold is run as one of
// a schedule's operations. The final check calls loadAsContainer with a client without faults; a `load` operation
// calls it, and `foldOnce`, under the schedule's faults.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Settings } from '../../lambdas/contract/settings';
import { createDependencies } from '../../lambdas/dependencies';
import { OVERLAP_MS } from '../../lambdas/domain/learning/entries';
import type { LearnedField } from '../../lambdas/domain/learning/model';
import { LearningFolder } from '../../lambdas/stores/learning-fold';

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
 * `workspaceStore.loadState`. The version 4 store holds nothing back: every landed entry is in the load.
 */
export async function loadAsContainer(
  settings: Settings,
  client: DynamoDBDocumentClient,
  workspaceId: string,
): Promise<LoadedWorkspace> {
  const state = await createDependencies(settings, { client }).workspaceStore.loadState(workspaceId);
  return {
    sketchKey: state.sketchKey,
    labels: state.model.labels.map((l) => ({ field: l.field, label: l.label, docs: l.docs, total: l.total })),
  };
}

/**
 * One fold, as a schedule's operation (run under the schedule's faults, like any writer). The store folds entries
 * older than OVERLAP_MS, which a schedule of milliseconds never has; so the fold is run as if OVERLAP_MS had passed:
 * its window ends now, and every later entry is keyed after it. That is sound only while no write is in flight, so a
 * schedule runs each fold alone (learning-faults-schedule.ts), after every write before it landed or was given up.
 */
export const foldOnce:
  ((client: DynamoDBDocumentClient, learningTable: string, workspaceId: string) => Promise<void>) | undefined = async (
  client,
  learningTable,
  workspaceId,
) => {
  await new LearningFolder(client, learningTable).fold(workspaceId, Date.now() + OVERLAP_MS);
};
