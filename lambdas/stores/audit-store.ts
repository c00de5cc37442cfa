// Reading the audit log (`admin audit list`) from the audit_by_time index, newest first. Events are spread over the
// index's partitions by month and shard (audit-log.ts); a listing walks the months from now back to `--since` (or to
// the retention), and within a month merges its shards' Queries, each newest first, by event id (a ULID of `at`, so
// id order is time order). Events written before the partitions were spread, in the one legacy partition, join the
// merge throughout. `--since` is a key condition on the event id; the other filters are a FilterExpression, so a
// filtered listing reads the events of its time window and never the rest of the table. Partitions are read a page
// at a time, only as far as the listing needs.
import { type DynamoDBDocumentClient, type QueryCommandInput, paginateQuery } from '@aws-sdk/lib-dynamodb';
import {
  AUDIT_RETENTION_DAYS,
  type AuditEvent,
  type AuditQuery,
  actorForKey,
  firstAuditEventIdAt,
} from '../domain/audit';
import { AUDIT_BY_TIME_INDEX } from '../contract/tables';
import { AUDIT_SHARDS, LEGACY_AUDIT_PARTITION, auditBucket, auditPartition, eventFromItem } from './audit-log';

const DAY_MS = 86_400_000;

/** The months (`2026-11`) from the one holding `toMs` back to the one holding `fromMs`, newest first. */
function monthsNewestFirst(fromMs: number, toMs: number): string[] {
  const months: string[] = [];
  const d = new Date(toMs);
  let year = d.getUTCFullYear();
  let month = d.getUTCMonth();
  const last = auditBucket(fromMs);
  for (;;) {
    const bucket = auditBucket(Date.UTC(year, month, 1));
    months.push(bucket);
    if (bucket <= last) return months;
    month -= 1;
    if (month < 0) [year, month] = [year - 1, 11];
  }
}

/** One partition's events, newest first, read a page at a time. */
class PartitionReader {
  private readonly pages: AsyncIterator<{ Items?: Record<string, unknown>[] }>;
  private buffer: AuditEvent[] = [];
  private done = false;

  constructor(client: DynamoDBDocumentClient, input: QueryCommandInput, partition: string) {
    const values = { ...input.ExpressionAttributeValues, ':log': partition };
    this.pages = paginateQuery({ client }, { ...input, ExpressionAttributeValues: values })[Symbol.asyncIterator]();
  }

  /** The next event without taking it, or undefined when the partition has no more. */
  async peek(): Promise<AuditEvent | undefined> {
    while (!this.buffer.length && !this.done) {
      const page = await this.pages.next();
      if (page.done) this.done = true;
      else this.buffer = (page.value.Items ?? []).map(eventFromItem);
    }
    return this.buffer[0];
  }

  take(): AuditEvent {
    return this.buffer.shift()!;
  }
}

export class DynamoAuditLog {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    /** The decisions table. */
    private readonly tableName: string,
  ) {}

  async list(query: AuditQuery, nowMs = Date.now()): Promise<AuditEvent[]> {
    const input = this.queryInput(query, nowMs);
    const reader = (partition: string) => new PartitionReader(this.client, input, partition);
    const legacy = reader(LEGACY_AUDIT_PARTITION);
    const events: AuditEvent[] = [];
    // A day past now: an event stamped by a writer whose clock runs ahead is still found. Never further back than the
    // retention, as without --since: older events have expired, and each month costs a Query per shard.
    const kept = nowMs - AUDIT_RETENTION_DAYS * DAY_MS;
    const from = Math.max(query.sinceMs ?? kept, kept);
    for (const month of monthsNewestFirst(from, nowMs + DAY_MS)) {
      const shards = Array.from({ length: AUDIT_SHARDS }, (_, shard) => reader(auditPartition(month, shard)));
      for (;;) {
        const heads = await Promise.all(shards.map((s) => s.peek()));
        let newest = -1;
        heads.forEach((head, i) => {
          if (head && (newest < 0 || head.event_id > heads[newest]!.event_id)) newest = i;
        });
        if (newest < 0) break; // this month is done; the legacy partition carries on into the next
        const older = await legacy.peek();
        events.push(older && older.event_id > heads[newest]!.event_id ? legacy.take() : shards[newest].take());
        if (events.length >= query.limit) return events;
      }
    }
    while (events.length < query.limit && (await legacy.peek())) events.push(legacy.take());
    return events;
  }

  /** The Query of every partition (its value `:log` set per partition): key condition, filters, newest first. */
  private queryInput(query: AuditQuery, nowMs: number): QueryCommandInput {
    const names: Record<string, string> = { '#log': 'audit_log', '#exp': 'expires_at' };
    const values: Record<string, unknown> = { ':now': Math.floor(nowMs / 1000) };
    let keyCondition = '#log = :log';
    if (query.sinceMs !== undefined) {
      names['#id'] = 'event_id';
      values[':since'] = firstAuditEventIdAt(query.sinceMs);
      keyCondition += ' AND #id >= :since';
    }
    // TTL deletes within days of expiry, not at once: an expired event is not listed meanwhile.
    const filters = ['#exp > :now'];
    if (query.partnerId !== undefined || query.keyId !== undefined || query.workspaceId !== undefined)
      names['#target'] = 'target';
    if (query.partnerId !== undefined) {
      filters.push('#target.partner_id = :partner');
      values[':partner'] = query.partnerId;
    }
    if (query.keyId !== undefined) {
      names['#actor'] = 'actor';
      filters.push('(#target.key_id = :key OR #actor = :keyActor)');
      values[':key'] = query.keyId;
      values[':keyActor'] = actorForKey(query.keyId);
    }
    if (query.workspaceId !== undefined) {
      filters.push('#target.workspace_id = :ws');
      values[':ws'] = query.workspaceId;
    }
    return {
      TableName: this.tableName,
      IndexName: AUDIT_BY_TIME_INDEX,
      KeyConditionExpression: keyCondition,
      FilterExpression: filters.join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ScanIndexForward: false,
      // Pages of the events evaluated (not matched): a short listing reads little, a filtered one pages on.
      Limit: Math.min(1_000, Math.max(query.limit, 100)),
    };
  }
}
