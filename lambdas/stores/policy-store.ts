// Policies in the decisions table (`policy#` items): read, and replaced whole with their audit event and the learning
// entry that tells the containers' next check to read the policy again (learning-items.ts writes that entry).
import { type DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { changedFields } from '../domain/audit';
import { EMPTY_POLICY, type StoredPolicy, type WorkspacePolicy, policySettings } from '../domain/policy';
import type { AuditActor, PolicyWrite, WorkspaceStore } from '../domain/ports';
import { ITEM_PREFIX } from '../contract/tables';
import { auditEventPut } from './audit-log';
import { cancellationReasons } from './database-faults';
import { getItem } from './dynamodb-client';
import { policyEntryPut } from './learning-items';
import { AGAIN, retrying } from '../domain/retry';

function policyFrom(item: Record<string, unknown> | undefined): StoredPolicy {
  if (!item) return { ...EMPTY_POLICY };
  const settings = policySettings((item.policy ?? {}) as Record<string, unknown>);
  return { ...settings, version: Number(item.version), updated_at: item.updated_at as string | null };
}

export class DynamoPolicyStore implements Pick<WorkspaceStore, 'getPolicy' | 'putPolicy'> {
  constructor(
    protected readonly client: DynamoDBDocumentClient,
    protected readonly tableName: string,
    protected readonly learningTable: string,
  ) {}

  async getPolicy(workspaceId: string): Promise<StoredPolicy> {
    return policyFrom(await getItem(this.client, this.tableName, ITEM_PREFIX.policy + workspaceId));
  }

  async putPolicy(
    workspaceId: string,
    policy: WorkspacePolicy,
    ifMatch: number | undefined,
    now: string,
    by: AuditActor,
  ): Promise<PolicyWrite> {
    const pk = ITEM_PREFIX.policy + workspaceId;
    const sent: Record<string, unknown> = { ...policySettings(policy as Record<string, unknown>) };
    return retrying<PolicyWrite>('policy change', async (attempt) => {
      // A retry is a later write: its updated_at and event time say so (events list in time order).
      if (attempt > 0) now = new Date().toISOString();
      // Read first: the event records what the policy was. The write is conditional on the version read, so a
      // concurrent PUT makes this one read again (and each leaves its own event).
      const read = await getItem(this.client, this.tableName, pk);
      const stored = policyFrom(read);
      const version = read ? stored.version : 0;
      if (ifMatch !== undefined && ifMatch !== version) return { kind: 'precondition_failed' as const, version };
      const { version: _v, updated_at: _u, ...was } = stored as unknown as Record<string, unknown>;
      const diff = changedFields(was, sent);
      try {
        await this.client.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: this.tableName,
                  Key: { pk },
                  UpdateExpression: 'SET #policy = :policy, updated_at = :now, workspace_key = :ws, #version = :next',
                  ConditionExpression: read ? '#version = :read' : 'attribute_not_exists(pk)',
                  ExpressionAttributeNames: { '#policy': 'policy', '#version': 'version' },
                  ExpressionAttributeValues: {
                    ':policy': policy,
                    ':now': now,
                    ':ws': workspaceId,
                    ':next': version + 1,
                    ...(read ? { ':read': version } : {}),
                  },
                },
              },
              policyEntryPut(this.learningTable, workspaceId, version + 1),
              auditEventPut(
                this.tableName,
                {
                  actor: by.actor,
                  action: 'policy.put',
                  target: { workspace_id: workspaceId, ...(by.partner_id ? { partner_id: by.partner_id } : {}) },
                  before: { ...diff.before, version },
                  after: { ...diff.after, version: version + 1 },
                },
                new Date(now),
              ),
            ],
          }),
        );
        return { kind: 'stored' as const, policy: policyFrom({ policy, version: version + 1, updated_at: now }) };
      } catch (err) {
        const raced = cancellationReasons(err).some(
          (c) => c === 'ConditionalCheckFailed' || c === 'TransactionConflict',
        );
        if (!raced) throw err;
        return AGAIN;
      }
    });
  }
}
