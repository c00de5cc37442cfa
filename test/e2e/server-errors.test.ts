// A real 500: the service's decisions table does not exist (DynamoDB Local answers ResourceNotFoundException, which
// is a bug in the set-up, not an outage). The client gets the contract's 500; the log says enough to find the fault
// (error name, stack frames, request id, the Lambda context, whose request: partner, key id, workspace) and nothing of
// the request's secrets (key, body).
import { call, expectError } from '../support/http';
import { type TestApi, partnerWithKey, startTestApi } from '../support/local-api';

let api: TestApi;
let key: string;
const written: string[] = [];
const realWrites = { stdout: process.stdout.write, stderr: process.stderr.write };

beforeAll(async () => {
  api = await startTestApi('server-errors', { decisionsTableName: 'no-such-table', logLevel: 'INFO' });
  ({ key } = await partnerWithKey(api.admin, 'acme', ['ws_a']));
  // Powertools writes its JSON lines to stdout, and errors to stderr.
  for (const name of ['stdout', 'stderr'] as const) {
    const stream = process[name];
    const real = realWrites[name];
    stream.write = (chunk: string | Uint8Array, ...rest: unknown[]) => {
      written.push(String(chunk));
      // The service's JSON log lines are what this test reads; keep them out of the test run's output.
      if (String(chunk).startsWith('{')) return true;
      return (real as (...args: unknown[]) => boolean).call(stream, chunk, ...rest);
    };
  }
});
afterAll(async () => {
  process.stdout.write = realWrites.stdout;
  process.stderr.write = realWrites.stderr;
  await api?.close();
});

it('answers 500 INTERNAL_ERROR and logs the error name, stack frames and request id, never the key or the text', async () => {
  const text = 'Confidential: the merger closes on Friday';
  const reply = await call(api.baseUrl, 'POST', '/signals/analyze', {
    key,
    body: { workspace_id: 'ws_a', source: 'email', subject: text, body: text, sender: 'ann@example.com' },
  });
  expectError(reply, 500, 'INTERNAL_ERROR');
  const requestId = reply.headers.get('x-request-id');
  const lines = written.flatMap((chunk) => chunk.split('\n')).filter((l) => l.startsWith('{'));
  const failure = lines
    .map((l) => JSON.parse(l))
    .find((l) => l.message === 'request failed' && l.request_id === requestId);
  expect(failure).toMatchObject({
    level: 'ERROR',
    partner_id: 'acme',
    key_id: expect.stringMatching(/^key_/),
    workspace_id: 'ws_a',
    code: 'INTERNAL_ERROR',
    error: { name: 'ResourceNotFoundException', frames: expect.arrayContaining([expect.stringMatching(/^at /)]) },
    function_name: 'Analyze',
    cold_start: expect.any(Boolean),
    function_request_id: expect.any(String),
  });
  const all = lines.join('\n');
  expect(all).not.toContain('merger');
  expect(all).not.toContain(key.slice(9));
});

it('logs each failed request under its own request id when several run at once (local mode shares one logger)', async () => {
  const replies = await Promise.all(
    Array.from({ length: 8 }, (_, i) =>
      call(api.baseUrl, 'POST', '/signals/analyze', {
        key,
        body: { workspace_id: 'ws_a', source: 'task', subject: `Renew certificate ${i}` },
      }),
    ),
  );
  const logged = written
    .flatMap((chunk) => chunk.split('\n'))
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { message?: string; request_id?: string })
    .filter((l) => l.message === 'request failed')
    .map((l) => l.request_id);
  for (const reply of replies) {
    expectError(reply, 500, 'INTERNAL_ERROR');
    expect(logged).toContain(reply.headers.get('x-request-id'));
  }
});
