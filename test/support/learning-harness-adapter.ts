// The fault-schedule test's one coupling to the learning store (test/support/learning-faults*.ts; docs/learning.md,
// "Fault-schedule test"). Everything else in the harness goes through the API's route handlers. A new store adapts
// the harness by editing this file alone: how a container loads a workspace's counts, how a fold is run as one of
// a schedule's operations, and what the table's TTL deletes. The final check calls expireAsTtlWould, then
// loadAsContainer, with a client without faults; a `load` operation calls loadAsContainer, and `foldOnce`, under the
// schedule's faults.
import { DeleteCommand, type DynamoDBDocumentClient, paginateQuery } from '@aws-sdk/lib-dynamodb';
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

/** How long after a schedule the final check looks: past the 30 days entries are kept (learning-items.ts). */
export const CHECKED_AFTER_MS = 31 * 86_400_000;

/**
 * Deletes what DynamoDB's TTL would have deleted CHECKED_AFTER_MS from now (DynamoDB Local deletes nothing): every
 * item of the workspace whose `expires_at` is past then. A count the store let expire before it was folded is lost.
 */
export async function expireAsTtlWould(
  client: DynamoDBDocumentClient,
  learningTable: string,
  workspaceId: string,
): Promise<void> {
  const at = (Date.now() + CHECKED_AFTER_MS) / 1000;
  const pages = paginateQuery(
    { client },
    {
      TableName: learningTable,
      KeyConditionExpression: 'ws = :ws',
      ExpressionAttributeValues: { ':ws': workspaceId },
      ConsistentRead: true,
    },
  );
  for await (const page of pages)
    for (const item of page.Items ?? [])
      if (item.expires_at !== undefined && Number(item.expires_at) < at)
        await client.send(new DeleteCommand({ TableName: learningTable, Key: { ws: workspaceId, sk: item.sk } }));
}
