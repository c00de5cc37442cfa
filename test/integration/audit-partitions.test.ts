// Audit events spread over the audit index's partitions (a month and a shard each) instead of one, and `audit list`
// merging them newest first with its filters, `--since` and `--limit`, the events stored before the upgrade (one
// partition, `audit_log` = "audit", written here as that version wrote them) included. DynamoDB Local.
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { AUDIT_BY_TIME_INDEX } from '../../lambdas/contract/tables';
import { type AuditEventInput, newAuditEventId } from '../../lambdas/domain/audit';
import { auditEventPut } from '../../lambdas/stores/audit-log';
import { DynamoAuditLog } from '../../lambdas/stores/audit-store';
import { type TestTables, createTestTables } from '../support/dynamodb';

// Tables of its own for each test: the unfiltered listing counts every event of the table, exactly what the test wrote.
let tables: TestTables;
let log: DynamoAuditLog;
beforeEach(async () => {
  tables = await createTestTables('auditparts');
  log = new DynamoAuditLog(tables.client, tables.names.decisions);
});
afterEach(async () => tables?.drop());

const NOW = Date.parse('2026-11-28T12:00:00.000Z');
const DAY = 86_400_000;
const input = (workspace: string, n: number): AuditEventInput => ({
  actor: 'local:ops',
  action: 'policy.put',
  target: { workspace_id: workspace },
  before: null,
  after: { version: n },
});

/** An event as this version writes it (the Put of its transaction, sent alone here). */
async function write(workspace: string, n: number, atMs: number): Promise<string> {
  const { Put } = auditEventPut(tables.names.decisions, input(workspace, n), new Date(atMs));
  await tables.client.send(new PutCommand(Put));
  return Put.Item.event_id as string;
}

/** An event as the version before wrote it: the one index partition `audit_log` = "audit". */
async function writeOld(workspace: string, n: number, atMs: number): Promise<string> {
  const event_id = newAuditEventId(atMs);
  await tables.client.send(
    new PutCommand({
      TableName: tables.names.decisions,
      Item: {
        pk: `audit#${event_id}`,
        kind: 'audit',
        audit_log: 'audit',
        event_id,
        at: new Date(atMs).toISOString(),
        ...input(workspace, n),
        expires_at: Math.floor(atMs / 1000) + 400 * 86_400,
      },
    }),
  );
  return event_id;
}

it('spreads events written at once over several index partitions, each named by the month of the event', async () => {
  const at = NOW - 3 * DAY;
  const ids: string[] = [];
  for (let i = 0; i < 64; i++) ids.push(await write('ws_burst', i, at + i));
  const partitions = new Set<string>();
  for (const id of ids) {
    const item = await tables.client.send(
      new QueryCommand({
        TableName: tables.names.decisions,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `audit#${id}` },
      }),
    );
    partitions.add(String(item.Items![0].audit_log));
  }
  // 64 events over 8 shards: all 8 used, with overwhelming probability (each id's last character is random).
  expect(partitions.size).toBeGreaterThanOrEqual(4);
  for (const p of partitions) expect(p).toMatch(/^2026-11#\d$/);
  // And the index serves each partition.
  const [one] = [...partitions];
  const page = await tables.client.send(
    new QueryCommand({
      TableName: tables.names.decisions,
      IndexName: AUDIT_BY_TIME_INDEX,
      KeyConditionExpression: 'audit_log = :p',
      ExpressionAttributeValues: { ':p': one },
    }),
  );
  expect(page.Items!.length).toBeGreaterThan(0);
  expect(page.Items!.length).toBeLessThan(64);
});

it('lists old and new events together, newest first, across months, with filters, --since and --limit', async () => {
  // Before the upgrade: events in the old single partition, months ago and last week.
  const expected: [string, number][] = [];
  for (const [n, daysAgo] of [
    [1, 120],
    [2, 40],
    [3, 9],
    [4, 7.5],
  ] as const)
    expected.push([await writeOld('ws_mix', n, NOW - daysAgo * DAY), NOW - daysAgo * DAY]);
  // After it: this version's events, some older than the last old one (a clock behind), across three months.
  for (const [n, daysAgo] of [
    [5, 100],
    [6, 35],
    [7, 8],
    [8, 7],
    [9, 1],
    [10, 0.5],
    [11, 0.25],
  ] as const)
    expected.push([await write('ws_mix', n, NOW - daysAgo * DAY), NOW - daysAgo * DAY]);
  await write('ws_other', 99, NOW - 2 * DAY);
  const newestFirst = expected.sort((a, b) => b[1] - a[1]).map(([id]) => id);

  const ids = async (q: Partial<Parameters<DynamoAuditLog['list']>[0]>) =>
    (await log.list({ limit: 1_000, ...q }, NOW)).map((e) => e.event_id);
  expect(await ids({ workspaceId: 'ws_mix' })).toEqual(newestFirst);
  // Paging by --limit: a prefix of the full order, whatever the partitions.
  for (const limit of [1, 3, 5, 8])
    expect(await ids({ workspaceId: 'ws_mix', limit })).toEqual(newestFirst.slice(0, limit));
  // --since: only the window, still merged.
  const since = NOW - 10 * DAY;
  const inWindow = expected
    .filter(([, at]) => at >= since)
    .sort((a, b) => b[1] - a[1])
    .map(([id]) => id);
  expect(await ids({ workspaceId: 'ws_mix', sinceMs: since })).toEqual(inWindow);
  // Unfiltered: everything this test wrote, old and new, newest first.
  const all = await log.list({ limit: 1_000 }, NOW);
  expect(all.length).toBe(expected.length + 1);
  expect(all.map((e) => e.event_id)).toEqual([...all.map((e) => e.event_id)].sort().reverse());
  expect(all.filter((e) => e.target.workspace_id === 'ws_other').map((e) => e.after)).toEqual([{ version: 99 }]);
});
