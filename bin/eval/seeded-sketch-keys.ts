// The evals' workspaces hash with sketch keys from a fixed seed, so their figures repeat run to run. A workspace's
// key is random in production (newSketchKey, set on its first load by readModelItem in
// lambdas/stores/learning-items.ts); a different key moves features into other buckets, other collisions, and an
// eval's figure would move between runs of the same code. Made before the workspace's first request, by that first
// load itself (readModelItem) with a seeded key, the model item keeps it.
import { createHash } from 'node:crypto';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { learningTableOf } from '../../lambdas/contract/settings';
import { CURRENT_SKETCH_FORMAT } from '../../lambdas/domain/learning/sketch';
import { readModelItem } from '../../lambdas/stores/learning-items';

/** The evals' seed: change it to see how much a figure owes to one set of collisions. */
const EVAL_SKETCH_SEED = 'sas-eval-1';

/** A workspace's key from the seed and its id, in newSketchKey's format: `<format>.<16 hex digits>`. */
const seededSketchKey = (ws: string, seed = EVAL_SKETCH_SEED): string =>
  `${CURRENT_SKETCH_FORMAT}.${createHash('sha256').update(`${seed}\n${ws}`).digest('hex').slice(0, 16)}`;

/**
 * Makes each workspace's model item by the store's own first load, with a seeded key instead of a random one (`keyOf`:
 * by default from the evals' seed; bin/eval/warm-api.ts gives a warm workspace its in-process measure's key).
 */
export async function seedSketchKeys(
  client: DynamoDBDocumentClient,
  decisionsTable: string,
  workspaces: readonly string[],
  keyOf: (ws: string) => string = seededSketchKey,
): Promise<void> {
  const learningTable = learningTableOf({ decisionsTableName: decisionsTable });
  for (const ws of workspaces) await readModelItem(client, learningTable, ws, decisionsTable, () => keyOf(ws));
}
