// Feedback on a decision and the model counts it moves. Writes per feedback: one conditional UpdateItem on the
// decision item (replacing earlier feedback), one UpdateItem per label whose count changes (at most 2 per field,
// 8 in all), and one on the workspace's model item: at most 10, each an atomic ADD, so concurrent feedback from many
// clients never loses a count and never conflicts on a hot label item.
import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ITEM_PREFIX } from '../contract/tables';
import { type LearnedField, learnedChanges } from '../domain/learning/model';
import { type Sketch, decodeSketch } from '../domain/learning/sketch';
import type { FeedbackFields, FeedbackStore, FeedbackTarget } from '../domain/ports';
import { decisionFrom } from './decision-store';
import { WORKSPACE_PREFIX, labelPk, labelVersionAttribute } from './workspace-store';

/** Counts writes, for the bench's "bounded, stated and measured" figure. */
export interface WriteCounter {
  writes: number;
}

export class DynamoFeedbackStore implements FeedbackStore {
  readonly counter: WriteCounter = { writes: 0 };

  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async getTarget(decisionId: string): Promise<FeedbackTarget | undefined> {
    const out = await this.client.send(
      new GetCommand({
        TableName: this.tableName,
        Key: { pk: ITEM_PREFIX.decision + decisionId },
        ConsistentRead: true,
      }),
    );
    const item = out.Item;
    if (!item?.decision || Number(item.expires_at) <= Math.floor(Date.now() / 1000)) return undefined;
    return {
      decision: decisionFrom(item.decision as Record<string, unknown>),
      sketch: item.sketch instanceof Uint8Array ? decodeSketch(item.sketch) : undefined,
      feedback: item.feedback as FeedbackTarget['feedback'],
      learned: (item.learned as FeedbackFields | undefined) ?? {},
      seq: Number(item.feedback_seq ?? 0),
      learnedGeneration: Number(item.learned_generation ?? 0),
    };
  }

  /** `target.learned` must be what the decision counts in `generation` (the caller clears it after a reset). */
  async record(
    target: FeedbackTarget,
    fields: FeedbackFields,
    learned: FeedbackFields,
    createdAt: string,
    generation = 0,
  ): Promise<boolean> {
    const { decision } = target;
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: ITEM_PREFIX.decision + decision.decision_id },
          UpdateExpression:
            'SET feedback = :fb, learned = :learned, learned_generation = :gen, feedback_seq = :next, feedback_workspace_id = :ws, feedback_at = :at',
          ConditionExpression:
            target.seq === 0 ? 'attribute_exists(pk) AND attribute_not_exists(feedback_seq)' : 'feedback_seq = :prev',
          ExpressionAttributeValues: {
            ':fb': { fields, created_at: createdAt },
            ':learned': learned,
            ':gen': generation,
            ':next': target.seq + 1,
            ':ws': decision.workspace_id,
            ':at': createdAt,
            ...(target.seq === 0 ? {} : { ':prev': target.seq }),
          },
        }),
      );
      this.counter.writes++;
    } catch (err) {
      if ((err as { name?: string }).name === 'ConditionalCheckFailedException') return false;
      throw err;
    }
    if (!target.sketch) return true;
    const changes = learnedChanges(target.learned, learned);
    if (changes.length === 0) return true;
    await Promise.all(
      changes.map((c) => this.addCounts(decision.workspace_id, c.field, c.label, target.sketch!, c.sign, generation)),
    );
    const added = changes.filter((c) => c.sign === 1).map((c) => `${c.field}:${c.label}`);
    // Each changed label's version too: other containers then read again only the label items that changed.
    const changed = [...new Set(changes.map((c) => `${c.field}:${c.label}`))];
    const versionNames = Object.fromEntries(changed.map((l, i) => [`#v${i}`, labelVersionAttribute(l)]));
    await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { pk: WORKSPACE_PREFIX.model + decision.workspace_id },
        UpdateExpression: `ADD #version :one${added.length ? ', #labels :labels' : ''}${changed.map((_, i) => `, #v${i} :one`).join('')}`,
        ExpressionAttributeNames: {
          '#version': 'version',
          ...(added.length ? { '#labels': 'labels' } : {}),
          ...versionNames,
        },
        ExpressionAttributeValues: { ':one': 1, ...(added.length ? { ':labels': new Set(added) } : {}) },
      }),
    );
    this.counter.writes += changes.length + 1;
    return true;
  }

  private async addCounts(
    workspaceId: string,
    field: LearnedField,
    label: string,
    sketch: Sketch,
    sign: 1 | -1,
    generation: number,
  ) {
    const names: Record<string, string> = { '#docs': 'docs', '#total': 'total' };
    const adds = ['#docs :s', '#total :n'];
    const attributes = sketch.t.map((b) => `t${b.toString(36)}`);
    if (sketch.s !== undefined) attributes.push(`s${sketch.s.toString(36)}`);
    if (sketch.d !== undefined) attributes.push(`d${sketch.d.toString(36)}`);
    attributes.forEach((name, i) => {
      names[`#${i}`] = name;
      adds.push(`#${i} :s`);
    });
    await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { pk: labelPk(workspaceId, field, label, generation) },
        UpdateExpression: `ADD ${adds.join(', ')}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ':s': sign, ':n': sign * sketch.t.length },
      }),
    );
  }
}
