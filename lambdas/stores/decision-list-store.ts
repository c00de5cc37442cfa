// Listing a workspace's decisions: Queries on the decisions_by_workspace index (partition `workspace_id`, sort key
// `decision_id`). A decision id is `dec_` and a ULID, whose first 10 characters are the creation time in ms, so the
// cursor and both time filters become one range condition on the sort key, and newest first is a reverse Query.
// Without a priority filter a page is exactly one Query of limit + 1 items; never a Scan. The index copies only the
// decision and its expiry (lambdas/contract/tables.ts): what a page answers.
import {
  type DynamoDBDocumentClient,
  GetCommand,
  type QueryCommandInput,
  type QueryCommandOutput,
  QueryCommand,
} from '@aws-sdk/lib-dynamodb';
import { DECISIONS_BY_WORKSPACE_INDEX, ITEM_PREFIX, RETIRED_DECISIONS_BY_WORKSPACE_INDEX } from '../contract/tables';
import type { Decision } from '../domain/decision';
import type { DecisionListQuery, DecisionListStore, FeedbackFields } from '../domain/ports';
import { decisionFrom } from './decision-store';
import { batchGet } from './batch-writes';
import { CROCKFORD, ulidTime } from '../domain/ids';

/**
 * DynamoDB's answer to a Query on an index that a table upgraded in place does not have yet, or is still building
 * ("Cannot read from backfilling global secondary index"): the first step of the upgrade in docs/deploy.md.
 */
const isIndexNotReady = (err: unknown) =>
  (err as { name?: string }).name === 'ValidationException' &&
  /backfilling|does not have the specified index/i.test((err as Error).message ?? '');

/** The largest time a ULID can hold. */
const MAX_ULID_MS = 2 ** 48 - 1;

/** The greatest id string below `id` among ids of the same length (Crockford base32 after the prefix). */
export function idBefore(id: string): string | undefined {
  const chars = id.split('');
  for (let i = chars.length - 1; i >= 4; i--) {
    const digit = CROCKFORD.indexOf(chars[i]);
    if (digit > 0) {
      chars[i] = CROCKFORD[digit - 1];
      return chars.join('');
    }
    chars[i] = CROCKFORD[31];
  }
  return undefined;
}

/** Inclusive id bounds for the query, or undefined when nothing can match. */
export function idRange(
  query: Pick<DecisionListQuery, 'startingAfter' | 'createdAfterMs' | 'createdBeforeMs'>,
): { lower?: string; upper?: string } | undefined {
  let lower: string | undefined;
  let upper: string | undefined;
  if (query.createdAfterMs !== undefined) {
    // created_at is whole ms: after T means at least floor(T) + 1.
    const ms = Math.floor(query.createdAfterMs) + 1;
    if (ms > MAX_ULID_MS) return undefined;
    if (ms > 0) lower = `dec_${ulidTime(ms)}${'0'.repeat(16)}`;
  }
  if (query.createdBeforeMs !== undefined) {
    // before T means at most ceil(T) - 1.
    const ms = Math.ceil(query.createdBeforeMs) - 1;
    if (ms < 0) return undefined;
    if (ms < MAX_ULID_MS) upper = `dec_${ulidTime(ms)}${'Z'.repeat(16)}`;
  }
  if (query.startingAfter !== undefined) {
    const before = idBefore(query.startingAfter);
    if (before === undefined) return undefined;
    if (upper === undefined || before < upper) upper = before;
  }
  if (lower !== undefined && upper !== undefined && lower > upper) return undefined;
  return { lower, upper };
}

export class DynamoDecisionListStore implements DecisionListStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /**
   * Every unexpired decision of a workspace (created at or after `createdAfterMs` if given), as stored, with the
   * feedback it got (the admin CLI's feedback report): page by page, oldest first.
   */
  async *decisionsWithFeedback(
    workspaceId: string,
    createdAfterMs?: number,
  ): AsyncGenerator<{ decision: Record<string, unknown>; feedback?: FeedbackFields }> {
    const sinceId = createdAfterMs === undefined ? undefined : idRange({ createdAfterMs })?.lower;
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.query({
        TableName: this.tableName,
        // The index sorts by decision id, a ULID whose time is created_at: "since" is a lower bound on the id.
        KeyConditionExpression: sinceId ? 'workspace_id = :ws AND decision_id >= :since' : 'workspace_id = :ws',
        ExpressionAttributeValues: { ':ws': workspaceId, ...(sinceId ? { ':since': sinceId } : {}) },
        ProjectionExpression: 'pk, #d, expires_at',
        ExpressionAttributeNames: { '#d': 'decision' },
        ExclusiveStartKey: startKey,
      });
      startKey = page.LastEvaluatedKey;
      const nowSeconds = Math.floor(Date.now() / 1000);
      const live = (page.Items ?? []).filter((item) => Number(item.expires_at) > nowSeconds);
      // Feedback is not in the index (a feedback would write the index otherwise): read from the decisions, 100 a call
      // (none for a page of none).
      const pks = live.map((item) => String(item.pk));
      const { items } = await batchGet(this.client, this.tableName, pks, false);
      for (const item of live) {
        const feedback = items.get(String(item.pk))?.feedback as { fields?: FeedbackFields } | undefined;
        yield { decision: item.decision as Record<string, unknown>, feedback: feedback?.fields };
      }
    } while (startKey);
  }

  /** One Query on the listing index; on the index it replaced while a table upgraded in place still builds it. */
  private async query(input: Omit<QueryCommandInput, 'IndexName'>): Promise<QueryCommandOutput> {
    try {
      return await this.client.send(new QueryCommand({ ...input, IndexName: DECISIONS_BY_WORKSPACE_INDEX }));
    } catch (err) {
      if (!isIndexNotReady(err)) throw err;
      return this.client.send(new QueryCommand({ ...input, IndexName: RETIRED_DECISIONS_BY_WORKSPACE_INDEX }));
    }
  }

  async workspaceOf(decisionId: string): Promise<string | undefined> {
    const out = await this.client.send(
      new GetCommand({
        TableName: this.tableName,
        Key: { pk: ITEM_PREFIX.decision + decisionId },
        ProjectionExpression: 'decision.workspace_id',
        ConsistentRead: true,
      }),
    );
    const decision = out.Item?.decision as { workspace_id?: string } | undefined;
    return decision?.workspace_id;
  }

  async list(query: DecisionListQuery): Promise<{ decisions: Decision[]; hasMore: boolean }> {
    const range = idRange(query);
    if (!range) return { decisions: [], hasMore: false };

    // DynamoDB refuses names that the expressions do not use, so `#id` is added only with a range.
    const names: Record<string, string> = { '#ws': 'workspace_id', '#exp': 'expires_at' };
    if (range.lower !== undefined || range.upper !== undefined) names['#id'] = 'decision_id';
    const values: Record<string, unknown> = { ':ws': query.workspaceId, ':now': Math.floor(query.nowMs / 1000) };
    let keyCondition = '#ws = :ws';
    if (range.lower !== undefined && range.upper !== undefined) {
      keyCondition += ' AND #id BETWEEN :lower AND :upper';
      values[':lower'] = range.lower;
      values[':upper'] = range.upper;
    } else if (range.upper !== undefined) {
      keyCondition += ' AND #id <= :upper';
      values[':upper'] = range.upper;
    } else if (range.lower !== undefined) {
      keyCondition += ' AND #id >= :lower';
      values[':lower'] = range.lower;
    }
    // Past its retention a decision is gone, even while DynamoDB's TTL sweep (which can lag) has not deleted it.
    let filter = '#exp > :now';
    if (query.priorities?.length) {
      names['#decision'] = 'decision';
      names['#priority'] = 'priority';
      const placeholders = query.priorities.map((p, i) => {
        values[`:p${i}`] = p;
        return `:p${i}`;
      });
      filter += ` AND #decision.#priority IN (${placeholders.join(', ')})`;
    }

    // One more than the page, to know whether another page follows. A filter applies after Limit, so a filtered
    // page may need further Queries; an unfiltered one (only expired leftovers are filtered) practically never does.
    const wanted = query.limit + 1;
    const found: Decision[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const out = await this.query({
        TableName: this.tableName,
        KeyConditionExpression: keyCondition,
        FilterExpression: filter,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ScanIndexForward: false,
        Limit: query.priorities?.length ? Math.max(wanted - found.length, 100) : wanted - found.length,
        ExclusiveStartKey: startKey,
      });
      for (const item of out.Items ?? []) {
        if (found.length < wanted) found.push(decisionFrom(item.decision as Record<string, unknown>));
      }
      startKey = out.LastEvaluatedKey;
    } while (startKey && found.length < wanted);

    return { decisions: found.slice(0, query.limit), hasMore: found.length > query.limit };
  }
}
