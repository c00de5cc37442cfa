// Feedback on a decision and the model counts it moves: the decision item, the head's next journal number and the
// journal entry, three small writes whatever the workspace learned (docs/learning.md, "Corrections at the price of a
// write").
import { type DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ITEM_PREFIX } from '../contract/tables';
import { encodeChanges } from '../domain/learning/journal';
import { learnedChanges } from '../domain/learning/model';
import { decodeSketch, encodeSketch } from '../domain/learning/sketch';
import type { FeedbackFields, FeedbackRecorded, FeedbackStore, FeedbackTarget } from '../domain/ports';
import { decisionFrom } from './decision-store';
import { conditionFailed } from './database-faults';
import { getItem } from './dynamodb-client';
import { JournalFolder } from './journal-fold';
import type { FoldOptions } from './fold-schedule';
import { journalPk, takeJournalNumber, writeToken } from './workspace-head';

/** A journal entry's shortest life: its decision may expire sooner (DECISION_RETENTION_DAYS can be 1). */
const MIN_ENTRY_SECONDS = 86_400;

export class DynamoFeedbackStore implements FeedbackStore {
  /** Counts writes, for the bench's "bounded, stated and measured" figure. */
  readonly counter = { writes: 0 };
  /** Folds the journal into the label items now and then (its stats are the bench's amortized fold cost). */
  readonly folder: JournalFolder;

  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    foldOptions?: FoldOptions,
  ) {
    this.folder = new JournalFolder(client, tableName, foldOptions);
  }

  async getTarget(decisionId: string): Promise<FeedbackTarget | undefined> {
    const item = await getItem(this.client, this.tableName, ITEM_PREFIX.decision + decisionId);
    if (!item?.decision || Number(item.expires_at) <= Math.floor(Date.now() / 1000)) return undefined;
    return {
      decision: decisionFrom(item.decision as Record<string, unknown>),
      sketch: item.sketch instanceof Uint8Array ? decodeSketch(item.sketch) : undefined,
      feedback: item.feedback as FeedbackTarget['feedback'],
      learned: (item.learned as FeedbackFields | undefined) ?? {},
      seq: Number(item.feedback_seq ?? 0),
      learnedGeneration: Number(item.learned_generation ?? 0),
      expiresAt: item.expires_at === undefined ? undefined : Number(item.expires_at),
    };
  }

  /** `target.learned` must be what the decision counts in `generation` (the caller clears it after a reset). */
  async record(
    target: FeedbackTarget,
    fields: FeedbackFields,
    learned: FeedbackFields,
    createdAt: string,
    generation = 0,
  ): Promise<FeedbackRecorded | false> {
    const { decision } = target;
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: ITEM_PREFIX.decision + decision.decision_id },
          // Only what feedback needs, with short names: the item is billed by its size and often sits near 1 KB.
          // Generation 0 (no reset ever) is the absent value. The token `ft` lets the SDK's retry of this write, after
          // it landed and its answer was lost, land again alike rather than fail as a conflict: the feedback would
          // then be stored and its counts never moved.
          UpdateExpression: `SET feedback = :fb, learned = :learned, feedback_seq = :next, ft = :token${generation > 0 ? ', learned_generation = :gen' : ' REMOVE learned_generation'}`,
          ConditionExpression: `(${target.seq === 0 ? 'attribute_exists(pk) AND attribute_not_exists(feedback_seq)' : 'feedback_seq = :prev'}) OR ft = :token`,
          ExpressionAttributeValues: {
            ':token': writeToken(),
            ':fb': { fields, created_at: createdAt },
            ':learned': learned,
            ...(generation > 0 ? { ':gen': generation } : {}),
            ':next': target.seq + 1,
            ...(target.seq === 0 ? {} : { ':prev': target.seq }),
          },
        }),
      );
      this.counter.writes++;
    } catch (err) {
      if (conditionFailed(err)) return false;
      throw err;
    }
    if (!target.sketch) return {};
    const changes = learnedChanges(target.learned, learned);
    if (changes.length === 0) return {};
    const workspaceId = decision.workspace_id;
    const nowMs = Date.now();
    // The journal's next number, and the generation it is in now (a reset may have landed since this container
    // loaded the workspace: the entry then moves nothing, like the counts that went to the old generation before).
    const head = await takeJournalNumber(this.client, this.tableName, workspaceId, nowMs);
    const headGeneration = head.generation ?? 0;
    await this.client.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          pk: journalPk(workspaceId, headGeneration, head.seq),
          ...(headGeneration === generation ? { sketch: encodeSketch(target.sketch), ch: encodeChanges(changes) } : {}),
          // The entry holds the decision's sketch: it lives as long as the decision item holding it, and at least a
          // day, so that it is folded first (FOLD_AGE_MS).
          expires_at: Math.max(target.expiresAt ?? 0, Math.floor(nowMs / 1000) + MIN_ENTRY_SECONDS),
        },
      }),
    );
    this.counter.writes += 2;
    try {
      await this.folder.maybeFold(workspaceId, head, nowMs);
    } catch {
      // The feedback is stored and journaled; the fold stays in flight and a later feedback takes it over.
    }
    return { journal: { seq: head.seq, generation: headGeneration } };
  }
}
