// X-Ray tracing (lambdas/tracing.ts) end to end: a service over DynamoDB Local, its requests over the local HTTP API.
// What an operator would see: a traced request is one trace holding the authorizer's segment and the route's, found
// by the request's X-Request-Id, with each DynamoDB call and the decision id; at a share of 0, or with tracing off,
// nothing is sent. Segments go to a UDP socket standing in for an X-Ray daemon (local mode), or, as in Lambda, to
// X-Ray's PutTraceSegments: an HTTP server on loopback stands in for X-Ray's endpoint, reached by the real SDK
// client. Its faults (an error answer, no answer) are caused for real; the request they traced still succeeds.
import { createSocket, type Socket } from 'node:dgram';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AdminService } from '../../lib/admin';
import { startLocalServer } from '../../lib/local/server';
import type { Settings } from '../../lambdas/contract/settings';
import { type Service, createService } from '../../lambdas/service';
import { DynamoAccessStore } from '../../lambdas/stores/access-store';
import { TRACE_SEND_TIMEOUT_MS, xrayApiSink } from '../../lambdas/trace-sinks';
import type { TraceDocument, TraceSink } from '../../lambdas/tracing';
import { type TestTables, createTestTables } from '../support/dynamodb';
import { call } from '../support/http';
import { partnerWithKey, testSettings } from '../support/local-api';

const signal = { workspace_id: 'ws_trace', source: 'email', subject: 'Production database is down', sender: 'a@b.co' };
const MISSING = '/decisions/dec_01JDZZZZZZZZZZZZZZZZZZZZZZ';

let tables: TestTables;
let daemon: Socket;
let received: TraceDocument[] = [];
let key: string;

/** Waits until `count` segments have arrived (UDP on loopback: within milliseconds of the send). */
async function segments(count: number): Promise<TraceDocument[]> {
  for (let i = 0; i < 200 && received.length < count; i++) await new Promise((r) => setImmediate(r));
  return received;
}

async function serve(
  overrides: Partial<Settings>,
  sink?: TraceSink,
): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const service: Service = createService(
    testSettings(tables, { xrayDaemonAddress: `127.0.0.1:${daemon.address().port}`, ...overrides }),
    sink ? { sink } : {},
  );
  const server = await startLocalServer({ port: 0, handlers: service });
  return {
    baseUrl: server.baseUrl,
    async close() {
      await server.close();
      service.close();
    },
  };
}

beforeAll(async () => {
  tables = await createTestTables('tracing');
  const admin = new AdminService(new DynamoAccessStore(tables.client, tables.names.access, tables.names.decisions));
  ({ key } = await partnerWithKey(admin, 'tracer', ['ws_trace']));
  daemon = createSocket('udp4');
  daemon.on('message', (message) => {
    const [header, body] = message.toString('utf8').split('\n');
    expect(JSON.parse(header)).toEqual({ format: 'json', version: 1 });
    received.push(JSON.parse(body) as TraceDocument);
  });
  await new Promise<void>((resolve) => daemon.bind(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  daemon?.close();
  await tables?.drop();
});

beforeEach(() => {
  received = [];
});

describe('with tracing on, every request traced (TRACE_SAMPLE_RATE=1), to a daemon (local mode)', () => {
  let api: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    api = await serve({ tracingEnabled: true, traceSampleRate: 1 });
  });
  afterAll(() => api?.close());

  it('sends one trace per request: the authorizer’s segment and the route’s, with its DynamoDB calls and ids', async () => {
    const reply = await call(api.baseUrl, 'POST', '/signals/analyze', { key, body: signal });
    expect(reply.status).toBe(200);
    const decisionId = (reply.json as { decision_id: string }).decision_id;
    const requestId = reply.headers.get('x-request-id');

    const [authorizer, route] = await segments(2);
    expect(authorizer).toMatchObject({ name: 'authorizer', annotations: { request_id: requestId } });
    expect(route).toMatchObject({
      name: 'POST /api/v1/signals/analyze',
      trace_id: authorizer.trace_id,
      annotations: { request_id: requestId, decision_id: decisionId },
      http: { response: { status: 200 } },
    });
    // Segments of their own (Lambda records none in PassThrough), in the trace id format X-Ray takes.
    for (const segment of [authorizer, route]) {
      expect(segment.trace_id).toMatch(/^1-[0-9a-f]{8}-[0-9a-f]{24}$/);
      expect(segment).not.toHaveProperty('parent_id');
      expect(segment).not.toHaveProperty('type');
      expect(segment.end_time).toBeGreaterThanOrEqual(segment.start_time);
    }
    expect(route.id).not.toBe(authorizer.id);
    const calls = route.subsegments ?? [];
    expect(calls.map((c) => c.aws?.operation)).toContain('PutItem');
    for (const c of calls) {
      expect(c).toMatchObject({ name: 'DynamoDB', namespace: 'aws', http: { response: { status: 200 } } });
      expect(c.aws?.table_name ?? (c.aws?.table_names as string[])[0]).toMatch(/^t-tracing-/);
      expect(c.end_time).toBeGreaterThanOrEqual(c.start_time);
    }
    // Ids and names only: never the key, the Authorization header or the signal's text.
    const sent = JSON.stringify(received);
    for (const secret of [key, signal.subject, signal.sender]) expect(sent).not.toContain(secret);
  });

  it('names the segment by its route, marks a 404 as its error, and annotates no decision that was not found', async () => {
    const reply = await call(api.baseUrl, 'GET', MISSING, { key });
    expect(reply.status).toBe(404);
    const [authorizer, route] = await segments(2);
    expect(route).toMatchObject({
      name: 'GET /api/v1/decisions/decision_id',
      trace_id: authorizer.trace_id,
      http: { response: { status: 404 } },
      error: true,
    });
    expect(route.annotations).toEqual({ request_id: reply.headers.get('x-request-id') });
    expect(route.subsegments?.map((c) => c.aws?.operation)).toEqual(['GetItem']);
  });

  it('gives each request a trace of its own', async () => {
    await call(api.baseUrl, 'GET', MISSING, { key });
    await call(api.baseUrl, 'GET', MISSING, { key });
    const all = await segments(4);
    expect(new Set(all.map((s) => s.trace_id)).size).toBe(2);
  });
});

it('sends nothing at a share of 0, nor with tracing off (local mode and tests by default)', async () => {
  for (const overrides of [
    { tracingEnabled: true, traceSampleRate: 0 },
    { tracingEnabled: false, traceSampleRate: 1 },
  ]) {
    const api = await serve(overrides);
    try {
      const reply = await call(api.baseUrl, 'POST', '/signals/analyze', { key, body: signal });
      expect(reply.status).toBe(200);
      // Let the event loop turn over as a traced request's segments would need, then look.
      await segments(1);
      expect(received).toEqual([]);
    } finally {
      await api.close();
    }
  }
});

describe("to X-Ray's API, as in Lambda (PutTraceSegments over the SDK, an HTTP server standing in for X-Ray)", () => {
  let xray: Server;
  let endpoint: string;
  /** How the stand-in answers: X-Ray's own reply, an error, or nothing at all (the request hangs). */
  let answer: 'ok' | 'error' | 'never' = 'ok';
  const requests: { method?: string; url?: string; authorization?: string; body: string }[] = [];
  const warnings: { message: string; detail: { error: string } }[] = [];
  const hanging: ServerResponse[] = [];
  let api: Awaited<ReturnType<typeof serve>>;

  beforeAll(async () => {
    xray = createServer((req: IncomingMessage, res: ServerResponse) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        requests.push({ method: req.method, url: req.url, authorization: req.headers.authorization, body });
        if (answer === 'never') return void hanging.push(res);
        res.writeHead(answer === 'ok' ? 200 : 500, { 'content-type': 'application/json' });
        res.end(answer === 'ok' ? '{"UnprocessedTraceSegments":[]}' : '{"message":"internal"}');
      });
    });
    await new Promise<void>((resolve) => xray.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(xray.address() as AddressInfo).port}`;
    const sink = xrayApiSink({
      region: 'us-east-1',
      endpoint,
      credentials: { accessKeyId: 'AKIDTRACETEST', secretAccessKey: 'trace-test-secret' },
      warn: (message, detail) => warnings.push({ message, detail }),
    });
    api = await serve({ tracingEnabled: true, traceSampleRate: 1 }, sink);
  });

  afterAll(async () => {
    await api?.close();
    for (const res of hanging) res.destroy();
    xray?.closeAllConnections();
    await new Promise((resolve) => xray?.close(resolve));
  });

  beforeEach(() => {
    requests.length = 0;
    warnings.length = 0;
    answer = 'ok';
  });

  it('sends each segment with PutTraceSegments, signed for X-Ray, before the request is answered', async () => {
    const reply = await call(api.baseUrl, 'POST', '/signals/analyze', { key, body: signal });
    expect(reply.status).toBe(200);
    // Both segments arrived before the reply did: nothing is left to send once Lambda freezes the function.
    expect(requests.map((r) => [r.method, r.url])).toEqual([
      ['POST', '/TraceSegments'],
      ['POST', '/TraceSegments'],
    ]);
    for (const r of requests) expect(r.authorization).toMatch(/Credential=AKIDTRACETEST\/\d{8}\/us-east-1\/xray\//);
    const [authorizer, route] = requests.map(
      (r) =>
        JSON.parse(
          (JSON.parse(r.body) as { TraceSegmentDocuments: string[] }).TraceSegmentDocuments[0],
        ) as TraceDocument,
    );
    expect(authorizer.name).toBe('authorizer');
    expect(route).toMatchObject({
      name: 'POST /api/v1/signals/analyze',
      trace_id: authorizer.trace_id,
      annotations: { decision_id: (reply.json as { decision_id: string }).decision_id },
    });
    expect(warnings).toEqual([]);
  });

  it('answers the request when X-Ray fails, and warns with the error’s name only', async () => {
    answer = 'error';
    const reply = await call(api.baseUrl, 'POST', '/signals/analyze', { key, body: signal });
    expect(reply.status).toBe(200);
    expect(requests).toHaveLength(2); // one attempt per segment: no retry delays the request
    expect(warnings).toHaveLength(2);
    for (const w of warnings) expect(w.message).toBe('trace segment not sent');
    expect(JSON.stringify(warnings)).not.toMatch(/internal|ws_trace|Production/);
  });

  it(`answers the request when X-Ray does not answer, waiting at most ${TRACE_SEND_TIMEOUT_MS} ms per segment`, async () => {
    answer = 'never';
    // A send that never gave up would hang this request until the test's own timeout.
    const reply = await call(api.baseUrl, 'GET', MISSING, { key });
    expect(reply.status).toBe(404);
    expect(requests).toHaveLength(2);
    expect(warnings.map((w) => w.message)).toEqual(['trace segment not sent', 'trace segment not sent']);
  });
});
