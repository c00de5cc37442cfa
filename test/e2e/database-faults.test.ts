// A real database outage: DynamoDB Local is stopped under traffic and started again on the same data. Clients see
// 503 SERVICE_UNAVAILABLE with Retry-After while it is down, 200 again after; every decision answered 200 is
// stored, and clients retrying with their idempotency keys create no duplicates.
import { call, expectError } from '../support/http';
import { type OutageWorld, startOutageWorld } from '../support/outage';

jest.setTimeout(180_000);

let world: OutageWorld;
beforeAll(async () => {
  // The authorizer reads the key on every request, so the outage reaches it too.
  world = await startOutageWorld('faults', 0);
});
afterAll(() => world?.close());

const body = (i: number) => ({
  workspace_id: 'ws_a',
  source: 'task',
  subject: `Task ${i}`,
  body: 'Please review the quarterly report.',
});

it('answers 503 while the database is down and recovers without losing or duplicating decisions', async () => {
  const answered = new Map<string, string>(); // idempotency key -> decision id answered with 200
  const send = async (i: number) => {
    const idem = `job-${i}`;
    const reply = await call(world.baseUrl, 'POST', '/signals/analyze', {
      key: world.key,
      body: body(i),
      headers: { 'idempotency-key': idem },
    });
    if (reply.status === 200) {
      const previous = answered.get(idem);
      if (previous) expect(reply.json.decision_id).toBe(previous);
      answered.set(idem, reply.json.decision_id);
    }
    return reply;
  };

  for (let i = 0; i < 20; i++) expect((await send(i)).status).toBe(200);

  await world.stopDatabase();
  const during = [];
  for (let i = 20; i < 30; i++) during.push(await send(i));
  for (const reply of during) {
    expectError(reply, 503, 'SERVICE_UNAVAILABLE');
    expect(Number(reply.headers.get('retry-after'))).toBeGreaterThan(0);
  }
  // A GET is refused the same way.
  expectError(
    await call(world.baseUrl, 'GET', '/decisions/dec_01JD2X5R8Q4T7W9Y3K6M1N0P2S', { key: world.key }),
    503,
    'SERVICE_UNAVAILABLE',
  );

  await world.startDatabase();
  // Clients retry everything they sent, with the same idempotency keys.
  for (let i = 0; i < 30; i++) expect((await send(i)).status).toBe(200);

  const stored = await world.storedDecisionIds();
  expect(stored).toHaveLength(30);
  const storedIds = new Set(stored);
  for (const id of answered.values()) expect(storedIds.has(id)).toBe(true);
});
