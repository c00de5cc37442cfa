// Issue 21, finding 1: an idempotent replay is authorized again (docs/partners.md, "Retrying"). A batch replayed by a
// key that cannot access an item's workspace (another key of the same partner, or a key whose grant was removed since)
// answers that item WORKSPACE_NOT_ALLOWED instead of the first caller's decision; a single analyze replay likewise
// answers 403 rather than the stored decision.
import { loseBatchDecisions } from '../support/batch-replay';
import { useApiWithTwoKeys } from '../support/local-api';
import { call, expectError } from '../support/http';

jest.setTimeout(120_000);

// authCacheTtlSeconds is 0 here: a grant change shows at once.
const t = useApiWithTwoKeys('sec-replay', ['ws_a', 'ws_shared'], ['ws_b', 'ws_shared']);

const signal = (workspace_id: string, i: number) => ({
  workspace_id,
  source: 'email',
  subject: `Production outage ${i}`,
  body: 'Checkout is down.',
  sender: 'ops@example.com',
});
const batch = (key: string, signals: unknown[], idempotencyKey: string) =>
  call(t.api.baseUrl, 'POST', '/signals/analyze-batch', {
    key,
    body: { signals },
    headers: { 'Idempotency-Key': idempotencyKey },
  });
const kinds = (reply: { json: any }) =>
  reply.json.data.map((item: any) => (item.decision ? 'decision' : item.error.code));

it('a batch replayed by another key of the partner does not hand out the workspaces that key cannot access', async () => {
  const signals = [signal('ws_a', 0), signal('ws_shared', 1), signal('ws_b', 2)];
  const first = await batch(t.keyA, signals, 'sec-replay-1');
  expect(first.status).toBe(200);
  expect(kinds(first)).toEqual(['decision', 'decision', 'WORKSPACE_NOT_ALLOWED']);

  const replay = await batch(t.keyB, signals, 'sec-replay-1');
  expect(replay.status).toBe(200);
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  // ws_a is not key B's: no decision of it. ws_shared is: the first answer's decision, as a replay gives it.
  expect(kinds(replay)).toEqual(['WORKSPACE_NOT_ALLOWED', 'decision', 'WORKSPACE_NOT_ALLOWED']);
  expect(replay.json.data[0]).toEqual({
    index: 0,
    error: { code: 'WORKSPACE_NOT_ALLOWED', message: expect.any(String) },
  });
  expect(JSON.stringify(replay.json)).not.toContain(first.json.data[0].decision.decision_id);
  expect(replay.json.data[1].decision).toEqual(first.json.data[1].decision);

  // Key A still replays its own answer in full.
  const again = await batch(t.keyA, signals, 'sec-replay-1');
  expect(again.json.data).toEqual(first.json.data);
});

it('a replay by another key answers an item refused the first time in a workspace it may not use as not allowed', async () => {
  // Refused for validation the first time (no source), in a workspace key B may not use: B sending it fresh gets
  // WORKSPACE_NOT_ALLOWED (the grant comes first), and so does its replay.
  const signals = [signal('ws_shared', 40), { workspace_id: 'ws_a', subject: 'no source' }];
  const first = await batch(t.keyA, signals, 'sec-replay-5');
  expect(kinds(first)).toEqual(['decision', 'VALIDATION_ERROR']);
  const replay = await batch(t.keyB, signals, 'sec-replay-5');
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(kinds(replay)).toEqual(['decision', 'WORKSPACE_NOT_ALLOWED']);
  expect(replay.json.data[1]).toEqual({
    index: 1,
    error: { code: 'WORKSPACE_NOT_ALLOWED', message: expect.any(String) },
  });
  // Key A, which may use ws_a, still gets the first answer byte for byte.
  expect((await batch(t.keyA, signals, 'sec-replay-5')).json.data).toEqual(first.json.data);
});

it('a key whose grant was removed no longer reads its old batch through a replay', async () => {
  const signals = [signal('ws_a', 10), signal('ws_shared', 11)];
  const first = await batch(t.keyA, signals, 'sec-replay-2');
  expect(kinds(first)).toEqual(['decision', 'decision']);
  await t.api.admin.ungrant(t.keyAId, ['ws_a']);
  try {
    const replay = await batch(t.keyA, signals, 'sec-replay-2');
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(kinds(replay)).toEqual(['WORKSPACE_NOT_ALLOWED', 'decision']);
  } finally {
    await t.api.admin.grant(t.keyAId, ['ws_a'], { allowShared: true });
  }
});

it('a replay whose first attempt lost a decision it may not see answers that item WORKSPACE_NOT_ALLOWED, not 500', async () => {
  const signals = [signal('ws_a', 20), signal('ws_shared', 21)];
  const first = await batch(t.keyA, signals, 'sec-replay-3');
  const lostId = first.json.data[0].decision.decision_id;
  // The first attempt failed between claiming the key and writing this decision.
  await loseBatchDecisions(t.api.tables, [lostId], { failed: true });
  const replay = await batch(t.keyB, signals, 'sec-replay-3');
  expect(replay.status).toBe(200);
  expect(kinds(replay)).toEqual(['WORKSPACE_NOT_ALLOWED', 'decision']);
  // Key B rebuilding nothing for ws_a: key A's own replay still restores it.
  const own = await batch(t.keyA, signals, 'sec-replay-3');
  expect(own.json.data).toEqual(first.json.data);
});

it('a single analyze replayed by a key without the grant is refused, not answered with the stored decision', async () => {
  const body = signal('ws_a', 30);
  const headers = { 'Idempotency-Key': 'sec-replay-4' };
  const first = await call(t.api.baseUrl, 'POST', '/signals/analyze', { key: t.keyA, body, headers });
  expect(first.status).toBe(200);
  const replay = await call(t.api.baseUrl, 'POST', '/signals/analyze', { key: t.keyB, body, headers });
  expectError(replay, 403, 'WORKSPACE_NOT_ALLOWED');
  expect(replay.text).not.toContain(first.json.decision_id);
});
