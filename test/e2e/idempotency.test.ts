// Idempotency-Key over the real HTTP path: replay, conflict, per-partner scope, concurrency, expiry.
import { PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { createHash } from 'node:crypto';
import { type TestApi, partnerWithKey, startTestApi } from '../support/local-api';
import { call, expectError } from '../support/http';

let api: TestApi;
let key: string;
let sameWorkspaceOtherPartner: string;
const body = {
  workspace_id: 'ws_a',
  source: 'support_message',
  subject: 'Refund please',
  body: 'I was charged twice for my subscription this month.',
};

/** POST analyze with an Idempotency-Key. */
const analyzeOnce = (idempotencyKey: string, signal: object = body, apiKey = key) =>
  call(api.baseUrl, 'POST', '/signals/analyze', {
    key: apiKey,
    body: signal,
    headers: { 'idempotency-key': idempotencyKey },
  });

async function decisionCount(): Promise<number> {
  const scan = await api.tables.client.send(new ScanCommand({ TableName: api.tables.names.decisions }));
  return (scan.Items ?? []).filter((i) => String(i.pk).startsWith('decision#')).length;
}

beforeAll(async () => {
  api = await startTestApi('idempotency');
  ({ key } = await partnerWithKey(api.admin, 'acme', ['ws_a']));
  ({ key: sameWorkspaceOtherPartner } = await partnerWithKey(api.admin, 'globex', ['ws_a']));
});
afterAll(async () => {
  await api?.close();
});

it('replays the first decision for the same key and body, with Idempotent-Replayed, and stores nothing new', async () => {
  const first = await analyzeOnce('order-1');
  expect(first.status).toBe(200);
  expect(first.headers.get('idempotent-replayed')).toBeNull();
  const before = await decisionCount();
  // Same body with other key order and spacing is the same request.
  const reordered = JSON.stringify(
    { body: body.body, subject: body.subject, source: body.source, workspace_id: body.workspace_id },
    null,
    2,
  );
  const again = await call(api.baseUrl, 'POST', '/signals/analyze', {
    key,
    rawBody: reordered,
    headers: { 'idempotency-key': 'order-1', 'content-type': 'application/json' },
  });
  expect(again.status).toBe(200);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  expect(again.json).toEqual(first.json);
  expect(await decisionCount()).toBe(before);
});

it('answers 409 IDEMPOTENCY_CONFLICT for the same key with a different body, and keeps the first decision', async () => {
  const first = await analyzeOnce('order-2');
  const conflict = await analyzeOnce('order-2', { ...body, subject: 'Something else' });
  expectError(conflict, 409, 'IDEMPOTENCY_CONFLICT');
  const replay = await analyzeOnce('order-2');
  expect(replay.json.decision_id).toBe(first.json.decision_id);
});

it('scopes keys per partner: another partner using the same Idempotency-Key gets its own decision', async () => {
  const a = await analyzeOnce('shared-1');
  const b = await analyzeOnce('shared-1', body, sameWorkspaceOtherPartner);
  expect(b.status).toBe(200);
  expect(b.headers.get('idempotent-replayed')).toBeNull();
  expect(b.json.decision_id).not.toBe(a.json.decision_id);
});

it('makes one decision from 20 concurrent requests with the same key', async () => {
  const before = await decisionCount();
  const replies = await Promise.all(Array.from({ length: 20 }, () => analyzeOnce('burst-1')));
  expect(replies.map((r) => r.status)).toEqual(Array(20).fill(200));
  expect(new Set(replies.map((r) => r.json.decision_id)).size).toBe(1);
  expect(replies.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(19);
  expect(await decisionCount()).toBe(before + 1);
});

/** Stores partner acme's record for `idemKey`, of another body, expiring at `expiresAt` (epoch seconds). */
const storeRecord = (idemKey: string, expiresAt: number) =>
  api.tables.client.send(
    new PutCommand({
      TableName: api.tables.names.decisions,
      Item: {
        pk: `idem#acme#${createHash('sha256').update(idemKey).digest('hex')}`,
        request_hash: 'something-else',
        decision: { decision_id: 'dec_00000000000000000000000000' },
        expires_at: expiresAt,
      },
    }),
  );

it('treats an expired record (TTL not yet swept) as absent', async () => {
  const idemKey = 'old-1';
  await storeRecord(idemKey, Math.floor(Date.now() / 1000) - 10);
  const reply = await analyzeOnce(idemKey);
  expect(reply.status).toBe(200);
  expect(reply.headers.get('idempotent-replayed')).toBeNull();
  expect(reply.json.decision_id).not.toBe('dec_00000000000000000000000000');
});

it('treats a record in its expiry second as absent, as every reader does', async () => {
  // Readers take a record as live while expires_at > now; the claim could overwrite it only once expires_at < now, so
  // in the second between, a new request with the key was neither replayed nor allowed to claim.
  const idemKey = 'old-2';
  // Early in a second, so the record and the request share it (after a boundary the record is plainly expired).
  while (Date.now() % 1000 > 300) await new Promise((resolve) => setTimeout(resolve, 25));
  await storeRecord(idemKey, Math.floor(Date.now() / 1000));
  const reply = await analyzeOnce(idemKey);
  expect(reply.status).toBe(200);
  expect(reply.json.decision_id).not.toBe('dec_00000000000000000000000000');
});

it('refuses a malformed Idempotency-Key with 400 VALIDATION_ERROR', async () => {
  const reply = await analyzeOnce('x'.repeat(256));
  expectError(reply, 400, 'VALIDATION_ERROR');
  expect(reply.json.error.details).toEqual([{ field: 'Idempotency-Key', message: expect.any(String) }]);
});

it('makes a new decision for every call without the header', async () => {
  const a = await call(api.baseUrl, 'POST', '/signals/analyze', { key, body });
  const b = await call(api.baseUrl, 'POST', '/signals/analyze', { key, body });
  expect(a.json.decision_id).not.toBe(b.json.decision_id);
});
