// `admin audit list` (docs/operations.md, "Audit log"): the audit log, newest first, with its filters.
import { AdminInputError, assertDate, assertPartnerId, assertWholeNumber, assertWorkspace } from './operator-input';
import {
  type AuditEvent,
  type AuditQuery,
  DEFAULT_AUDIT_LIST_LIMIT,
  MAX_AUDIT_LIST_LIMIT,
} from '../../lambdas/domain/audit';
import { isPrefixGrant } from '../../lambdas/domain/grants';
import { KEY_ID_PATTERN } from '../../lambdas/domain/ids';

export function auditQuery(flag: (name: string) => string | undefined): AuditQuery {
  const since = flag('since');
  const sinceMs = since === undefined ? undefined : assertDate(since);
  const limitText = flag('limit');
  const limit =
    limitText === undefined
      ? DEFAULT_AUDIT_LIST_LIMIT
      : assertWholeNumber(
          limitText,
          `--limit must be a whole number from 1 to ${MAX_AUDIT_LIST_LIMIT}`,
          1,
          MAX_AUDIT_LIST_LIMIT,
        );
  for (const name of ['partner', 'key-id', 'workspace']) {
    if (flag(name) === '') throw new AdminInputError(`--${name} must not be empty`);
  }
  // A filter no event can match would list nothing, which reads as "no changes": refuse it, as other commands do.
  const partner = flag('partner');
  const partnerId = partner === undefined ? undefined : assertPartnerId(partner);
  // Its format only: the log keeps the events of keys revoked or gone. Not echoed: it may be a key's secret.
  const keyId = flag('key-id');
  if (keyId !== undefined && !KEY_ID_PATTERN.test(keyId))
    throw new AdminInputError('--key-id must be a key_id: key_ and 26 characters of 0-9 A-Z, as key create printed it');
  // Events name a workspace id, never a prefix: a prefix's grants are key.grant events of their key.
  const workspace = flag('workspace');
  if (workspace !== undefined && isPrefixGrant(workspace))
    throw new AdminInputError('--workspace takes a workspace id, not a prefix: list a grant by --key-id or --partner');
  const workspaceId = workspace === undefined ? undefined : assertWorkspace(workspace);
  return { sinceMs, partnerId, keyId, workspaceId, limit };
}

const targetText = (t: AuditEvent['target']) =>
  [
    t.partner_id && `partner ${t.partner_id}`,
    t.key_id && `key ${t.key_id}`,
    t.workspace_id && `workspace ${t.workspace_id}`,
  ]
    .filter(Boolean)
    .join(', ');

function auditEventText(e: AuditEvent): string {
  return `${e.at}  ${e.action.padEnd(18)}  ${targetText(e.target) || '-'}  by ${e.actor}  ${JSON.stringify(e.before)} -> ${JSON.stringify(e.after)}`;
}

/** `audit list`'s output. */
export const auditListOutput = (events: AuditEvent[]) => ({
  json: { events },
  text: events.length ? events.map(auditEventText).join('\n') : '(no audit events)',
});
