// The evals' workspaces hash with sketch keys from a fixed seed, so their figures repeat run to run. A workspace's
// key is random in production (newSketchKey, set on its first load by readModelItem in
// lambdas/stores/learning-items.ts); a different key moves features into other buckets, other collisions, and an
// eval's figure would move between runs of the same code. Written before the workspace's first request, the model
// item holds exactly what that first load writes (sketch_key, g), and its `if_not_exists` keeps them.
import { createHash } from 'node:crypto';
import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { CURRENT_SKETCH_FORMAT } from '../../lambdas/domain/learning/sketch';
import { MODEL_KEY } from '../../lambdas/stores/learning-items';

/** The evals' seed: change it to see how much a figure owes to one set of collisions. */
export const EVAL_SKETCH_SEED = 'sas-eval-1';

/** A workspace's key from the seed and its id, in newSketchKey's format: `<format>.<16 hex digits>`. */
export const seededSketchKey = (ws: string, seed = EVAL_SKETCH_SEED): string =>
  `${CURRENT_SKETCH_FORMAT}.${createHash('sha256').update(`${seed}\n${ws}`).digest('hex').slice(0, 16)}`;

/** Writes each workspace's model item with its seeded key (generation 0), as its first load would. */
export async function seedSketchKeys(
  client: DynamoDBDocumentClient,
  learningTable: string,
  workspaces: readonly string[],
): Promise<void> {
  for (const ws of workspaces) {
    await client.send(
      new UpdateCommand({
        TableName: learningTable,
        Key: { ws, sk: MODEL_KEY },
        UpdateExpression: 'SET sketch_key = if_not_exists(sketch_key, :key), g = if_not_exists(g, :g)',
        ExpressionAttributeValues: { ':key': seededSketchKey(ws), ':g': 0 },
      }),
    );
  }
}
