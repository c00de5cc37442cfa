// The listing index copies only what a listed decision needs (issue 23, "Corrections at the price of a write"): a
// feedback's update of its decision writes nothing to it, the list and the feedback report answer as before, and a
// table upgraded in place (the old index still there, the new one not yet built) keeps listing.
import { CreateTableCommand, DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { analyzeSignal } from '../../lambdas/application/analyze-signal';
import { DECISIONS_TABLE, RETIRED_DECISION_LIST_INDEX, createTableInput } from '../../lambdas/contract/tables';
import type { Decision } from '../../lambdas/domain/decision';
import type { FeedbackFields } from '../../lambdas/domain/ports';
import { BatchWriteCommand, type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ensureTables } from '../../lib/local/provision';
import { backfillDecisionListPartitions } from '../../lambdas/stores/decision-list-backfill';
import { recordFeedback } from '../../lambdas/application/record-feedback';
import { createDocumentClient } from '../../lambdas/stores/dynamodb-client';
import { DynamoDecisionStore } from '../../lambdas/stores/decision-store';
import { DynamoDecisionListStore } from '../../lambdas/stores/decision-list-store';
import { DynamoFeedbackStore } from '../../lambdas/stores/feedback-store';
import { createRetiredListTable, testEndpoint } from '../support/dynamodb';
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

/** The decisions as a version before the listing partition stored them: without `workspace_priority`. */
async function withoutListPartition(client: DynamoDBDocumentClient, table: string, made: readonly Decision[]) {
  for (const d of made)
    await client.send(
      new UpdateCommand({
        TableName: table,
        Key: { pk: `decision#${d.decision_id}` },
        UpdateExpression: 'REMOVE workspace_priority',
      }),
    );
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
        const input = args.input as {
          ReturnConsumedCapacity?: string;
          Key?: { pk?: string };
          TransactItems?: { Update?: { Key?: { pk?: string } } }[];
        };
        input.ReturnConsumedCapacity = 'INDEXES';
        const out = await next(args);
        // One entry, or one per table for a transaction (the feedback's: the decision and its learning entry).
        type Consumed = { GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }> };
        const consumed = [(out.output as { ConsumedCapacity?: Consumed | Consumed[] }).ConsumedCapacity ?? []].flat();
        const units = consumed
          .flatMap((c) => Object.values(c.GlobalSecondaryIndexes ?? {}))
          .reduce((sum, c) => sum + Number(c.CapacityUnits ?? 0), 0);
        const pk = input.Key?.pk ?? input.TransactItems?.find((t) => t.Update)?.Update?.Key?.pk;
        indexUnits.push({ command: String(context.commandName), pk: String(pk ?? ''), units });
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
      const feedback = new DynamoFeedbackStore(client, world.tables.names.decisions, world.tables.names.learning);
      await giveFeedback(feedback, ws, decision.decision_id, { category: 'billing', priority: 'high' });
      await giveFeedback(feedback, ws, decision.decision_id, { category: 'refund' });
      const decisionUpdates = indexUnits.filter(
        (c) =>
          c.pk === `decision#${decision.decision_id}` &&
          (c.command === 'UpdateItemCommand' || c.command === 'TransactWriteItemsCommand'),
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
    const feedback = new DynamoFeedbackStore(
      world.service.dependencies.client,
      world.tables.names.decisions,
      world.tables.names.learning,
    );
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
    const { client, input: old } = await createRetiredListTable(name);
    expect(old.GlobalSecondaryIndexes?.[0].IndexName).toBe(RETIRED_DECISION_LIST_INDEX);
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

  it('upgrades a table of 0.2.0, which had neither listing index, and lists its decisions', async () => {
    // 0.2.0 listed through an index of its own that no later version names: local mode gave such a table the new
    // index and no partitions, so every old decision dropped out of the list (an upgrade review).
    const name = `${world.tables.names.decisions}-v020`;
    const client = createDocumentClient({ endpoint: testEndpoint(), requestTimeoutMs: 4_000 });
    // 0.2.0's table (git show 1a6b4e2:lambdas/contract/tables.ts): one index, which no later version names. Both of
    // today's are missing, and DynamoDB builds one at a time.
    const v020 = { indexName: 'decisions_by_workspace', partitionKey: 'workspace_id', sortKey: 'decision_id' };
    const input = createTableInput({ ...DECISIONS_TABLE, indexes: [v020], retiredIndexes: [] }, name);
    await client.send(new CreateTableCommand(input));
    try {
      const ws = 'ws_list_index_v020';
      const decisions = new DynamoDecisionStore(client, name, 90);
      const made = [await decide(decisions, ws, 1), await decide(decisions, ws, 2)];
      await withoutListPartition(client, name, made);
      // Other items, so that building an index takes DynamoDB Local a while (a second Create meanwhile is refused).
      for (let i = 0; i < 2_000; i += 25)
        await client.send(
          new BatchWriteCommand({
            RequestItems: {
              [name]: Array.from({ length: 25 }, (_, j) => ({
                PutRequest: {
                  Item: {
                    pk: `filler#${i + j}`,
                    ...{ workspace_priority: 'ws_filler#low', decision_id: `dec_${i + j}` },
                    ...{ audit_log: `2026-11#${j % 8}`, event_id: `e${i + j}` },
                  },
                },
              })),
            },
          }),
        );
      await ensureTables(client, { access: `${name}-access`, decisions: name, learning: `${name}-learning` });
      const listed = await new DynamoDecisionListStore(client, name).list({
        workspaceId: ws,
        limit: 10,
        nowMs: Date.now(),
      });
      expect(listed.decisions).toEqual([...made].reverse());
    } finally {
      for (const table of [name, `${name}-access`, `${name}-learning`])
        await client.send(new DeleteTableCommand({ TableName: table })).catch(() => undefined);
      client.destroy();
    }
  });

  it('upgrades in place: old decisions get their partition, and are listed by priority once the old index is gone', async () => {
    // Step 0: a table as the version before deployed it (decision_list, no decisions_by_priority), with its decisions
    // stored without the new partition attribute.
    const name = `${world.tables.names.decisions}-prio`;
    const { client } = await createRetiredListTable(name);
    try {
      const ws = 'ws_list_index_prio_upgrade';
      const decisions = new DynamoDecisionStore(client, name, 90);
      const made = [await decide(decisions, ws, 1), await decide(decisions, ws, 2), await decide(decisions, ws, 3)];
      await withoutListPartition(client, name, made);
      const priority = made[0].priority;
      const expected = [...made].reverse().filter((d) => d.priority === priority);
      // Steps 1 and 2 (the old index still there): the list reads it, filter and all.
      const before = await new DynamoDecisionListStore(client, name).list({
        workspaceId: ws,
        limit: 10,
        nowMs: Date.now(),
        priorities: [priority],
      });
      expect(before.decisions).toEqual(expected);
      // Local mode's upgrade: adds decisions_by_priority, gives old decisions their partition, drops decision_list.
      await ensureTables(client, { access: `${name}-access`, decisions: name, learning: `${name}-learning` });
      const after = new DynamoDecisionListStore(client, name);
      expect(await after.list({ workspaceId: ws, limit: 10, nowMs: Date.now(), priorities: [priority] })).toEqual({
        decisions: expected,
        hasMore: false,
      });
      expect((await after.list({ workspaceId: ws, limit: 10, nowMs: Date.now() })).decisions).toEqual(
        [...made].reverse(),
      );
      // Run again, the backfill finds nothing left to do.
      expect(await backfillDecisionListPartitions(client, name)).toEqual({ found: 0, updated: 0 });
    } finally {
      for (const table of [name, `${name}-access`])
        await client.send(new DeleteTableCommand({ TableName: table })).catch(() => undefined);
      client.destroy();
    }
  });
});
