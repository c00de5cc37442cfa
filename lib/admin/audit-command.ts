// `admin audit list` (docs/operations.md, "Audit log"): the audit log, newest first, with its filters.
import { AdminInputError, assertDate } from './operator-input';
import {
  type AuditEvent,
  type AuditQuery,
  DEFAULT_AUDIT_LIST_LIMIT,
  MAX_AUDIT_LIST_LIMIT,
} from '../../lambdas/domain/audit';

export function auditQuery(flag: (name: string) => string | undefined): AuditQuery {
  const since = flag('since');
  const sinceMs = since === undefined ? undefined : assertDate(since);
  const limitText = flag('limit');
  const limit = limitText === undefined ? DEFAULT_AUDIT_LIST_LIMIT : Number(limitText);
  if (!/^\d+$/.test(limitText ?? '1') || !(limit >= 1 && limit <= MAX_AUDIT_LIST_LIMIT)) {
    throw new AdminInputError(`--limit must be a whole number from 1 to ${MAX_AUDIT_LIST_LIMIT}`);
  }
  for (const name of ['partner', 'key-id', 'workspace']) {
    if (flag(name) === '') throw new AdminInputError(`--${name} must not be empty`);
  }
  return { sinceMs, partnerId: flag('partner'), keyId: flag('key-id'), workspaceId: flag('workspace'), limit };
}

const targetText = (t: AuditEvent['target']) =>
  [
    t.partner_id && `partner ${t.partner_id}`,
    t.key_id && `key ${t.key_id}`,
    t.workspace_id && `workspace ${t.workspace_id}`,
  ]
    .filter(Boolean)
    .join(', ');

export function auditEventText(e: AuditEvent): string {
  return `${e.at}  ${e.action.padEnd(18)}  ${targetText(e.target) || '-'}  by ${e.actor}  ${JSON.stringify(e.before)} -> ${JSON.stringify(e.after)}`;
}

/** `audit list`'s output. */
export const auditListOutput = (events: AuditEvent[]) => ({
  json: { events },
  text: events.length ? events.map(auditEventText).join('\n') : '(no audit events)',
});
