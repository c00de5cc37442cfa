// The SDK against local mode over real sockets: every route it has that the service serves, paging, typed errors,
// idempotent retries, timeouts and cancellation.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignalAnalysisClient, SignalAnalysisConnectionError, SignalAnalysisError } from '../../sdk/src';
import { type TestApi, partnerWithKey, startTestApi } from '../support/local-api';

jest.setTimeout(120_000);

let api: TestApi;
let client: SignalAnalysisClient;
const signal = (i: number) => ({
  workspace_id: 'ws_sdk',
  source: 'task' as const,
  subject: `Please review contract ${i}`,
});

beforeAll(async () => {
  api = await startTestApi('sdk');
  const { key } = await partnerWithKey(api.admin, 'acme', ['ws_sdk', 'ws_sdk_pages']);
  client = new SignalAnalysisClient({ apiKey: key, baseUrl: api.baseUrl, timeoutMs: 20_000 });
});
afterAll(async () => {
  await api?.close();
});

it('analyzes, reads back, and replays with the same Idempotency-Key', async () => {
  const decision = await client.analyze(signal(1));
  expect(decision.decision_id).toMatch(/^dec_/);
  expect(await client.getDecision(decision.decision_id)).toEqual(decision);

  const first = await client.analyzeWithResponse(signal(2), { idempotencyKey: 'sdk-job-2' });
  const again = await client.analyzeWithResponse(signal(2), { idempotencyKey: 'sdk-job-2' });
  expect([first.replayed, again.replayed]).toEqual([false, true]);
  expect(again.decision).toEqual(first.decision);
  expect(first.requestId).toBeTruthy();
});

it('says when a batch or an import answer replays an earlier request with the same Idempotency-Key', async () => {
  // Only analyze said so: a job retrying a batch or an import could not tell a replay from a first answer.
  const { key } = await partnerWithKey(api.admin, 'replayer', ['ws_sdk_replay']);
  const own = new SignalAnalysisClient({ apiKey: key, baseUrl: api.baseUrl, timeoutMs: 20_000 });
  const signals = [{ ...signal(20), workspace_id: 'ws_sdk_replay' }];
  const batches = [
    await own.analyzeBatchWithResponse(signals, { idempotencyKey: 'sdk-batch-1' }),
    await own.analyzeBatchWithResponse(signals, { idempotencyKey: 'sdk-batch-1' }),
  ];
  expect(batches.map((b) => b.replayed)).toEqual([false, true]);
  expect(batches[1].batch).toEqual(batches[0].batch);
  expect(batches[0].requestId).toBeTruthy();

  const examples = [{ signal: signals[0], labels: { priority: 'high' as const } }];
  const imports = [
    await own.importExamplesWithResponse('ws_sdk_replay', examples, { idempotencyKey: 'sdk-import-1' }),
    await own.importExamplesWithResponse('ws_sdk_replay', examples, { idempotencyKey: 'sdk-import-1' }),
  ];
  expect(imports.map((i) => i.replayed)).toEqual([false, true]);
  expect(imports[1].result).toEqual(imports[0].result);
  expect(imports[0].requestId).toBeTruthy();
});

it('analyzes a batch and pages through the workspace with the async iterators, each decision once', async () => {
  // A workspace of its own: the other tests' decisions in ws_sdk would join its pages, as they run in any order.
  const workspace_id = 'ws_sdk_pages';
  const inPages = (i: number) => ({ ...signal(i), workspace_id });
  const batch = await client.analyzeBatch([
    inPages(3),
    { workspace_id } as never,
    inPages(4),
    inPages(21),
    inPages(22),
  ]);
  expect(batch.data.map((item) => (item.decision ? 'decision' : item.error.code))).toEqual([
    'decision',
    'VALIDATION_ERROR',
    'decision',
    'decision',
    'decision',
  ]);

  const pages = [];
  for await (const page of client.listDecisionPages({ workspace_id, limit: 2 })) pages.push(page);
  const ids = pages.flatMap((p) => p.data.map((d) => d.decision_id));
  expect(pages.length).toBeGreaterThanOrEqual(2);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids).toHaveLength(4);
  const all = [];
  for await (const d of client.allDecisions({ workspace_id, limit: 3, created_after: new Date(0) }))
    all.push(d.decision_id);
  expect(all).toEqual(ids);
  const one = await client.listDecisions({
    workspace_id,
    limit: 1,
    priority: ['low', 'medium', 'high', 'critical'],
  });
  expect(one.data[0].decision_id).toBe(ids[0]);
});

it('throws typed errors with code, message, request_id and details', async () => {
  const bad = await client.listDecisions({ workspace_id: 'ws_sdk', limit: 500 }).catch((e: unknown) => e);
  expect(bad).toBeInstanceOf(SignalAnalysisError);
  const e = bad as SignalAnalysisError;
  expect({ status: e.status, code: e.code, attempts: e.attempts }).toEqual({
    status: 400,
    code: 'VALIDATION_ERROR',
    attempts: 1,
  });
  expect(e.details).toEqual([{ field: 'limit', message: expect.any(String) }]);
  expect(e.requestId).toBeTruthy();
  expect(e.request_id).toBe(e.requestId);

  await expect(client.getDecision('dec_01M7YP0Z169DWN2DAG06SFY9E9')).rejects.toMatchObject({
    status: 404,
    code: 'DECISION_NOT_FOUND',
  });
  await expect(client.analyze({ ...signal(5), workspace_id: 'ws_other' })).rejects.toMatchObject({
    status: 403,
    code: 'WORKSPACE_NOT_ALLOWED',
  });
  const stranger = new SignalAnalysisClient({ apiKey: 'sas_test_nope', baseUrl: api.baseUrl });
  await expect(stranger.getDecision('dec_01M7YP0Z169DWN2DAG06SFY9E9')).rejects.toMatchObject({
    status: 401,
    code: 'UNAUTHORIZED',
  });
});

it("states the key's rate limit as the last answer gave it, so a caller can pace by it", async () => {
  expect(client.rateLimit).toBeUndefined(); // a key without a limit gets no RateLimit headers
  const limited = await api.admin.createKey({ partnerId: 'acme', workspaces: ['ws_sdk'], rateLimit: '50/h' });
  const paced = new SignalAnalysisClient({ apiKey: limited.key, baseUrl: api.baseUrl });
  await paced.analyze(signal(6));
  await paced.analyzeBatch([signal(7), signal(8)]);
  const before = paced.rateLimit!;
  expect(before).toEqual({
    limit: 50,
    windowSeconds: 3600,
    remaining: expect.any(Number),
    resetSeconds: expect.any(Number),
    receivedAt: expect.any(Date),
  });
  // Three spent, or two if the hour turned between the two calls.
  expect([47, 48]).toContain(before.remaining);
  // An error answer states it too: one more spent, unless a new window began.
  await expect(paced.getDecision('dec_01M7YP0Z169DWN2DAG06SFY9E9')).rejects.toMatchObject({ status: 404 });
  const after = paced.rateLimit!;
  expect(after.remaining).toBe(after.resetSeconds > before.resetSeconds ? 49 : before.remaining - 1);
  // The operator removes the limit: the next success carries no headers, and the client holds no limit any more.
  await api.admin.setRateLimit(limited.key_id, null);
  await paced.analyze(signal(9));
  expect(paced.rateLimit).toBeUndefined();
});

/** A fetch whose first PUT reaches the service but whose answer is lost, as a dropped connection loses it. */
function losingFirstPut(): { losing: typeof fetch; puts: { count: number } } {
  const puts = { count: 0 };
  const losing: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (init?.method === 'PUT' && ++puts.count === 1) {
      await response.text();
      throw new TypeError('fetch failed');
    }
    return response;
  };
  return { losing, puts };
}

it('answers a putPolicy whose first attempt landed but whose answer was lost, with If-Match, as it landed', async () => {
  // The lost answer is injected in the client's transport (the real service takes the write; the connection then
  // fails as a dropped one does): a fault the real service cannot be made to show on demand.
  const { key } = await partnerWithKey(api.admin, 'lost-answer', ['ws_lost']);
  const { losing, puts } = losingFirstPut();
  const lossy = new SignalAnalysisClient({ apiKey: key, baseUrl: api.baseUrl, fetch: losing, retryBaseMs: 10 });
  const policy = { vip_senders: ['@acme.com'], routing: { billing: 'finance', legal: 'counsel' } };
  const stored = await lossy.putPolicy('ws_lost', policy, { ifMatch: 0 });
  expect(puts.count).toBe(2);
  expect(stored).toMatchObject({ ...policy, version: 1 });
  // Another writer's change between the lost answer and the retry: a 412, the policy being no longer the one sent.
  let racing = true;
  const racer = new SignalAnalysisClient({ apiKey: key, baseUrl: api.baseUrl });
  const raced: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (init?.method === 'PUT' && racing) {
      racing = false;
      await response.text();
      await racer.putPolicy('ws_lost', { vip_senders: ['@other.com'] });
      throw new TypeError('fetch failed');
    }
    return response;
  };
  const loser = new SignalAnalysisClient({ apiKey: key, baseUrl: api.baseUrl, fetch: raced, retryBaseMs: 10 });
  await expect(loser.putPolicy('ws_lost', policy, { ifMatch: 1 })).rejects.toMatchObject({
    code: 'PRECONDITION_FAILED',
  });
  expect(await racer.getPolicy('ws_lost')).toMatchObject({ vip_senders: ['@other.com'], version: 3 });
});

it('recovers a lost putPolicy answer only where its key may read the policy; otherwise the 412 stands', async () => {
  // The lost answer is injected in the transport, as above. A key of the `policy` scope alone cannot read the policy
  // back to see its own write: it gets the service's 412, not a 403 about a scope the caller never asked to use.
  const { key } = await partnerWithKey(api.admin, 'policy-only', ['ws_policy_only']);
  const issued = await api.admin.createKey({
    partnerId: 'policy-only',
    workspaces: ['ws_policy_only'],
    scopes: ['policy'],
  });
  expect(key).toBeTruthy();
  const { losing } = losingFirstPut();
  const writer = new SignalAnalysisClient({ apiKey: issued.key, baseUrl: api.baseUrl, fetch: losing, retryBaseMs: 10 });
  await expect(
    writer.putPolicy('ws_policy_only', { vip_senders: ['@acme.com'] }, { ifMatch: 0 }),
  ).rejects.toMatchObject({ status: 412, code: 'PRECONDITION_FAILED' });
  expect(
    await new SignalAnalysisClient({ apiKey: key, baseUrl: api.baseUrl }).getPolicy('ws_policy_only'),
  ).toMatchObject({
    vip_senders: ['@acme.com'],
    version: 1,
  });
});

it('refuses ids a URL path cannot carry and reads an empty priority list as every priority', async () => {
  // `.` and `..` are valid workspace ids, but a URL resolves them as dot segments (even percent-encoded): the request
  // would reach another route.
  for (const call of [() => client.getPolicy('..'), () => client.forgetModel('.'), () => client.getDecision('..')]) {
    await expect(call()).rejects.toBeInstanceOf(TypeError);
  }
  await client.analyze(signal(23));
  const page = await client.listDecisions({ workspace_id: 'ws_sdk', limit: 1, priority: [] });
  expect(page.data.length).toBeGreaterThan(0);
});

it('gives up on an unreachable service with a connection error after its retries', async () => {
  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const { port } = closed.address() as AddressInfo;
  await new Promise<void>((r) => closed.close(() => r()));
  const nowhere = new SignalAnalysisClient({
    apiKey: 'sas_test_x',
    baseUrl: `http://127.0.0.1:${port}/api/v1`,
    maxRetries: 2,
    retryBaseMs: 10,
  });
  const err = await nowhere.analyze(signal(6)).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(SignalAnalysisConnectionError);
  expect(err).toMatchObject({ code: 'CONNECTION_ERROR', attempts: 3 });
});

describe('against a server that answers slowly or with 503 (a real socket, scripted answers)', () => {
  // A tiny HTTP server stands in for faults the service cannot be made to produce on cue (a hung answer, an exact
  // Retry-After); the database outage itself is real in database-pause.test.ts.
  let server: ReturnType<typeof createServer>;
  let base: string;
  const seen: { at: number; idempotencyKey?: string }[] = [];
  let script: ((n: number) => {
    status: number;
    headers?: Record<string, string>;
    body?: unknown;
    /** Sent as it is instead of `body` as JSON. */
    text?: string;
    hang?: boolean;
  })[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push({ at: Date.now(), idempotencyKey: req.headers['idempotency-key'] as string | undefined });
      const step = (script[seen.length - 1] ?? script[script.length - 1])(seen.length);
      if (step.hang) return; // never answers
      res.writeHead(step.status, {
        'content-type': 'application/json',
        'x-request-id': `r${seen.length}`,
        ...step.headers,
      });
      res.end(step.text ?? JSON.stringify(step.body ?? {}));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });
  beforeEach(() => {
    seen.length = 0;
  });

  const unavailable = {
    status: 503,
    headers: { 'retry-after': '1' },
    body: { error: { code: 'SERVICE_UNAVAILABLE', message: 'x', request_id: 'r' } },
  };
  const limited = {
    status: 429,
    headers: { 'retry-after': '1' },
    body: { error: { code: 'RATE_LIMITED', message: 'x', request_id: 'r' } },
  };

  it('honors Retry-After on 503 and 429 and sends the same Idempotency-Key on every attempt', async () => {
    script = [() => unavailable, () => limited, () => ({ status: 200, body: { decision_id: 'dec_x' } })];
    const c = new SignalAnalysisClient({ apiKey: 'sas_test_x', baseUrl: base });
    await expect(c.analyze(signal(7))).resolves.toEqual({ decision_id: 'dec_x' });
    expect(seen).toHaveLength(3);
    expect(new Set(seen.map((s) => s.idempotencyKey)).size).toBe(1);
    expect(seen[0].idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen[1].at - seen[0].at).toBeGreaterThanOrEqual(1_000);
    expect(seen[2].at - seen[1].at).toBeGreaterThanOrEqual(1_000);
  });

  it('retries a 500 with the same Idempotency-Key or of a read, and a 500 of another write not at all', async () => {
    const failed = { status: 500, body: { error: { code: 'INTERNAL_ERROR', message: 'x', request_id: 'r' } } };
    script = [() => failed, () => ({ status: 200, body: { decision_id: 'dec_x' } })];
    const c = new SignalAnalysisClient({ apiKey: 'sas_test_x', baseUrl: base, retryBaseMs: 10 });
    await expect(c.analyze(signal(11))).resolves.toEqual({ decision_id: 'dec_x' });
    expect(seen).toHaveLength(2);
    expect(new Set(seen.map((s) => s.idempotencyKey)).size).toBe(1);
    seen.length = 0;
    script = [() => failed];
    await expect(c.submitFeedback('dec_x', { category: 'billing' })).rejects.toMatchObject({
      status: 500,
      attempts: 1,
    });
    expect(seen).toHaveLength(1);
    // A read may always be retried (docs/partners.md, "Retrying").
    seen.length = 0;
    script = [() => failed, () => ({ status: 200, body: { decision_id: 'dec_x' } })];
    await expect(c.getDecision('dec_x')).resolves.toEqual({ decision_id: 'dec_x' });
    expect(seen).toHaveLength(2);
  });

  it('stops after maxRetries with the last error, typed', async () => {
    script = [() => unavailable];
    const c = new SignalAnalysisClient({ apiKey: 'sas_test_x', baseUrl: base, maxRetries: 1 });
    await expect(c.getDecision('dec_x')).rejects.toMatchObject({
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
      attempts: 2,
      retryAfterSeconds: 1,
    });
  });

  it('times out an attempt, retries it, and reports TIMEOUT when none answers', async () => {
    script = [() => ({ status: 200, hang: true })];
    const c = new SignalAnalysisClient({
      apiKey: 'sas_test_x',
      baseUrl: base,
      timeoutMs: 200,
      maxRetries: 1,
      retryBaseMs: 10,
    });
    const started = Date.now();
    await expect(c.analyze(signal(8))).rejects.toMatchObject({
      name: 'SignalAnalysisConnectionError',
      code: 'TIMEOUT',
      attempts: 2,
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(new Set(seen.map((s) => s.idempotencyKey)).size).toBe(1);
  });

  it('cancels the call, its retries and their waits through an AbortSignal', async () => {
    script = [() => unavailable];
    const c = new SignalAnalysisClient({ apiKey: 'sas_test_x', baseUrl: base, maxRetries: 10 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('caller gave up')), 300);
    const started = Date.now();
    await expect(c.analyze(signal(9), { signal: controller.signal })).rejects.toThrow('caller gave up');
    expect(Date.now() - started).toBeLessThan(1_000);
    await expect(c.analyze(signal(9), { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('refuses a success that is not JSON (a wrong baseUrl) instead of resolving to undefined', async () => {
    for (const text of ['<html><body>Welcome</body></html>', '']) {
      script = [() => ({ status: 200, headers: { 'content-type': 'text/html' }, text })];
      const c = new SignalAnalysisClient({ apiKey: 'sas_test_x', baseUrl: base });
      const err = await c.getDecision('dec_x').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SignalAnalysisError);
      expect(err).toMatchObject({ status: 200, code: 'HTTP_200', message: expect.stringContaining('not JSON') });
    }
  });

  it('refuses retry and timeout options that are not numbers it can count with', async () => {
    const made = (options: object) => () =>
      new SignalAnalysisClient({ apiKey: 'sas_test_x', baseUrl: base, ...options });
    // Number(process.env.UNSET) is NaN: with it a failing connection was retried without end.
    expect(made({ maxRetries: Number(undefined) })).toThrow(TypeError);
    expect(made({ maxRetries: -1 })).toThrow(TypeError);
    expect(made({ maxRetries: 1.5 })).toThrow(TypeError);
    expect(made({ timeoutMs: Number.NaN })).toThrow(TypeError);
    expect(made({ timeoutMs: 0 })).toThrow(TypeError);
    // A timer fires a wait past 2^31 - 1 ms after 1 ms: every attempt would time out at once.
    expect(made({ timeoutMs: 3_000_000_000 })).toThrow(TypeError);
    expect(made({ maxRetryAfterMs: Infinity })).toThrow(TypeError);
    expect(made({ retryMaxMs: -1 })).toThrow(TypeError);
    // Credentials in the URL would be repeated in a connection error's message.
    expect(made({ baseUrl: 'https://user:secret@api.example.com/api/v1' })).toThrow(/user name or password/);
    // No backoff, and never waiting on a Retry-After, stay allowed.
    expect(made({ maxRetries: 0, timeoutMs: 1, retryBaseMs: 0, retryMaxMs: 0, maxRetryAfterMs: 0 })).not.toThrow();
    const c = made({})();
    await expect(c.getDecision('dec_x', { maxRetries: Number.NaN })).rejects.toThrow(TypeError);
    expect(seen).toHaveLength(0);
  });

  it('reads an API Gateway answer ({"message"}) as HTTP_<status> with its request id', async () => {
    script = [
      () => ({ status: 413, headers: { 'apigw-requestid': 'gw-1' }, body: { message: 'Request Entity Too Large' } }),
    ];
    const c = new SignalAnalysisClient({ apiKey: 'sas_test_x', baseUrl: base });
    await expect(c.analyze(signal(10))).rejects.toMatchObject({
      status: 413,
      code: 'HTTP_413',
      message: 'Request Entity Too Large',
    });
  });
});
