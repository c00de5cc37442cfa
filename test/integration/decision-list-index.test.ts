// The listing index copies only what a listed decision needs (issue 23, "Corrections at the price of a write"): a
// feedback's update of its decision writes nothing to it, the list and the feedback report answer as before, and a
// table upgraded in place (the old index still there, the new one not yet built) keeps listing.
import { CreateTableCommand, DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { analyzeSignal } from '../../lambdas/application/analyze-signal';
import { DECISIONS_TABLE, RETIRED_DECISIONS_BY_WORKSPACE_INDEX, createTableInput } from '../../lambdas/contract/tables';
import type { FeedbackFields } from '../../lambdas/domain/ports';
import { recordFeedback } from '../../lambdas/application/record-feedback';
import { createDocumentClient } from '../../lambdas/stores/dynamodb-client';
import { DynamoDecisionStore } from '../../lambdas/stores/decision-store';
import { DynamoDecisionListStore } from '../../lambdas/stores/decision-list-store';
import { DynamoFeedbackStore } from '../../lambdas/stores/feedback-store';
import { testEndpoint } from '../support/dynamodb';
import type { Service } from '../../lambdas/service';
import { serviceForFile } from '../support/local-api';

const world = serviceForFile('listindex');

const signal = (ws: string, i: number) => ({
  workspace_id: ws,
  source: 'support_message' as const,
  subject: `Refund for order ${i}`,
  body: `Hello, I was charged twice for order ${i} and would like a refund of the second charge, please.`,
  sender: `client${i}@shop.example`,
  received_at: '2026-11-20T10:00:00Z',
});

async function decide(
  decisionStore: DynamoDecisionStore | Service['dependencies']['decisionStore'],
  ws: string,
  i: number,
) {
  const workspace = await world.service.dependencies.workspaces.get(ws);
  const outcome = await analyzeSignal(signal(ws, i), { partner_id: 'acme', key_id: 'key_test' }, decisionStore, {
    nowMs: Date.now(),
    workspace,
  });
  if (outcome.kind !== 'created') throw new Error(outcome.kind);
  return outcome.decision;
}

async function giveFeedback(store: DynamoFeedbackStore, ws: string, decisionId: string, fields: FeedbackFields) {
  const target = await store.getTarget(decisionId);
  const workspace = await world.service.dependencies.workspaces.get(ws);
  const out = await recordFeedback(target!, fields, store, workspace, new Date().toISOString());
  expect(out.kind).toBe('recorded');
}

describe('the decision_list index', () => {
  it('is not written by a feedback: its update of the decision is billed on the table alone', async () => {
    const client = createDocumentClient({ endpoint: testEndpoint(), requestTimeoutMs: 4_000 });
    const indexUnits: { command: string; pk: string; units: number }[] = [];
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as { ReturnConsumedCapacity?: string; Key?: { pk?: string } };
        input.ReturnConsumedCapacity = 'INDEXES';
        const out = await next(args);
        const consumed = (out.output as { ConsumedCapacity?: { GlobalSecondaryIndexes?: object } }).ConsumedCapacity;
        const units = Object.values(consumed?.GlobalSecondaryIndexes ?? {}).reduce(
          (sum: number, c: { CapacityUnits?: number }) => sum + Number(c.CapacityUnits ?? 0),
          0,
        );
        indexUnits.push({ command: String(context.commandName), pk: String(input.Key?.pk ?? ''), units });
        return out;
      },
      { step: 'initialize', name: 'testIndexMeter' },
    );
    try {
      const ws = 'ws_list_index_feedback';
      const decisions = new DynamoDecisionStore(client, world.tables.names.decisions, 90);
      const decision = await decide(decisions, ws, 1);
      // The decision's own put lands in the index (it is listed).
      expect(indexUnits.filter((c) => c.command === 'PutItemCommand').map((c) => c.units)).toEqual([1]);
      indexUnits.length = 0;
      const feedback = new DynamoFeedbackStore(client, world.tables.names.decisions);
      await giveFeedback(feedback, ws, decision.decision_id, { category: 'billing', priority: 'high' });
      await giveFeedback(feedback, ws, decision.decision_id, { category: 'refund' });
      const decisionUpdates = indexUnits.filter(
        (c) => c.pk === `decision#${decision.decision_id}` && c.command === 'UpdateItemCommand',
      );
      expect(decisionUpdates).toHaveLength(2);
      expect(decisionUpdates.map((c) => c.units)).toEqual([0, 0]);
    } finally {
      client.destroy();
    }
  });

  it('lists exactly the decisions as answered, and the feedback report still sees the feedback', async () => {
    const ws = 'ws_list_index_report';
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await decide(world.service.dependencies.decisionStore, ws, i));
    const feedback = new DynamoFeedbackStore(world.service.dependencies.client, world.tables.names.decisions);
    await giveFeedback(feedback, ws, made[1].decision_id, { category: 'refund' });
    const list = new DynamoDecisionListStore(world.service.dependencies.client, world.tables.names.decisions);
    const page = await list.list({ workspaceId: ws, limit: 10, nowMs: Date.now() });
    expect(page).toEqual({ decisions: [...made].reverse(), hasMore: false });
    const report = [];
    for await (const row of list.decisionsWithFeedback(ws)) report.push(row);
    expect(report.map((r) => [r.decision.decision_id, r.feedback])).toEqual([
      [made[0].decision_id, undefined],
      [made[1].decision_id, { category: 'refund' }],
      [made[2].decision_id, undefined],
    ]);
  });

  it('falls back to the index it replaced while a table upgraded in place does not have it yet', async () => {
    // The table as an earlier version deployed it: the listing index copying every attribute, no decision_list.
    const name = `${world.tables.names.decisions}-old`;
    const old = createTableInput(
      {
        ...DECISIONS_TABLE,
        indexes: [...DECISIONS_TABLE.retiredIndexes!, ...DECISIONS_TABLE.indexes.slice(1)],
      },
      name,
    );
    expect(old.GlobalSecondaryIndexes?.[0].IndexName).toBe(RETIRED_DECISIONS_BY_WORKSPACE_INDEX);
    const client = createDocumentClient({ endpoint: testEndpoint(), requestTimeoutMs: 4_000 });
    await client.send(new CreateTableCommand(old));
    try {
      const ws = 'ws_list_index_upgrade';
      const decisions = new DynamoDecisionStore(client, name, 90);
      const made = [await decide(decisions, ws, 1), await decide(decisions, ws, 2)];
      const list = new DynamoDecisionListStore(client, name);
      const page = await list.list({ workspaceId: ws, limit: 1, nowMs: Date.now() });
      expect(page).toEqual({ decisions: [made[1]], hasMore: true });
      const report = [];
      for await (const row of list.decisionsWithFeedback(ws)) report.push(row.decision.decision_id);
      expect(report).toEqual(made.map((d) => d.decision_id));
    } finally {
      await client.send(new DeleteTableCommand({ TableName: name })).catch(() => undefined);
      client.destroy();
    }
  });
});
