// `decision get --id <decision_id>` (docs/operations.md, "Admin CLI"): a stored decision as GET /decisions/{id} answers
// it, with who asked for it and when it expires, expired or not: what on-call needs for "decision X was wrong" or
// "why does GET answer 404", without a partner's key.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ITEM_PREFIX } from '../../lambdas/contract/tables';
import type { Decision } from '../../lambdas/domain/decision';
import { DECISION_ID_PATTERN } from '../../lambdas/domain/ids';
import { NotFoundError } from '../../lambdas/domain/ports';
import { decisionFrom } from '../../lambdas/stores/decision-format';
import { getItem } from '../../lambdas/stores/dynamodb-client';
import { AdminInputError } from './operator-input';

interface StoredDecisionReport {
  decision: Decision;
  /** Who asked for it (null on an item stored without them). */
  partner_id: string | null;
  key_id: string | null;
  expires_at: string | null;
  /** Past its retention: GET answers 404 DECISION_NOT_FOUND, and DynamoDB deletes the item in the background. */
  expired: boolean;
}

export async function storedDecision(
  client: DynamoDBDocumentClient,
  decisionsTable: string,
  id: string | undefined,
  nowMs = Date.now(),
): Promise<StoredDecisionReport> {
  if (!id || !DECISION_ID_PATTERN.test(id))
    throw new AdminInputError('--id must be a decision id (dec_ and 26 characters)');
  const item = await getItem(client, decisionsTable, ITEM_PREFIX.decision + id);
  if (!item?.decision) throw new NotFoundError(`decision ${id}`);
  const expiresAt = Number(item.expires_at) * 1000;
  const known = Number.isFinite(expiresAt);
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  return {
    decision: decisionFrom(item),
    partner_id: text(item.partner_id),
    key_id: text(item.key_id),
    expires_at: known ? new Date(expiresAt).toISOString() : null,
    expired: known && expiresAt <= nowMs,
  };
}

export function storedDecisionOutput(report: StoredDecisionReport) {
  const d = report.decision;
  const reasons = d.reasons.map((r) => r.code).join(', ') || '(none)';
  return {
    json: { ...report },
    text: [
      `decision ${d.decision_id} in ${d.workspace_id}, made ${d.created_at} for partner ${report.partner_id} with key ${report.key_id}`,
      `  priority ${d.priority} (score ${d.score}), action ${d.recommended_action}, category ${d.category}, queue ${d.queue}`,
      `  reasons ${reasons}`,
      `  ${report.expired ? 'expired' : 'expires'} ${report.expires_at ?? '(no expiry stored)'}${report.expired ? ' (GET answers 404)' : ''}`,
    ].join('\n'),
  };
}
