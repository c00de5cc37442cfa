// POST /signals/analyze-batch over the real HTTP path: per-item results in input order, decisions stored exactly as
// single analyze stores them, whole-batch idempotency (replay, conflict, a replay that restores lost decisions),
// and the envelope's refusals.
import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { loseBatchDecisions } from '../support/batch-replay';
import { useApiWithKey } from '../support/local-api';
import { call, expectError } from '../support/http';

jest.setTimeout(120_000);

const t = useApiWithKey('batch', ['ws_b']);
const good = (i: number) => ({
  workspace_id: 'ws_b',
  source: 'email',
  subject: `Production outage ${i}`,
  body: 'Checkout is down.',
  sender: 'ops@example.com',
});

async function decisionCount(): Promise<number> {
  const scan = await t.api.tables.client.send(new ScanCommand({ TableName: t.api.tables.names.decisions }));
  return (scan.Items ?? []).filter((i) => String(i.pk).startsWith('decision#')).length;
}
const batch = (signals: unknown[], headers: Record<string, string> = {}) =>
  call(t.api.baseUrl, 'POST', '/signals/analyze-batch', { key: t.key, body: { signals }, headers });

it('answers each item in input order: decisions for good signals, errors for bad ones, and stores only the good', async () => {
  const before = await decisionCount();
  const reply = await batch([
    good(0),
    { workspace_id: 'ws_b', subject: 'no source' },
    { ...good(2), workspace_id: 'ws_not_mine' },
    good(3),
    'not an object',
    { ...good(5), extra: true },
  ]);
  expect(reply.status).toBe(200);
  expect(reply.json.object).toBe('list');
  expect(reply.json.data.map((item: any) => item.index)).toEqual([0, 1, 2, 3, 4, 5]);
  const kinds = reply.json.data.map((item: any) => (item.decision ? 'decision' : item.error.code));
  expect(kinds).toEqual([
    'decision',
    'VALIDATION_ERROR',
    'WORKSPACE_NOT_ALLOWED',
    'decision',
    'VALIDATION_ERROR',
    'VALIDATION_ERROR',
  ]);
  expect(reply.json.data[1].error.details).toEqual([{ field: 'signals[1].source', message: expect.any(String) }]);
  expect(reply.json.data[5].error.details).toEqual([{ field: 'signals[5].extra', message: expect.any(String) }]);
  expect(reply.json.data[2].error.details).toBeUndefined();
  expect(await decisionCount()).toBe(before + 2);
});

it('stores every decision exactly as a single analyze would: same item shape, same GET answer, same assessment', async () => {
  const single = await call(t.api.baseUrl, 'POST', '/signals/analyze', { key: t.key, body: good(7) });
  const batched = await batch([good(7)]);
  const decision = batched.json.data[0].decision;
  // respond_by follows received_at (the moment of receipt when the signal gives none): compare the time it allows.
  const allowed = (d: any) => Date.parse(d.respond_by) - Date.parse(d.received_at);
  const strip = (d: any) => ({
    ...d,
    decision_id: undefined,
    created_at: undefined,
    received_at: undefined,
    respond_by: undefined,
  });
  expect(strip(decision)).toEqual(strip(single.json));
  expect(allowed(decision)).toBe(allowed(single.json));
  expect((await call(t.api.baseUrl, 'GET', `/decisions/${decision.decision_id}`, { key: t.key })).json).toEqual(
    decision,
  );
  const item = async (id: string) =>
    (
      await t.api.tables.client.send(
        new GetCommand({ TableName: t.api.tables.names.decisions, Key: { pk: `decision#${id}` } }),
      )
    ).Item!;
  const [a, b] = [await item(single.json.decision_id), await item(decision.decision_id)];
  expect(Object.keys(b).sort()).toEqual(Object.keys(a).sort());
  expect(b.expires_at - Math.floor(Date.parse(decision.created_at) / 1000)).toBe(
    a.expires_at - Math.floor(Date.parse(single.json.created_at) / 1000),
  );
  // And it is listed.
  const listed = await call(t.api.baseUrl, 'GET', '/decisions?workspace_id=ws_b&limit=1', { key: t.key });
  expect(listed.json.data[0]).toEqual(decision);
});

it('takes 100 signals and answers 100 items, their ids in input order (a listing reads them as sent one by one)', async () => {
  const reply = await batch(Array.from({ length: 100 }, (_, i) => good(i)));
  expect(reply.status).toBe(200);
  expect(reply.json.data).toHaveLength(100);
  const ids: string[] = reply.json.data.map((item: any) => item.decision.decision_id);
  expect(new Set(ids).size).toBe(100);
  // Listing is newest first by id: ids rising with the input make the batch's last signal the newest.
  expect([...ids].sort()).toEqual(ids);
});

it('replays the whole batch for the same Idempotency-Key and body, conflicts on another body, stores nothing new', async () => {
  const signals = [good(1), { workspace_id: 'ws_b' }, good(2)];
  const first = await batch(signals, { 'idempotency-key': 'batch-1' });
  expect(first.status).toBe(200);
  expect(first.headers.get('idempotent-replayed')).toBeNull();
  const count = await decisionCount();
  const again = await batch(signals, { 'idempotency-key': 'batch-1' });
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  expect(again.json).toEqual(first.json);
  expect(await decisionCount()).toBe(count);
  expectError(await batch([good(1)], { 'idempotency-key': 'batch-1' }), 409, 'IDEMPOTENCY_CONFLICT');
  // A key used for a single analyze is another request.
  await call(t.api.baseUrl, 'POST', '/signals/analyze', {
    key: t.key,
    body: good(1),
    headers: { 'idempotency-key': 'single-1' },
  });
  expectError(await batch([good(1)], { 'idempotency-key': 'single-1' }), 409, 'IDEMPOTENCY_CONFLICT');
});

it('a replay restores decisions that its first attempt did not get to store, with the same ids and content', async () => {
  const signals = [good(10), good(11)];
  const first = await batch(signals, { 'idempotency-key': 'batch-lost' });
  const ids = first.json.data.map((item: any) => item.decision.decision_id);
  // Not yet while the first attempt may still be storing them (received less than 30 s before, not failed): a
  // decision restored now could be overwritten by it, with any feedback given on it.
  await loseBatchDecisions(t.api.tables, ids, { failed: false });
  const early = await batch(signals, { 'idempotency-key': 'batch-lost' });
  expectError(early, 503, 'SERVICE_UNAVAILABLE');
  expect(early.headers.get('retry-after')).toBe('2');
  for (const id of ids)
    expectError(await call(t.api.baseUrl, 'GET', `/decisions/${id}`, { key: t.key }), 404, 'DECISION_NOT_FOUND');
  // Once its writes failed, and it said so on the record.
  await loseBatchDecisions(t.api.tables, ids, { failed: true });
  const replay = await batch(signals, { 'idempotency-key': 'batch-lost' });
  expect(replay.json).toEqual(first.json);
  for (const item of first.json.data) {
    expect((await call(t.api.baseUrl, 'GET', `/decisions/${item.decision.decision_id}`, { key: t.key })).json).toEqual(
      item.decision,
    );
  }
});

it('refuses a bad envelope or Idempotency-Key as a whole, before any item, and a body over 1 MiB', async () => {
  for (const body of [
    {},
    { signals: [] },
    { signals: 'x' },
    { signals: Array.from({ length: 101 }, (_, i) => good(i)) },
    { signals: [good(1)], more: 1 },
    [good(1)],
  ]) {
    const reply = await call(t.api.baseUrl, 'POST', '/signals/analyze-batch', { key: t.key, body });
    expectError(reply, 400, 'VALIDATION_ERROR');
  }
  expectError(await batch([good(1)], { 'idempotency-key': '' }), 400, 'VALIDATION_ERROR');
  const big = { signals: Array.from({ length: 6 }, () => ({ ...good(1), body: 'x'.repeat(190_000) })) };
  const tooLarge = await call(t.api.baseUrl, 'POST', '/signals/analyze-batch', { key: t.key, body: big });
  expectError(tooLarge, 413, 'PAYLOAD_TOO_LARGE');
  expect(tooLarge.json.error.message).toMatch(/1 MiB/);
  // 300 KiB is fine for a batch (over the 256 KiB of single analyze).
  const ok = await call(t.api.baseUrl, 'POST', '/signals/analyze-batch', {
    key: t.key,
    body: { signals: [good(1), { ...good(2), body: 'y'.repeat(150_000) }, { ...good(3), body: 'z'.repeat(150_000) }] },
  });
  expect(ok.status).toBe(200);
  // An item analyze would refuse alone (413) is that item's own refusal; the others are decided.
  const heavy = { ...good(4), body: '€'.repeat(90_000) };
  expectError(
    await call(t.api.baseUrl, 'POST', '/signals/analyze', { key: t.key, body: heavy }),
    413,
    'PAYLOAD_TOO_LARGE',
  );
  const mixed = await batch([good(4), heavy]);
  expect(mixed.status).toBe(200);
  expect(mixed.json.data[0].decision).toBeDefined();
  expect(mixed.json.data[1].error).toEqual({
    code: 'VALIDATION_ERROR',
    message: expect.any(String),
    details: [{ field: 'signals[1]', message: expect.stringMatching(/256 KiB/) }],
  });
  for (const [rawBody, type, status, code] of [
    ['{', 'application/json', 400, 'INVALID_JSON'],
    ['{}', 'text/plain', 415, 'UNSUPPORTED_MEDIA_TYPE'],
  ] as const) {
    const headers = { 'content-type': type };
    expectError(
      await call(t.api.baseUrl, 'POST', '/signals/analyze-batch', { key: t.key, rawBody, headers }),
      status,
      code,
    );
  }
  expectError(
    await call(t.api.baseUrl, 'POST', '/signals/analyze-batch', { body: { signals: [good(1)] } }),
    401,
    'UNAUTHORIZED',
  );
});
