// The labels a workspace has learned, per generation and field: the one place MAX_LABELS is enforced across
// containers and requests at once (docs/learning.md, "Importing history and forgetting it"). A container's cached
// model may be up to WORKSPACE_CACHE_TTL_SECONDS old and requests run side by side, so a check against it alone let
// each one add labels up to the limit. An item `l#<generation>#<field>` holds the field's labels as a string set; a
// label new to the caller's model is added on the condition that the set still has room for what is added, so two
// requests never both take the last places. It is read and written only for a label the caller's model does not hold: rare
// once a workspace has its labels.
import { type DynamoDBDocumentClient, GetCommand, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { type LearnedField, MAX_LABELS } from '../domain/learning/model';
import type { LabelPlan, LabelSetChange } from '../domain/learning/model-writes';
import { conditionFailed } from './database-faults';
import { queryRange } from './learning-items';

export const labelSetKey = (generation: number, field: LearnedField) => `l#${generation}#${field}`;

/**
 * The keys of the label sets of generations before `generation`: a forget deletes its own generation's, and these
 * too, left by a forget whose deletes failed or made again by a container that still held the older generation.
 */
export async function olderLabelSetKeys(
  client: DynamoDBDocumentClient,
  table: string,
  ws: string,
  generation: number,
): Promise<string[]> {
  const { items } = await queryRange(client, table, ws, { after: 'l#', upTo: 'l#~' }, true, ['sk']);
  return items.map((item) => String(item.sk)).filter((sk) => Number(sk.split('#')[1]) < generation);
}

/**
 * Of `wanted` (labels of `field` the caller's model does not hold, in the order they are asked for), those the
 * workspace holds or may learn within MAX_LABELS, and the change that records the new ones (none when there is nothing
 * to write). `known` are the labels the caller's model holds: they start the set when the workspace has none yet (one
 * that learned before the set existed). Reads only.
 */
export async function planLabels(
  client: DynamoDBDocumentClient,
  table: string,
  ws: string,
  generation: number,
  field: LearnedField,
  known: ReadonlySet<string>,
  wanted: readonly string[],
): Promise<LabelPlan> {
  const key = { ws, sk: labelSetKey(generation, field) };
  const item = (await client.send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true }))).Item;
  const stored = item?.labels instanceof Set ? (item.labels as Set<string>) : undefined;
  const held = new Set(stored ?? known);
  const admitted = new Set(wanted.filter((label) => held.has(label)));
  const add = [...new Set(wanted.filter((label) => !held.has(label)))].slice(0, Math.max(0, MAX_LABELS - held.size));
  for (const label of add) admitted.add(label);
  // A string set cannot be empty: a workspace with no label yet and none to add writes nothing.
  if (stored ? !add.length : !held.size && !add.length) return { admitted };
  return {
    admitted,
    change: { generation, field, add, existed: stored !== undefined, start: stored ? [] : [...held] },
  };
}

/**
 * The write that records `change`, on the condition that the set still has room for what it adds (a set that was
 * absent when read may have been made since). Other labels added meanwhile do not fail it: only the limit can.
 */
export function labelSetWrite(
  table: string,
  ws: string,
  change: LabelSetChange,
): UpdateCommandInput & { UpdateExpression: string; Key: Record<string, unknown> } {
  const labels = new Set([...change.start, ...change.add]);
  return {
    TableName: table,
    Key: { ws, sk: labelSetKey(change.generation, change.field) },
    UpdateExpression: 'ADD labels :labels',
    ConditionExpression: change.existed
      ? 'size(labels) <= :room'
      : 'attribute_not_exists(labels) OR size(labels) <= :room',
    ExpressionAttributeValues: { ':labels': labels, ':room': MAX_LABELS - labels.size },
  };
}

/** Writes `change` (labelSetWrite); false when the set no longer has room for it (another request took the places). */
export async function recordLabels(
  client: DynamoDBDocumentClient,
  table: string,
  ws: string,
  change: LabelSetChange,
): Promise<boolean> {
  try {
    await client.send(new UpdateCommand(labelSetWrite(table, ws, change)));
    return true;
  } catch (err) {
    if (conditionFailed(err)) return false;
    throw err;
  }
}
