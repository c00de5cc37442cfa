// Issue 33, finding 1: an import's Idempotency-Key covers its path's workspace (docs/partners.md, "Importing your
// history, and forgetting it"). The same key header on another workspace, by another key of the partner or by the
// same key, is 409 IDEMPOTENCY_CONFLICT: it never answers the first workspace's result, and the second workspace
// learns nothing by mistake. A replay is authorized again: a key whose grant was removed gets 403, not the answer.
import { createHash } from 'node:crypto';
import { ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { canonicalJson } from '../../lambdas/domain/json-walk';
import { idempotencyRequest } from '../../lambdas/domain/idempotency';
import { useApiWithTwoKeys } from '../support/local-api';
import { call, expectError } from '../support/http';

jest.setTimeout(120_000);

const t = useApiWithTwoKeys('sec-import-replay', ['ws_a1', 'ws_a3'], ['ws_a2']);

const examples = Array.from({ length: 5 }, (_, i) => ({
  signal: { source: 'email', sender: `billing${i}@supplier.example`, subject: `Invoice ${4400 + i} overdue` },
  labels: { category: 'supplier_invoice', queue: 'accounts_payable' },
}));
const importTo = (key: string, workspace: string, idempotencyKey: string) =>
  call(t.api.baseUrl, 'POST', `/workspaces/${workspace}/examples`, {
    key,
    body: { examples },
    headers: { 'Idempotency-Key': idempotencyKey },
  });

it("answers another key's import to another workspace under the same Idempotency-Key with 409", async () => {
  const first = await importTo(t.keyA, 'ws_a1', 'IK1');
  expect(first.status).toBe(200);
  expect(first.json).toMatchObject({ workspace_id: 'ws_a1', learned: 5 });

  const other = await importTo(t.keyB, 'ws_a2', 'IK1');
  expectError(other, 409, 'IDEMPOTENCY_CONFLICT');
  expect(other.text).not.toContain('ws_a1');

  // The first workspace's own retry still replays.
  const again = await importTo(t.keyA, 'ws_a1', 'IK1');
  expect(again.status).toBe(200);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  expect(again.json).toEqual(first.json);
});

it('answers the same key on another of its workspaces with 409, not the first workspace\'s "learned"', async () => {
  const first = await importTo(t.keyA, 'ws_a1', 'IK2');
  expect(first.status).toBe(200);
  const other = await importTo(t.keyA, 'ws_a3', 'IK2');
  expectError(other, 409, 'IDEMPOTENCY_CONFLICT');
});

it('refuses a replay to a key whose grant of the workspace was removed since', async () => {
  const first = await importTo(t.keyA, 'ws_a3', 'IK3');
  expect(first.status).toBe(200);
  await t.api.admin.ungrant(t.keyAId, ['ws_a3']);
  try {
    const replay = await importTo(t.keyA, 'ws_a3', 'IK3');
    expectError(replay, 403, 'WORKSPACE_NOT_ALLOWED');
    expect(replay.headers.get('idempotent-replayed')).toBeNull();
  } finally {
    await t.api.admin.grant(t.keyAId, ['ws_a3'], { allowShared: true });
  }
});

it("replays a version 3 import's record (the body's plain SHA-256) for its own workspace, and refuses it for another", async () => {
  const first = await importTo(t.keyA, 'ws_a1', 'IK4');
  expect(first.status).toBe(200);
  // The record as version 3 wrote it (docs/deploy.md, "Upgrading to version 4"): the hash of the body alone.
  const keyed = idempotencyRequest('IK4', { workspace_id: 'ws_a1', body: { examples } }).requestHash;
  const { client, names } = t.api.tables;
  const tables = [names.decisions, names.learning];
  const found = await Promise.all(tables.map((TableName) => client.send(new ScanCommand({ TableName }))));
  const at = found.findIndex((scan) => scan.Items?.some((item) => item.request_hash === keyed));
  const record = found[at].Items!.find((item) => item.request_hash === keyed)!;
  const plain = createHash('sha256').update(canonicalJson({ examples })).digest('hex');
  await client.send(
    new UpdateCommand({
      TableName: tables[at],
      Key: { pk: record.pk, ...(record.sk === undefined ? {} : { sk: record.sk }) },
      UpdateExpression: 'SET request_hash = :plain',
      ExpressionAttributeValues: { ':plain': plain },
    }),
  );

  const again = await importTo(t.keyA, 'ws_a1', 'IK4');
  expect(again.status).toBe(200);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  expect(again.json).toEqual(first.json);
  expectError(await importTo(t.keyA, 'ws_a3', 'IK4'), 409, 'IDEMPOTENCY_CONFLICT');
});
