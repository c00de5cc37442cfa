// What the routes log, read from the JSON lines themselves. A batch retried while its first attempt may still be
// storing its decisions is answered 503 on purpose (docs/operations.md, "What a 503 means"): nothing failed, so it is
// a warning with its reason, not a server error that pages on-call through the ServerErrors alarm and sends them to
// the database. And each line names its own request, also when local mode serves requests at once.
import { loseBatchDecisions } from '../support/batch-replay';
import { call, expectError } from '../support/http';
import { type TestApi, partnerWithKey, startTestApi } from '../support/local-api';

let api: TestApi;
let key: string;
const written: string[] = [];
const realWrites = { stdout: process.stdout.write, stderr: process.stderr.write };

beforeAll(async () => {
  api = await startTestApi('batch-in-flight', { logLevel: 'INFO', metricsEnabled: true });
  ({ key } = await partnerWithKey(api.admin, 'acme', ['ws_a']));
  // Powertools writes its JSON lines and EMF metrics to stdout, warnings and errors to stderr: read them, and keep
  // them out of the run's output.
  for (const name of ['stdout', 'stderr'] as const) {
    const stream = process[name];
    stream.write = (chunk: string | Uint8Array, ...rest: unknown[]) => {
      written.push(String(chunk));
      if (String(chunk).startsWith('{')) return true;
      return (realWrites[name] as (...args: unknown[]) => boolean).call(stream, chunk, ...rest);
    };
  }
});
afterAll(async () => {
  process.stdout.write = realWrites.stdout;
  process.stderr.write = realWrites.stderr;
  await api?.close();
});

it('logs the early retry of a batch as a deferred request, and counts no server error', async () => {
  const signals = [1, 2].map((i) => ({ workspace_id: 'ws_a', source: 'task', subject: `Ship release ${i}` }));
  const headers = { 'idempotency-key': 'batch-in-flight' };
  const first = await call(api.baseUrl, 'POST', '/signals/analyze-batch', { key, body: { signals }, headers });
  expect(first.status).toBe(200);
  const ids = first.json.data.map((item: { decision: { decision_id: string } }) => item.decision.decision_id);
  await loseBatchDecisions(api.tables, ids, { failed: false });
  const early = await call(api.baseUrl, 'POST', '/signals/analyze-batch', { key, body: { signals }, headers });
  expectError(early, 503, 'SERVICE_UNAVAILABLE');
  const requestId = early.headers.get('x-request-id');
  const lines = written
    .flatMap((chunk) => chunk.split('\n'))
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const mine = lines.filter((l) => l.request_id === requestId);
  expect(mine).toContainEqual(
    expect.objectContaining({ level: 'WARN', message: 'request deferred', reason: 'batch_in_flight' }),
  );
  expect(mine.filter((l) => l.level === 'ERROR')).toEqual([]);
  expect(lines.filter((l) => 'ServerErrors' in l)).toEqual([]);
});

it("names each request's own id on its log line, when requests are served at once", async () => {
  const answers = await Promise.all(
    Array.from({ length: 8 }, (_, i) =>
      call(api.baseUrl, 'POST', '/signals/analyze', {
        key,
        body: { workspace_id: 'ws_a', source: 'task', subject: `Renew the certificate ${i}` },
      }),
    ),
  );
  const lines = written
    .flatMap((chunk) => chunk.split('\n'))
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  for (const answer of answers) {
    expect(answer.status).toBe(200);
    const stored = lines.filter((l) => l.message === 'decision stored' && l.decision_id === answer.json.decision_id);
    expect(stored.map((l) => l.request_id)).toEqual([answer.headers.get('x-request-id')]);
  }
});

it("logs a batch's refused items by code, so on-call can say why items failed", async () => {
  const signals = [
    { workspace_id: 'ws_a', source: 'task', subject: 'Ship release 3' },
    { workspace_id: 'ws_not_granted', source: 'task', subject: 'Ship release 4' },
  ];
  const answer = await call(api.baseUrl, 'POST', '/signals/analyze-batch', { key, body: { signals } });
  expect(answer.status).toBe(200);
  const requestId = answer.headers.get('x-request-id');
  const line = written
    .flatMap((chunk) => chunk.split('\n'))
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .find((l) => l.request_id === requestId && l.message === 'batch stored');
  expect(line).toMatchObject({ signals: 2, item_errors: { WORKSPACE_NOT_ALLOWED: 1 } });
});
