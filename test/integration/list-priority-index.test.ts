// Issue 33, finding 12: a page filtered by priority reads about `limit` items, whatever the priority values and their
// combination (docs/partners.md, "Listing decisions"): the listing index is partitioned by workspace and priority. It
// used to read the whole workspace (3,000 decisions for a page of critical ones). Counted here as DynamoDB reports it
// (ScannedCount of every Query: the items a Query reads and is billed for); the timing is in `npm run bench`.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Decision, Priority } from '../../lambdas/domain/decision';
import { newDecisionId } from '../../lambdas/domain/ids';
import { createDocumentClient } from '../../lambdas/stores/dynamodb-client';
import { DynamoDecisionBatchStore } from '../../lambdas/stores/decision-batch-store';
import { DynamoDecisionListStore } from '../../lambdas/stores/decision-list-store';
import { type TestTables, createTestTables, testEndpoint } from '../support/dynamodb';

jest.setTimeout(180_000);

const WS = 'ws_priority_pages';
const TOTAL = 3_000;
/** Every 300th decision is critical, every 100th (others) high, every 10th medium: a workspace of mostly low. */
const priorityOf = (i: number): Priority =>
  i % 300 === 0 ? 'critical' : i % 100 === 0 ? 'high' : i % 10 === 0 ? 'medium' : 'low';

let tables: TestTables;
let client: DynamoDBDocumentClient;
let itemsRead = 0;
const made: Decision[] = [];

beforeAll(async () => {
  tables = await createTestTables('prio-list');
  client = createDocumentClient({ endpoint: testEndpoint(), requestTimeoutMs: 10_000 });
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const out = await next(args);
      if (context.commandName === 'QueryCommand')
        itemsRead += Number((out.output as { ScannedCount?: number }).ScannedCount ?? 0);
      return out;
    },
    { step: 'initialize', name: 'itemsReadMeter' },
  );
  const start = Date.now() - TOTAL * 1_000;
  for (let i = 0; i < TOTAL; i++) {
    const at = start + i * 1_000;
    made.push({
      decision_id: newDecisionId(at),
      workspace_id: WS,
      priority: priorityOf(i),
      score: 10,
      recommended_action: 'review',
      category: 'general',
      queue: 'support',
      reasons: [],
      source: 'email',
      received_at: new Date(at).toISOString(),
      created_at: new Date(at).toISOString(),
      model_version: 'rules-test',
    } as unknown as Decision);
  }
  const store = new DynamoDecisionBatchStore(client, tables.names.decisions, 90);
  // 100 at a time (four batch writes), so a loaded machine's DynamoDB Local is not flooded with connections.
  for (let i = 0; i < TOTAL; i += 100)
    await store.putMany(made.slice(i, i + 100), { partner_id: 'acme', key_id: 'key_test' });
});
afterAll(async () => {
  client?.destroy();
  await tables?.drop();
});

async function page(priorities: Priority[] | undefined, limit = 20) {
  const store = new DynamoDecisionListStore(client, tables.names.decisions);
  itemsRead = 0;
  const result = await store.list({ workspaceId: WS, limit, nowMs: Date.now(), priorities });
  return { ...result, itemsRead };
}

const newest = (priorities: Priority[] | undefined, n: number) =>
  made
    .filter((d) => !priorities || priorities.includes(d.priority))
    .reverse()
    .slice(0, n)
    .map((d) => d.decision_id);

it.each<[string, Priority[] | undefined]>([
  ['no filter', undefined],
  ['critical', ['critical']],
  ['high', ['high']],
  ['medium', ['medium']],
  ['low', ['low']],
  ['critical,high', ['critical', 'high']],
  ['high,low', ['high', 'low']],
  ['critical,high,medium', ['critical', 'high', 'medium']],
  ['all four', ['critical', 'high', 'medium', 'low']],
])('a page of 20 with priority %s reads about 20 of the 3,000 decisions', async (_, priorities) => {
  const result = await page(priorities);
  expect(result.decisions.map((d) => d.decision_id)).toEqual(newest(priorities, 20));
  expect(result.hasMore).toBe(newest(priorities, TOTAL).length > 20);
  // limit + 1, and at most one small first page of each partition besides: never the workspace.
  expect(result.itemsRead).toBeLessThanOrEqual(2 * 21 + 4);
});

it('pages through one priority exactly once with starting_after', async () => {
  const store = new DynamoDecisionListStore(client, tables.names.decisions);
  const seen: string[] = [];
  let startingAfter: string | undefined;
  for (;;) {
    const result = await store.list({
      workspaceId: WS,
      limit: 4,
      nowMs: Date.now(),
      priorities: ['critical'],
      startingAfter,
    });
    seen.push(...result.decisions.map((d) => d.decision_id));
    if (!result.hasMore) break;
    startingAfter = seen[seen.length - 1];
  }
  expect(seen).toEqual(newest(['critical'], TOTAL));
  expect(seen).toHaveLength(10);
});

it('gives the feedback report every decision of the workspace, oldest first', async () => {
  const store = new DynamoDecisionListStore(client, tables.names.decisions);
  const ids: string[] = [];
  for await (const row of store.decisionsWithFeedback(WS)) ids.push(String(row.decision.decision_id));
  expect(ids).toEqual(made.map((d) => d.decision_id));
});
