// Audit events in the decisions table (docs/operations.md, "Audit log"). An event is never written on its own: it is
// one Put in the TransactWriteItems of the change it records, so a change and its event land together or not at all.
//   audit#<event_id>   event_id, at, actor, action, target, before, after; audit_log = "<month of at>#<shard>" (the
//                      audit_by_time index's partition); expires_at (epoch seconds, the table's TTL attribute) =
//                      at + 400 days
import { ITEM_PREFIX } from '../contract/tables';
import { AUDIT_RETENTION_DAYS, type AuditEvent, type AuditEventInput, auditEvent } from '../domain/audit';
import { CROCKFORD } from '../domain/ids';

/**
 * The value of `audit_log` on events written before version 4: then the one partition of the audit_by_time index,
 * which a large policy PUT (an event of about 116 write units) could fill at a handful a second. Still read by
 * `audit list` until those events expire (400 days after the upgrade); nothing writes it any more.
 */
export const LEGACY_AUDIT_PARTITION = 'audit';

/**
 * How many index partitions each month's events are spread over. One partition takes about 1,000 write units a
 * second, so eight take about 70 of the largest `policy.put` events a second; a listing reads eight partitions a
 * month (in parallel), newest first.
 */
export const AUDIT_SHARDS = 8;

/** An event's time bucket: the UTC month of `at` (`2026-11`). */
export const auditBucket = (ms: number): string => new Date(ms).toISOString().slice(0, 7);

/** An event's shard: its id's last character, from the ULID's random part, so shards fill evenly. */
const auditShard = (eventId: string): number => Math.max(0, CROCKFORD.indexOf(eventId.slice(-1))) % AUDIT_SHARDS;

/** The index partition (`audit_log`) of a bucket and shard: `2026-11#3`. */
export const auditPartition = (bucket: string, shard: number): string => `${bucket}#${shard}`;

/** The stored item of an event. */
function auditItem(event: AuditEvent): Record<string, unknown> {
  return {
    pk: ITEM_PREFIX.audit + event.event_id,
    kind: 'audit',
    audit_log: auditPartition(auditBucket(Date.parse(event.at)), auditShard(event.event_id)),
    ...event,
    expires_at: Math.floor(Date.parse(event.at) / 1000) + AUDIT_RETENTION_DAYS * 86_400,
  };
}

/**
 * One entry for lib-dynamodb's `TransactWriteCommand` `TransactItems`: the audit event of the change the other entries
 * make. Add it to the same transaction; never send it alone.
 *
 * - `tableName`: the DECISIONS table, `settings.decisionsTableName` (env `DECISIONS_TABLE_NAME`) — every event goes
 *   there, whichever table the change itself is in (a transaction may span both tables).
 * - IAM: the caller's Lambda needs `dynamodb:PutItem` on the decisions table (IAM authorizes each Put of a
 *   TransactWriteItems as PutItem), for items whose partition key starts with `audit#` (`ITEM_PREFIX.audit`) where
 *   the stack narrows by `dynamodb:LeadingKeys`. No read of audit items is needed to write one.
 * - Throws `AuditEventError` (before any write) when `input` holds what an event must not: a key, a key hash or text.
 * - The Put is conditional (`attribute_not_exists(pk)`): an event is never overwritten.
 */
export function auditEventPut(tableName: string, input: AuditEventInput, at: Date) {
  return {
    Put: {
      TableName: tableName,
      Item: auditItem(auditEvent(input, at)),
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** The audit table a writing store was given; a store built without one (the authorizer's) only reads. */
export function auditTableFor(tableName: string | undefined): string {
  if (!tableName)
    throw new Error('this store was built without its audit table (the decisions table): it cannot write');
  return tableName;
}

/** The event of a stored item (what `admin audit list` prints). */
export function eventFromItem(item: Record<string, unknown>): AuditEvent {
  return {
    event_id: item.event_id as string,
    at: item.at as string,
    actor: item.actor as string,
    action: item.action as AuditEvent['action'],
    target: item.target ?? {},
    before: (item.before ?? null) as AuditEvent['before'],
    after: (item.after ?? null) as AuditEvent['after'],
  };
}
