// Version 4 stores a decision compactly (lambdas/stores/decision-format.ts) so that its item fits one write unit; what
// partners read must not change. A decision item written by version 3 (put here as it wrote it) and a compact one
// come back identically through every read: GET, the list (both listing indexes, with a priority filter), a batch
// replay's read, a feedback's target (after a feedback, too), the cursor check and the feedback report.
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Decision } from '../../lambdas/domain/decision';
import { newDecisionId } from '../../lambdas/domain/ids';
import { encodeSketch } from '../../lambdas/domain/learning/sketch';
import { DynamoDecisionBatchStore } from '../../lambdas/stores/decision-batch-store';
import { DynamoDecisionListStore } from '../../lambdas/stores/decision-list-store';
import { DynamoDecisionStore } from '../../lambdas/stores/decision-store';
import { DynamoFeedbackStore } from '../../lambdas/stores/feedback-store';
import { dynamoItemBytes } from '../../bin/bench/cost-model';
import { type TestTables, createRetiredListTable, createTestTables } from '../support/dynamodb';

let tables: TestTables;
beforeAll(async () => {
  tables = await createTestTables('itemformat');
});
afterAll(() => tables.drop());

const OWNER = { partner_id: 'acme', key_id: 'key_test' };
const SKETCH = encodeSketch({ t: [3, 70, 1_200, 16_000], f: 2, s: 42, d: 7 });

function decisionAt(ms: number, workspaceId: string, over: Partial<Decision> = {}): Decision {
  return {
    decision_id: newDecisionId(ms),
    workspace_id: workspaceId,
    priority: 'high',
    score: 72,
    recommended_action: 'respond_now',
    category: 'billing',
    queue: 'finance',
    reasons: [
      { code: 'PAYMENT_FAILURE', message: 'reports a payment or billing failure ("charged twice")', weight: 30 },
      { code: 'FRUSTRATION', message: 'expresses frustration ("fed up")', weight: 5 },
    ],
    source: 'email',
    received_at: '2026-11-20T10:00:00Z',
    created_at: new Date(ms).toISOString(),
    model_version: 'rules-3',
    confidence: 0.9,
    language: 'en',
    sentiment: 'negative',
    respond_by: '2026-11-20T14:00:00.000Z',
    policy_version: 2,
    ...over,
  };
}

/** A decision item exactly as version 3's store wrote it (decision-store.ts's decisionItem at 4b5b508). */
function version3Item(decision: Decision) {
  return {
    sketch: SKETCH,
    pk: `decision#${decision.decision_id}`,
    decision,
    workspace_priority: `${decision.workspace_id}#${decision.priority}`,
    workspace_id: decision.workspace_id,
    decision_id: decision.decision_id,
    partner_id: OWNER.partner_id,
    key_id: OWNER.key_id,
    expires_at: Math.floor(Date.parse(decision.created_at) / 1000) + 90 * 86_400,
  };
}

/** Every read of a decision that partners can reach, by id; each must answer `expected`. */
async function expectReadsAsIs(client: typeof tables.client, table: string, expected: Decision) {
  const id = expected.decision_id;
  const got = await new DynamoDecisionStore(client, table, 90).get(id);
  expect(got).toEqual(expected);
  expect(JSON.stringify(got)).toBe(JSON.stringify(expected));
  const many = await new DynamoDecisionBatchStore(client, table, 90).getMany([id]);
  expect(JSON.stringify(many.get(id))).toBe(JSON.stringify(expected));
  const target = await new DynamoFeedbackStore(client, table, tables.names.learning).getTarget(id);
  expect(JSON.stringify(target?.decision)).toBe(JSON.stringify(expected));
  expect(await new DynamoDecisionListStore(client, table).workspaceOf(id)).toBe(expected.workspace_id);
}

describe('a decision item', () => {
  const now = Date.now();
  const old = decisionAt(now - 3_000, 'ws_format');
  const oldV1 = (() => {
    const {
      confidence: _c,
      language: _l,
      sentiment: _s,
      respond_by: _r,
      policy_version: _p,
      ...v1
    } = decisionAt(now - 2_000, 'ws_format', { priority: 'low', score: 20 });
    return v1 as Decision;
  })();
  const fresh = decisionAt(now - 1_000, 'ws_format', { received_at: '2026-11-20T10:00:00.250Z', respond_by: null });
  /** The compact item as the store wrote it: read at once, before the feedback test (any order) adds to it. */
  let written: Record<string, unknown>;

  beforeAll(async () => {
    for (const d of [old, oldV1])
      await tables.client.send(new PutCommand({ TableName: tables.names.decisions, Item: version3Item(d) }));
    await new DynamoDecisionStore(tables.client, tables.names.decisions, 90).save(fresh, OWNER, undefined, {
      sketch: SKETCH,
    });
    const key = { pk: `decision#${fresh.decision_id}` };
    written = (await tables.client.send(new GetCommand({ TableName: tables.names.decisions, Key: key }))).Item!;
  });

  it('written by version 3 reads back exactly as stored, through every read', async () => {
    await expectReadsAsIs(tables.client, tables.names.decisions, old);
    // A version 1 decision keeps lacking the fields it was stored without.
    await expectReadsAsIs(tables.client, tables.names.decisions, oldV1);
  });

  it('is stored compactly now, smaller than version 3 wrote the same decision, and reads back exactly', async () => {
    expect(written.decision).not.toHaveProperty('decision_id');
    expect(written.decision_id).toBe(fresh.decision_id);
    expect(dynamoItemBytes(written)).toBeLessThan(dynamoItemBytes(version3Item(fresh)) - 150);
    await expectReadsAsIs(tables.client, tables.names.decisions, fresh);
  });

  it('of either format is listed as answered, in one page, filtered or not, and in the feedback report', async () => {
    const list = new DynamoDecisionListStore(tables.client, tables.names.decisions);
    const page = await list.list({ workspaceId: 'ws_format', limit: 10, nowMs: Date.now() });
    expect(JSON.stringify(page)).toBe(JSON.stringify({ decisions: [fresh, oldV1, old], hasMore: false }));
    const high = await list.list({ workspaceId: 'ws_format', limit: 10, nowMs: Date.now(), priorities: ['high'] });
    expect(JSON.stringify(high.decisions)).toBe(JSON.stringify([fresh, old]));
    const report = [];
    for await (const row of list.decisionsWithFeedback('ws_format')) report.push(row.decision);
    expect(JSON.stringify(report)).toBe(JSON.stringify([old, oldV1, fresh]));
  });

  it('of either format takes feedback, and still reads the same after it', async () => {
    const feedback = new DynamoFeedbackStore(tables.client, tables.names.decisions, tables.names.learning);
    for (const d of [old, fresh]) {
      const target = (await feedback.getTarget(d.decision_id))!;
      expect(target.sketch).toBeDefined();
      expect(await feedback.record(target, { category: 'refund' }, {}, new Date().toISOString())).toEqual({});
      const after = (await feedback.getTarget(d.decision_id))!;
      expect(after).toMatchObject({ feedback: { fields: { category: 'refund' } }, seq: 1 });
      await expectReadsAsIs(tables.client, tables.names.decisions, d);
    }
  });
});

it('of either format is listed, filtered by priority, from the listing index an upgrading table still reads', async () => {
  // A table as version 2 deployed it (decision_list, partition `workspace_id`): the list reads it until it is gone.
  const name = `${tables.names.decisions}-retired`;
  const { client } = await createRetiredListTable(name);
  try {
    const now = Date.now();
    const [old, oldLow, fresh, freshLow] = [
      decisionAt(now - 4_000, 'ws_retired'),
      decisionAt(now - 3_000, 'ws_retired', { priority: 'low' }),
      decisionAt(now - 2_000, 'ws_retired'),
      decisionAt(now - 1_000, 'ws_retired', { priority: 'low' }),
    ];
    for (const d of [old, oldLow]) await client.send(new PutCommand({ TableName: name, Item: version3Item(d) }));
    const store = new DynamoDecisionStore(client, name, 90);
    for (const d of [fresh, freshLow]) await store.save(d, OWNER);
    const list = new DynamoDecisionListStore(client, name);
    const high = await list.list({ workspaceId: 'ws_retired', limit: 10, nowMs: Date.now(), priorities: ['high'] });
    expect(JSON.stringify(high.decisions)).toBe(JSON.stringify([fresh, old]));
    const all = await list.list({ workspaceId: 'ws_retired', limit: 10, nowMs: Date.now() });
    expect(JSON.stringify(all.decisions)).toBe(JSON.stringify([freshLow, fresh, oldLow, old]));
  } finally {
    await client.send(new DeleteTableCommand({ TableName: name })).catch(() => undefined);
    client.destroy();
  }
});
