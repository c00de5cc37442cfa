// Feedback on a decision and the counts it moves (docs/learning.md, "Corrections at the price of a write"): the
// decision's update and the learning entry of the counts it moves, in one transaction. Both land or neither does, so a
// retry (by the SDK, or by the partner after a 503) finds either the decision as it was, and teaches it all again, or
// the decision moved, its entry written, and nothing left to teach.
import { DeleteCommand, TransactWriteCommand, type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ITEM_PREFIX } from '../contract/tables';
import { OVERLAP_MS } from '../domain/learning/entries';
import { learnedChanges } from '../domain/learning/model';
import type { LabelRecorder, LabelSetChange } from '../domain/learning/model-writes';
import { decodeSketch } from '../domain/learning/sketch';
import {
  type FeedbackFields,
  type FeedbackRecorded,
  type FeedbackStore,
  type FeedbackTarget,
  ModelBusyError,
} from '../domain/ports';
import { decisionFrom } from './decision-format';
import { conditionFailed, isDatabaseUnavailable, transactionCancelled } from './database-faults';
import { getItem } from './dynamodb-client';
import { planLabels, recordLabels } from './label-registry';
import { entryFrom, entryItem, getModel } from './learning-items';

export class DynamoFeedbackStore implements FeedbackStore {
  /** Counts writes, for the bench's "bounded, stated and measured" figure. */
  readonly counter = { writes: 0 };
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly learningTable: string,
  ) {}

  /** The label sets that keep MAX_LABELS across containers (label-registry.ts). */
  readonly planLabels: LabelRecorder['planLabels'] = (workspaceId, generation, field, known, wanted) =>
    planLabels(this.client, this.learningTable, workspaceId, generation, field, known, wanted);

  async recordLabels(workspaceId: string, change: LabelSetChange): Promise<boolean> {
    this.counter.writes++;
    return recordLabels(this.client, this.learningTable, workspaceId, change);
  }

  async getTarget(decisionId: string): Promise<FeedbackTarget | undefined> {
    const item = await getItem(this.client, this.tableName, ITEM_PREFIX.decision + decisionId);
    if (!item?.decision || Number(item.expires_at) <= Math.floor(Date.now() / 1000)) return undefined;
    return {
      decision: decisionFrom(item),
      sketch: item.sketch instanceof Uint8Array ? decodeSketch(item.sketch) : undefined,
      feedback: item.feedback as FeedbackTarget['feedback'],
      learned: (item.learned as FeedbackFields | undefined) ?? {},
      seq: Number(item.feedback_seq ?? 0),
      learnedGeneration: Number(item.learned_generation ?? 0),
      expiresAt: item.expires_at === undefined ? undefined : Number(item.expires_at),
    };
  }

  async generationOf(workspaceId: string): Promise<number> {
    return (await getModel(this.client, this.learningTable, workspaceId)).generation;
  }

  /**
   * `target.learned` must be what the decision counts in `generation` (the caller clears it after a reset). The
   * entry's key is its time and the decision's feedback number: the transaction lands once, whoever resends it. A
   * transaction not done within OVERLAP_MS / 2 is given up (a 503; its retry writes under a new time), so an entry
   * lands within half the overlap of its time or not at all.
   */
  async record(
    target: FeedbackTarget,
    fields: FeedbackFields,
    learned: FeedbackFields,
    createdAt: string,
    generation = 0,
  ): Promise<FeedbackRecorded | false> {
    const { decision } = target;
    const next = target.seq + 1;
    const changes = target.sketch ? learnedChanges(target.learned, learned) : [];
    const decisionUpdate = {
      TableName: this.tableName,
      Key: { pk: ITEM_PREFIX.decision + decision.decision_id },
      // Only what feedback needs, with short names: the item is billed by its size and often sits near 1 KB.
      // Generation 0 (no reset ever) is the absent value.
      UpdateExpression: `SET feedback = :fb, learned = :learned, feedback_seq = :next${generation > 0 ? ', learned_generation = :gen' : ' REMOVE learned_generation'}`,
      ConditionExpression:
        target.seq === 0 ? 'attribute_exists(pk) AND attribute_not_exists(feedback_seq)' : 'feedback_seq = :prev',
      ExpressionAttributeValues: {
        ':fb': { fields, created_at: createdAt },
        ':learned': learned,
        ':next': next,
        ...(generation > 0 ? { ':gen': generation } : {}),
        ...(target.seq === 0 ? {} : { ':prev': target.seq }),
      },
    };
    const abortSignal = AbortSignal.timeout(OVERLAP_MS / 2);
    try {
      if (changes.length === 0) {
        await this.client.send(new UpdateCommand(decisionUpdate), { abortSignal });
        this.counter.writes++;
        return {};
      }
      const item = entryItem(decision.workspace_id, Date.now(), `f.${decision.decision_id}.${next}`, generation, {
        sketch: target.sketch,
        changes,
      });
      await this.client.send(
        new TransactWriteCommand({
          TransactItems: [
            { Update: decisionUpdate },
            { Put: { TableName: this.learningTable, Item: item, ConditionExpression: 'attribute_not_exists(sk)' } },
          ],
        }),
        { abortSignal },
      );
      this.counter.writes += 2;
      // A forget that moved the model on since this feedback read its generation may have listed that generation's
      // entries before this one landed: withdrawn here, or it would stay with no expiry, read by no load
      // (docs/learning.md, "Folding"). The decision keeps its feedback; its counts went with the forget. The feedback
      // landed: a failed read does not fail it (the entry then waits for the next fold's expiry).
      const model = await getModel(this.client, this.learningTable, decision.workspace_id).catch(() => undefined);
      if (model && model.generation !== generation) {
        const key = { ws: decision.workspace_id, sk: item.sk };
        await this.client.send(new DeleteCommand({ TableName: this.learningTable, Key: key })).catch(() => undefined);
        return {};
      }
      return { entry: entryFrom(item) };
    } catch (err) {
      // Another feedback on the decision landed first (or this one did, its answer lost): the caller reads again.
      if (conditionFailed(err) || (transactionCancelled(err) && !isDatabaseUnavailable(err))) return false;
      if (abortSignal.aborted) throw new ModelBusyError(err);
      throw err;
    }
  }
}
