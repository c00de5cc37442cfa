// Listing a workspace's decisions: Queries on the decisions_by_priority index (partition `<workspace_id>#<priority>`,
// sort key `decision_id`), one partition per priority asked for (all four when none is), merged newest first
// (decision-list-merge.ts). A decision id is `dec_` and a ULID, whose first 10 characters are the creation time in ms,
// so the cursor and both time filters become one range condition on the sort key. A page of `limit` reads about
// `limit` items whatever the priority filter (docs/partners.md, "Listing decisions"); never a Scan. The index copies
// only the decision and its expiry (lambdas/contract/tables.ts): what a page answers. On a table upgraded in place the
// index it replaced (decision_list, partition `workspace_id`) is read while it still exists (docs/deploy.md).
import {
  type DynamoDBDocumentClient,
  GetCommand,
  type QueryCommandInput,
  type QueryCommandOutput,
  QueryCommand,
} from '@aws-sdk/lib-dynamodb';
import {
  DECISION_LIST_INDEX,
  DECISION_LIST_PARTITION,
  ITEM_PREFIX,
  RETIRED_DECISION_LIST_INDEX,
} from '../contract/tables';
import { type Decision, PRIORITIES } from '../domain/decision';
import type { DecisionListQuery, DecisionListStore, FeedbackFields } from '../domain/ports';
import { STORED_PRIORITY, decisionFrom } from './decision-format';
import { listPartition } from './decision-store';
import { mergePartitions } from './decision-list-merge';
import { batchGet } from './batch-writes';
import { CROCKFORD, ulidTime } from '../domain/ids';

/**
 * DynamoDB's answer to a Query on an index the table does not have (any more), or cannot read yet ("Cannot read from
 * backfilling global secondary index", or one being deleted).
 */
const isIndexMissing = (err: unknown) =>
  (err as { name?: string }).name === 'ValidationException' &&
  /backfilling|does not have the specified index|index.*(deleting|being deleted)/i.test((err as Error).message ?? '');

/** The key condition, names and values of a page's id range on the sort key `#id`. */
function rangeCondition(
  range: { lower?: string; upper?: string },
  names: Record<string, string>,
  values: Record<string, unknown>,
) {
  if (range.lower === undefined && range.upper === undefined) return '';
  names['#id'] = 'decision_id';
  if (range.lower !== undefined) values[':lower'] = range.lower;
  if (range.upper !== undefined) values[':upper'] = range.upper;
  if (range.lower !== undefined && range.upper !== undefined) return ' AND #id BETWEEN :lower AND :upper';
  return range.upper !== undefined ? ' AND #id <= :upper' : ' AND #id >= :lower';
}

/** The largest time a ULID can hold. */
const MAX_ULID_MS = 2 ** 48 - 1;

/** The greatest id string below `id` among ids of the same length (Crockford base32 after the prefix). */
function idBefore(id: string): string | undefined {
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
function idRange(
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
  /** Whether the table still has the listing index this one replaced (undefined until a Query tells). */
  private retiredIndex: boolean | undefined;

  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /**
   * A Query on the retired index while the table has it (a table upgraded in place, until step 3 of docs/deploy.md);
   * undefined once DynamoDB says it is gone, which this store then remembers.
   */
  private async queryRetired(input: Omit<QueryCommandInput, 'IndexName'>): Promise<QueryCommandOutput | undefined> {
    if (this.retiredIndex === false) return undefined;
    try {
      const out = await this.client.send(new QueryCommand({ ...input, IndexName: RETIRED_DECISION_LIST_INDEX }));
      this.retiredIndex = true;
      return out;
    } catch (err) {
      // DynamoDB Local answers a Query on an index it deleted with InternalFailure, not AWS's ValidationException:
      // read the new index this time, and ask again next time (on AWS that answer is a transient fault).
      if ((err as { name?: string }).name === 'InternalFailure') return undefined;
      if (!isIndexMissing(err)) throw err;
      this.retiredIndex = false;
      return undefined;
    }
  }

  /** One page of one priority partition of the listing index, newest first when `descending`. */
  private readPartition(
    partition: string,
    startKey: Record<string, unknown> | undefined,
    limit: number,
    page: {
      keyCondition: string;
      filter?: string;
      names: Record<string, string>;
      values: Record<string, unknown>;
      projection?: string;
    },
    descending: boolean,
  ): Promise<QueryCommandOutput> {
    return this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: DECISION_LIST_INDEX,
        KeyConditionExpression: `#lp = :lp${page.keyCondition}`,
        FilterExpression: page.filter,
        ProjectionExpression: page.projection,
        ExpressionAttributeNames: { ...page.names, '#lp': DECISION_LIST_PARTITION },
        ExpressionAttributeValues: { ...page.values, ':lp': partition },
        ScanIndexForward: !descending,
        Limit: limit,
        ExclusiveStartKey: startKey,
      }),
    );
  }

  /**
   * Every unexpired decision of a workspace (created at or after `createdAfterMs` if given), as stored, with the
   * feedback it got (the admin CLI's feedback report): page by page, oldest first.
   */
  async *decisionsWithFeedback(
    workspaceId: string,
    createdAfterMs?: number,
  ): AsyncGenerator<{ decision: Decision; feedback?: FeedbackFields }> {
    // At or after: idRange's bound is strictly after, and created_at is whole ms.
    const lower =
      createdAfterMs === undefined ? undefined : idRange({ createdAfterMs: Math.ceil(createdAfterMs) - 1 })?.lower;
    const names: Record<string, string> = { '#d': 'decision' };
    const values: Record<string, unknown> = {};
    const keyCondition = rangeCondition({ lower }, names, values);
    // decision_id: the merge orders by it.
    const projection = 'pk, #d, expires_at, decision_id';
    const nowSeconds = Math.floor(Date.now() / 1000);
    for await (const page of this.reportPages(workspaceId, { keyCondition, names, values, projection })) {
      const live = page.filter((item) => Number(item.expires_at) > nowSeconds);
      // Feedback is not in the index (a feedback would write the index otherwise): read from the decisions, 100 a call
      // (none for a page of none).
      const pks = live.map((item) => String(item.pk));
      const { items } = await batchGet(this.client, this.tableName, pks, false);
      for (const item of live) {
        const feedback = items.get(String(item.pk))?.feedback as { fields?: FeedbackFields } | undefined;
        yield { decision: decisionFrom(item), feedback: feedback?.fields };
      }
    }
  }

  /** A workspace's decision entries, oldest first, in pages of at most 100: from the retired index while it exists. */
  private async *reportPages(
    workspaceId: string,
    page: { keyCondition: string; names: Record<string, string>; values: Record<string, unknown>; projection: string },
  ): AsyncGenerator<Record<string, unknown>[]> {
    const retiredInput = {
      TableName: this.tableName,
      KeyConditionExpression: `workspace_id = :ws${page.keyCondition}`,
      ExpressionAttributeNames: page.names,
      ExpressionAttributeValues: { ...page.values, ':ws': workspaceId },
      ProjectionExpression: page.projection,
      Limit: 100,
    };
    let out = await this.queryRetired(retiredInput);
    if (out) {
      for (;;) {
        yield out.Items ?? [];
        if (!out.LastEvaluatedKey) return;
        const startKey: Record<string, unknown> = out.LastEvaluatedKey;
        out = await this.client.send(
          new QueryCommand({ ...retiredInput, IndexName: RETIRED_DECISION_LIST_INDEX, ExclusiveStartKey: startKey }),
        );
      }
    }
    let batch: Record<string, unknown>[] = [];
    for await (const item of mergePartitions(
      (partition, startKey, limit) => this.readPartition(partition, startKey, limit, page, false),
      PRIORITIES.map((p) => listPartition(workspaceId, p)),
      false,
      () => 100,
    )) {
      batch.push(item);
      if (batch.length === 100) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length) yield batch;
  }

  async workspaceOf(decisionId: string): Promise<string | undefined> {
    const out = await this.client.send(
      new GetCommand({
        TableName: this.tableName,
        Key: { pk: ITEM_PREFIX.decision + decisionId },
        // The decision and its id, as either format stores them (decision-format.ts): one read unit all the same.
        ProjectionExpression: 'decision, decision_id',
        ConsistentRead: true,
      }),
    );
    return out.Item?.decision ? decisionFrom(out.Item).workspace_id : undefined;
  }

  async list(query: DecisionListQuery): Promise<{ decisions: Decision[]; hasMore: boolean }> {
    const range = idRange(query);
    if (!range) return { decisions: [], hasMore: false };
    const names: Record<string, string> = { '#exp': 'expires_at' };
    const values: Record<string, unknown> = { ':now': Math.floor(query.nowMs / 1000) };
    const keyCondition = rangeCondition(range, names, values);
    // Past its retention a decision is gone, even while DynamoDB's TTL sweep (which can lag) has not deleted it.
    const filter = '#exp > :now';
    // One more than the page, to know whether another page follows.
    const wanted = query.limit + 1;
    const found: Decision[] = [];

    const retired =
      this.retiredIndex === false
        ? undefined
        : await this.listRetired(query, keyCondition, filter, names, values, wanted);
    if (retired) return retired;

    const priorities = query.priorities?.length ? [...new Set(query.priorities)] : [...PRIORITIES];
    const merged = mergePartitions(
      (partition, startKey, limit) =>
        this.readPartition(partition, startKey, limit, { keyCondition, filter, names, values }, true),
      priorities.map((p) => listPartition(query.workspaceId, p)),
      true,
      // The first pages split the page over the partitions; a partition read further asks for what is still missing.
      (first) => (first ? Math.ceil(wanted / priorities.length) : wanted - found.length),
    );
    for await (const item of merged) {
      found.push(decisionFrom(item));
      if (found.length === wanted) break;
    }
    return { decisions: found.slice(0, query.limit), hasMore: found.length > query.limit };
  }

  /**
   * The page from the retired index while the table still has it (a filter on priority after each Query, as the
   * versions before read it), or undefined when it is gone.
   */
  private async listRetired(
    query: DecisionListQuery,
    keyCondition: string,
    filter: string,
    names: Record<string, string>,
    values: Record<string, unknown>,
    wanted: number,
  ): Promise<{ decisions: Decision[]; hasMore: boolean } | undefined> {
    const retiredNames: Record<string, string> = { ...names, '#ws': 'workspace_id' };
    const retiredValues: Record<string, unknown> = { ...values, ':ws': query.workspaceId };
    let retiredFilter = filter;
    if (query.priorities?.length) {
      // The priority's attribute in a decision stored before version 4, and in a compact one.
      retiredNames['#decision'] = 'decision';
      retiredNames['#priority'] = STORED_PRIORITY.full;
      retiredNames['#p'] = STORED_PRIORITY.compact;
      const placeholders = query.priorities
        .map((p, i) => {
          retiredValues[`:p${i}`] = p;
          return `:p${i}`;
        })
        .join(', ');
      retiredFilter += ` AND (#decision.#priority IN (${placeholders}) OR #decision.#p IN (${placeholders}))`;
    }
    const found: Decision[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const input = {
        TableName: this.tableName,
        KeyConditionExpression: `#ws = :ws${keyCondition}`,
        FilterExpression: retiredFilter,
        ExpressionAttributeNames: retiredNames,
        ExpressionAttributeValues: retiredValues,
        ScanIndexForward: false,
        Limit: query.priorities?.length ? Math.max(wanted - found.length, 100) : wanted - found.length,
        ExclusiveStartKey: startKey,
      };
      const out = startKey
        ? await this.client.send(new QueryCommand({ ...input, IndexName: RETIRED_DECISION_LIST_INDEX }))
        : await this.queryRetired(input);
      if (!out) return undefined;
      for (const item of out.Items ?? []) {
        if (found.length < wanted) found.push(decisionFrom(item));
      }
      startKey = out.LastEvaluatedKey;
    } while (startKey && found.length < wanted);
    return { decisions: found.slice(0, query.limit), hasMore: found.length > query.limit };
  }
}
