// X-Ray tracing (lambdas/tracing.ts) end to end: a service over DynamoDB Local, its requests over the local HTTP API,
// and a UDP socket standing in for the X-Ray daemon Lambda runs. What an operator would see: a sampled invocation
// arrives as a subsegment of Lambda's segment with each DynamoDB call and the decision id; an invocation Lambda did
// not sample sends nothing; with tracing off nothing is sent at all.
import { createSocket, type Socket } from 'node:dgram';
import { AdminService } from '../../lib/admin';
import { startLocalServer } from '../../lib/local/server';
import { type Service, createService } from '../../lambdas/service';
import { DynamoAccessStore } from '../../lambdas/stores/access-store';
import type { TraceDocument } from '../../lambdas/tracing';
import { type TestTables, createTestTables } from '../support/dynamodb';
import { call } from '../support/http';
import { partnerWithKey, testSettings } from '../support/local-api';

const ROOT = '1-67a1b2c3-0123456789abcdef01234567';
const PARENT = '53995c3f42cd8ad8';
const signal = { workspace_id: 'ws_trace', source: 'email', subject: 'Production database is down', sender: 'a@b.co' };

let tables: TestTables;
let daemon: Socket;
let received: TraceDocument[] = [];
/** The environment Lambda gives the function: its X-Ray header changes with each invocation. */
const lambdaEnv: Record<string, string | undefined> = {};
let key: string;

/** Waits until the daemon has `count` documents (UDP on loopback: they arrive within milliseconds). */
async function documents(count: number): Promise<TraceDocument[]> {
  for (let i = 0; i < 200 && received.length < count; i++) await new Promise((r) => setImmediate(r));
  return received;
}

async function serve(tracingEnabled: boolean): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const port = daemon.address().port;
  const service: Service = createService(
    testSettings(tables, { tracingEnabled, xrayDaemonAddress: `127.0.0.1:${port}` }),
    { lambdaEnv },
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

describe('with tracing on (the stack turns it on with active tracing)', () => {
  let api: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    api = await serve(true);
  });
  afterAll(() => api?.close());

  it('sends a sampled analyze as a subsegment of Lambda’s, with its DynamoDB calls and the decision id', async () => {
    lambdaEnv._X_AMZN_TRACE_ID = `Root=${ROOT};Parent=${PARENT};Sampled=1;Lineage=a87bd80c:1`;
    const reply = await call(api.baseUrl, 'POST', '/signals/analyze', { key, body: signal });
    expect(reply.status).toBe(200);
    const decisionId = (reply.json as { decision_id: string }).decision_id;

    // The authorizer and the route are two invocations (two Lambdas on AWS): one subsegment each.
    const [authorizer, route] = await documents(2);
    expect(authorizer).toMatchObject({ name: 'authorizer', type: 'subsegment', trace_id: ROOT, parent_id: PARENT });
    expect(route).toMatchObject({
      name: 'POST /api/v1/signals/analyze',
      type: 'subsegment',
      trace_id: ROOT,
      parent_id: PARENT,
      annotations: { decision_id: decisionId },
    });
    expect(route.end_time).toBeGreaterThanOrEqual(route.start_time);
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

  it('names the subsegment by its route and annotates no id when no decision is found', async () => {
    lambdaEnv._X_AMZN_TRACE_ID = `Root=${ROOT};Parent=${PARENT};Sampled=1`;
    const reply = await call(api.baseUrl, 'GET', '/decisions/dec_01JDZZZZZZZZZZZZZZZZZZZZZZ', { key });
    expect(reply.status).toBe(404);
    const [, route] = await documents(2);
    expect(route.name).toBe('GET /api/v1/decisions/decision_id');
    expect(route.annotations).toBeUndefined(); // no decision was found: nothing to annotate
    expect(route.subsegments?.map((c) => c.aws?.operation)).toEqual(['GetItem']);
  });

  it('sends nothing for an invocation Lambda did not sample', async () => {
    lambdaEnv._X_AMZN_TRACE_ID = `Root=${ROOT};Parent=${PARENT};Sampled=0`;
    const reply = await call(api.baseUrl, 'POST', '/signals/analyze', { key, body: signal });
    expect(reply.status).toBe(200);
    // A sampled request after it: its documents arrive, and are the only ones.
    lambdaEnv._X_AMZN_TRACE_ID = `Root=${ROOT};Parent=${PARENT};Sampled=1`;
    await call(api.baseUrl, 'GET', '/decisions/dec_01JDZZZZZZZZZZZZZZZZZZZZZZ', { key });
    const docs = await documents(2);
    expect(docs.map((d) => d.name)).toEqual(['authorizer', 'GET /api/v1/decisions/decision_id']);
  });
});

it('sends nothing with tracing off, whatever the header says (local mode and tests by default)', async () => {
  const api = await serve(false);
  try {
    lambdaEnv._X_AMZN_TRACE_ID = `Root=${ROOT};Parent=${PARENT};Sampled=1`;
    const reply = await call(api.baseUrl, 'POST', '/signals/analyze', { key, body: signal });
    expect(reply.status).toBe(200);
    // Let the event loop turn over as a sampled request's documents would need, then look.
    await documents(1);
    expect(received).toEqual([]);
  } finally {
    await api.close();
  }
});
