// Audit events in the decisions table (docs/operations.md, "Audit log"). An event is never written on its own: it is
// one Put in the TransactWriteItems of the change it records, so a change and its event land together or not at all.
//   audit#<event_id>   event_id, at, actor, action, target, before, after; audit_log = "audit" (the index partition);
//                      expires_at (epoch seconds, the table's TTL attribute) = at + 400 days
import { ITEM_PREFIX } from '../contract/tables';
import { AUDIT_RETENTION_DAYS, type AuditEvent, type AuditEventInput, auditEvent } from '../domain/audit';

/** The value of `audit_log` on every audit item: the one partition of the audit_by_time index. */
export const AUDIT_LOG_PARTITION = 'audit';

/** The stored item of an event. */
export function auditItem(event: AuditEvent): Record<string, unknown> {
  return {
    pk: ITEM_PREFIX.audit + event.event_id,
    kind: 'audit',
    audit_log: AUDIT_LOG_PARTITION,
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
