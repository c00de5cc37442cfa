// Issue 33, finding 10: a request that can never fit its key's limit (a batch or an import of more items than the
// whole limit) answers 429 RATE_LIMITED with honest headers (docs/partners.md, "Scopes and rate limits"): RateLimit
// says what really remains (it spent nothing), and there is no Retry-After, since no wait makes it fit; the message
// gives the same numbers. It used to answer `r=0` and `Retry-After: 54` while 50 remained.
import { type TestApi, midHourClock, startTestApi } from '../support/local-api';
import { call, expectError } from '../support/http';
import { SignalAnalysisClient } from '../../sdk/src';

jest.setTimeout(120_000);

let api: TestApi;

const signal = (i: number) => ({ workspace_id: 'ws_a', source: 'email', subject: `Invoice ${i} overdue` });
const remaining = (header: string | null) => Number(/;r=(\d+);/.exec(header ?? '')?.[1]);

beforeAll(async () => {
  api = await startTestApi('never-fits', {}, { clock: midHourClock() });
  await api.admin.createPartner({ id: 'acme', name: 'Acme', status: 'active' });
});
afterAll(async () => {
  await api?.close();
});

/** A key of its own for each test: its window holds only what that test spent (any order, --randomize). */
const newKey = async () =>
  (await api.admin.createKey({ partnerId: 'acme', workspaces: ['ws_a'], rateLimit: '50/h' })).key;

it('answers a batch larger than the whole limit without Retry-After, with the remaining requests it left alone', async () => {
  const key = await newKey();
  const signals = Array.from({ length: 60 }, (_, i) => signal(i));
  const refused = await call(api.baseUrl, 'POST', '/signals/analyze-batch', { key, body: { signals } });
  expectError(refused, 429, 'RATE_LIMITED');
  expect(refused.headers.get('retry-after')).toBeNull();
  expect(refused.headers.get('ratelimit-policy')).toBe('"default";q=50;w=3600');
  // Nothing was spent before it (an hour's window, on a clock in the middle of its hour: never two).
  expect(remaining(refused.headers.get('ratelimit'))).toBe(50);
  expect(refused.json.error.message).toMatch(/needs 60 .*whole limit of 50.*never fit.*50 remain/);

  // What the headers say is true: 10 signals fit, and 40 remain after them.
  const fits = await call(api.baseUrl, 'POST', '/signals/analyze-batch', {
    key,
    body: { signals: signals.slice(0, 10) },
  });
  expect(fits.status).toBe(200);
  expect(remaining(fits.headers.get('ratelimit'))).toBe(40);

  const importTooBig = await call(api.baseUrl, 'POST', '/workspaces/ws_a/examples', {
    key,
    body: { examples: signals.map((s) => ({ signal: s, labels: { category: 'billing' } })) },
  });
  expectError(importTooBig, 429, 'RATE_LIMITED');
  expect(importTooBig.headers.get('retry-after')).toBeNull();
  expect(remaining(importTooBig.headers.get('ratelimit'))).toBe(40);
});

it('makes the SDK give up at once on a request that can never fit, instead of waiting and retrying', async () => {
  const key = await newKey();
  const client = new SignalAnalysisClient({ apiKey: key, baseUrl: api.baseUrl, maxRetries: 3 });
  const signals = Array.from({ length: 51 }, (_, i) => signal(200 + i));
  await expect(client.analyzeBatch(signals as never)).rejects.toMatchObject({
    status: 429,
    code: 'RATE_LIMITED',
    attempts: 1,
    retryAfterSeconds: undefined,
  });
});

it('answers a batch that only this window cannot hold with Retry-After and what remains, which then fits', async () => {
  const key = await newKey();
  // 10 spent first, as a partner's earlier batch would have.
  const spent = await call(api.baseUrl, 'POST', '/signals/analyze-batch', {
    key,
    body: { signals: Array.from({ length: 10 }, (_, i) => signal(300 + i)) },
  });
  expect(spent.status).toBe(200);
  expect(remaining(spent.headers.get('ratelimit'))).toBe(40);
  const signals = Array.from({ length: 45 }, (_, i) => signal(100 + i));
  const refused = await call(api.baseUrl, 'POST', '/signals/analyze-batch', { key, body: { signals } });
  expectError(refused, 429, 'RATE_LIMITED');
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  // 40 remain (the batch above spent 10): r says so, where it used to say 0 while 40 remained.
  expect(remaining(refused.headers.get('ratelimit'))).toBe(40);
  const fits = await call(api.baseUrl, 'POST', '/signals/analyze-batch', {
    key,
    body: { signals: signals.slice(0, 40) },
  });
  expect(fits.status).toBe(200);
  expect(remaining(fits.headers.get('ratelimit'))).toBe(0);
  const single = await call(api.baseUrl, 'POST', '/signals/analyze', { key, body: signal(200) });
  expectError(single, 429, 'RATE_LIMITED');
  expect(remaining(single.headers.get('ratelimit'))).toBe(0);
});
