// Every field of a decision and of a policy comes back from DynamoDB as it went in, through every read: a field the
// stores forgot would be answered by POST and PUT, then silently dropped by GET, the list, a replay or a cache load.
// The samples are `Required<...>` of the domain types, so a new field does not compile until it is given a value here.
import { createHash } from 'node:crypto';
import type { Decision } from '../../lambdas/domain/decision';
import { newDecisionId } from '../../lambdas/domain/ids';
import type { WorkspacePolicy } from '../../lambdas/domain/policy';
import { DynamoDecisionBatchStore } from '../../lambdas/stores/decision-batch-store';
import { DynamoDecisionListStore } from '../../lambdas/stores/decision-list-store';
import { DynamoDecisionStore, idempotencyPk } from '../../lambdas/stores/decision-store';
import { getItem } from '../../lambdas/stores/dynamodb-client';
import { idempotencyRequest } from '../../lambdas/domain/idempotency';
import { canonicalJson } from '../../lambdas/domain/json-walk';
import { DynamoFeedbackStore } from '../../lambdas/stores/feedback-store';
import { DynamoWorkspaceStore } from '../../lambdas/stores/workspace-store';
import { type TestTables, createTestTables } from '../support/dynamodb';

let tables: TestTables;
beforeAll(async () => {
  tables = await createTestTables('storedfields');
});
afterAll(() => tables.drop());

const OWNER = { partner_id: 'acme', key_id: 'key_test' };

function sampleDecision(workspaceId: string): Required<Decision> {
  const now = Date.now();
  return {
    decision_id: newDecisionId(now),
    workspace_id: workspaceId,
    priority: 'high',
    score: 75,
    recommended_action: 'respond_now',
    category: 'incident',
    queue: 'engineering',
    reasons: [{ code: 'OUTAGE_LANGUAGE', message: 'mentions a production outage ("outage")', weight: 45 }],
    source: 'email',
    received_at: '2026-11-21T09:30:00Z',
    created_at: new Date(now).toISOString(),
    model_version: 'rules-3',
    confidence: 0.84,
    language: 'en',
    sentiment: 'negative',
    respond_by: '2026-11-21T13:30:00.000Z',
    policy_version: 3,
  };
}

const SAMPLE_POLICY: Required<WorkspacePolicy> = {
  vip_senders: ['ceo@acme.example', '@board.acme.example'],
  trusted_senders: ['@partner.example'],
  blocked_senders: ['spam@junk.example'],
  keywords: [{ phrase: 'chargeback', weight: 15, category: 'disputes', queue: 'finance_disputes' }],
  categories: [{ name: 'disputes', queue: 'finance_disputes', description: 'card disputes' }],
  routing: { billing: 'finance' },
  thresholds: { critical: 85, high: 65, medium: 40 },
  response_minutes: { critical: 30, high: 120, medium: 600, low: 2_880 },
  learning: false,
};

describe('a decision', () => {
  const decisions = () => new DynamoDecisionStore(tables.client, tables.names.decisions, 90);

  it('comes back whole from GET, the list, a batch read and a feedback target', async () => {
    const decision = sampleDecision('ws_fields');
    expect(await decisions().save(decision, OWNER)).toEqual({ kind: 'created', decision });

    expect(await decisions().get(decision.decision_id)).toEqual(decision);
    const list = await new DynamoDecisionListStore(tables.client, tables.names.decisions).list({
      workspaceId: 'ws_fields',
      limit: 10,
      nowMs: Date.now(),
    });
    expect(list.decisions).toEqual([decision]);
    const batch = new DynamoDecisionBatchStore(tables.client, tables.names.decisions, 90);
    expect((await batch.getMany([decision.decision_id])).get(decision.decision_id)).toEqual(decision);
    const target = await new DynamoFeedbackStore(
      tables.client,
      tables.names.decisions,
      tables.names.learning,
    ).getTarget(decision.decision_id);
    expect(target?.decision).toEqual(decision);
  });

  it('comes back whole, in the same field order, when an Idempotency-Key replays it', async () => {
    const decision = sampleDecision('ws_replay');
    const idempotency = { keyHash: 'k'.repeat(64), requestHash: 'r'.repeat(64) };
    await decisions().save(decision, OWNER, idempotency);
    const again = await decisions().save({ ...decision, decision_id: newDecisionId() }, OWNER, idempotency);
    expect(again).toEqual({ kind: 'replayed', decision });
    expect(Object.keys(again.kind === 'replayed' ? again.decision : {})).toEqual(Object.keys(decision));
  });

  it("keys the stored request hash by the Idempotency-Key, and replays a record that holds the body's SHA-256", async () => {
    // A security review recovered a one-time code from a record's plain SHA-256 of the body in two seconds. Records
    // written before the keyed hash (up to 24 hours old at a deploy) still replay their retries.
    const body = { workspace_id: 'ws_legacy', source: 'email', subject: 'Your one-time code is 731904' };
    const plain = createHash('sha256').update(canonicalJson(body)).digest('hex');
    const request = idempotencyRequest('retry-across-the-deploy', body);
    const decision = sampleDecision('ws_legacy');
    await decisions().save(decision, OWNER, { keyHash: request.keyHash, requestHash: plain });
    const retry = () => ({ ...sampleDecision('ws_legacy'), decision_id: newDecisionId() });
    expect(await decisions().save(retry(), OWNER, request)).toEqual({ kind: 'replayed', decision });
    const other = idempotencyRequest('retry-across-the-deploy', { ...body, subject: 'Your one-time code is 000000' });
    expect(await decisions().save(retry(), OWNER, other)).toEqual({ kind: 'conflict' });

    const fresh = idempotencyRequest('a-new-key', body);
    await decisions().save(sampleDecision('ws_legacy'), OWNER, fresh);
    const stored = await getItem(tables.client, tables.names.decisions, idempotencyPk(OWNER.partner_id, fresh.keyHash));
    expect(stored?.request_hash).toBe(fresh.requestHash);
    expect(JSON.stringify(stored)).not.toContain(plain);
    expect(fresh.requestHash).not.toBe(idempotencyRequest('another-key', body).requestHash);
  });
});

describe('a policy', () => {
  const workspaces = () => new DynamoWorkspaceStore(tables.client, tables.names.decisions, tables.names.learning);

  it('keeps every setting through PUT, GET and a workspace load', async () => {
    const put = await workspaces().putPolicy('ws_policy', SAMPLE_POLICY, undefined, new Date().toISOString(), {
      actor: 'local:test',
    });
    expect(put).toEqual({ kind: 'stored', policy: expect.objectContaining(SAMPLE_POLICY) });
    const read = await workspaces().getPolicy('ws_policy');
    expect(read).toEqual({ ...SAMPLE_POLICY, version: 1, updated_at: expect.any(String) });
    expect((await workspaces().loadState('ws_policy')).policy).toEqual(read);
  });
});
