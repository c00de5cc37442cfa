// Reading the audit log (`admin audit list`): one Query on the audit_by_time index, newest first. `--since` is a key
// condition on the event id (a ULID of `at`); the other filters are a FilterExpression, so a filtered listing reads
// the events of its time window (give --since to bound it) and never the rest of the table.
import { type DynamoDBDocumentClient, paginateQuery } from '@aws-sdk/lib-dynamodb';
import { type AuditEvent, type AuditQuery, actorForKey, firstAuditEventIdAt } from '../domain/audit';
import { AUDIT_BY_TIME_INDEX } from '../contract/tables';
import { AUDIT_LOG_PARTITION, eventFromItem } from './audit-log';

export class DynamoAuditLog {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    /** The decisions table. */
    private readonly tableName: string,
  ) {}

  async list(query: AuditQuery, nowMs = Date.now()): Promise<AuditEvent[]> {
    const names: Record<string, string> = { '#log': 'audit_log', '#exp': 'expires_at' };
    const values: Record<string, unknown> = { ':log': AUDIT_LOG_PARTITION, ':now': Math.floor(nowMs / 1000) };
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
    const events: AuditEvent[] = [];
    const pages = paginateQuery(
      { client: this.client },
      {
        TableName: this.tableName,
        IndexName: AUDIT_BY_TIME_INDEX,
        KeyConditionExpression: keyCondition,
        FilterExpression: filters.join(' AND '),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ScanIndexForward: false,
        // Pages of the events evaluated (not matched): a short listing reads little, a filtered one pages on.
        Limit: Math.min(1_000, Math.max(query.limit, 100)),
      },
    );
    for await (const page of pages) {
      for (const item of page.Items ?? []) {
        events.push(eventFromItem(item));
        if (events.length >= query.limit) return events;
      }
    }
    return events;
  }
}
