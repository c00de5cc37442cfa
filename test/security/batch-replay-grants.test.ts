// A batch whose every item is refused stores nothing and leaves its Idempotency-Key unclaimed, as analyze's refusal
// does (docs/partners.md, "Analyzing in batches"). A key without a workspace's grant, reusing another key's
// Idempotency-Key, cannot tell a replay from a conflict (which would confirm a guess at the other batch's signals),
// and a refusal is not replayed after the workspace is granted.
import { useApiWithTwoKeys } from '../support/local-api';
import { call } from '../support/http';

jest.setTimeout(120_000);

const t = useApiWithTwoKeys('sec-batch-replay', ['ws_b1'], ['ws_b2']);

const signal = (workspace_id: string, subject: string) => ({ workspace_id, source: 'email', subject });
const batch = (key: string, idempotencyKey: string, signals: unknown[]) =>
  call(t.api.baseUrl, 'POST', '/signals/analyze-batch', {
    key,
    body: { signals },
    headers: { 'Idempotency-Key': idempotencyKey },
  });
const codes = (reply: { json: any }) =>
  reply.json.data.map((item: any) => (item.decision ? 'decision' : item.error.code));

it("answers another key's guesses at a batch it may not see alike, right or wrong", async () => {
  const secret = [signal('ws_b1', 'Your one-time code is 731904')];
  expect(codes(await batch(t.keyA, 'IK-guess', secret))).toEqual(['decision']);
  for (const guess of ['731904', '000000']) {
    const reply = await batch(t.keyB, 'IK-guess', [signal('ws_b1', `Your one-time code is ${guess}`)]);
    expect(reply.status).toBe(200);
    expect(codes(reply)).toEqual(['WORKSPACE_NOT_ALLOWED']);
    expect(reply.headers.get('idempotent-replayed')).toBeNull();
  }
  // The first key's own retry still replays.
  const again = await batch(t.keyA, 'IK-guess', secret);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
});

it('decides a refused batch retried after its workspace was granted', async () => {
  const late = [signal('ws_late', 'Invoice 4471 overdue')];
  expect(codes(await batch(t.keyA, 'IK-late', late))).toEqual(['WORKSPACE_NOT_ALLOWED']);
  await t.api.admin.grant(t.keyAId, ['ws_late']);
  const retry = await batch(t.keyA, 'IK-late', late);
  expect(codes(retry)).toEqual(['decision']);
  expect(retry.headers.get('idempotent-replayed')).toBeNull();
});
