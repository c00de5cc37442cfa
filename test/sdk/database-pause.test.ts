// The SDK through a real database outage: DynamoDB Local is stopped while a partner's analyze is in flight, the
// service answers 503 with Retry-After, the client waits and retries with the same Idempotency-Key, the database
// comes back, and the call ends with exactly one stored decision.
import { SignalAnalysisClient } from '../../sdk/src';
import { type OutageWorld, startOutageWorld } from '../support/outage';

jest.setTimeout(180_000);

let world: OutageWorld;
beforeAll(async () => {
  world = await startOutageWorld('sdk-pause', 300);
});
afterAll(() => world?.close());

it('retries through a real 503 while the database is down and ends with exactly one decision', async () => {
  const statuses: number[] = [];
  // The real fetch, with each status noted: the test restarts the database once the client has seen a 503.
  const noting: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    statuses.push(res.status);
    return res;
  };
  const client = new SignalAnalysisClient({
    apiKey: world.key,
    baseUrl: world.baseUrl,
    fetch: noting,
    maxRetries: 20,
    timeoutMs: 30_000,
  });
  // Warm the key into the authorizer's cache, so the outage hits the decision write itself.
  await client.listDecisions({ workspace_id: 'ws_a' });
  expect(await world.storedDecisionIds()).toEqual([]);

  await world.stopDatabase();
  const pending = client.analyzeWithResponse({
    workspace_id: 'ws_a',
    source: 'email',
    subject: 'Production outage',
    body: 'Checkout is down.',
    sender: 'ops@example.com',
  });
  while (!statuses.includes(503)) await new Promise((r) => setTimeout(r, 50));
  await world.startDatabase();

  const { decision } = await pending;
  expect(statuses.filter((s) => s === 503).length).toBeGreaterThanOrEqual(1);
  expect(statuses[statuses.length - 1]).toBe(200);
  expect(await world.storedDecisionIds()).toEqual([decision.decision_id]);
  expect(await client.getDecision(decision.decision_id)).toEqual(decision);
});
