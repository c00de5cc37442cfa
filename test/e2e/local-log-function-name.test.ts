// Each log line names the function that wrote it, as in a Lambda, where every route is a function of its own. Local
// mode serves every route and the authorizer in one process through one logger: while one route's request waits on
// the database, another route's request (and every request's authorizer) starts, and a name the logger kept from the
// last request it started would land on the waiting request's lines.
import { call } from '../support/http';
import { type TestApi, partnerWithKey, startTestApi } from '../support/local-api';

let api: TestApi;
let key: string;
const written: string[] = [];
const realWrite = process.stdout.write;

beforeAll(async () => {
  api = await startTestApi('log-function-name', { logLevel: 'INFO' });
  ({ key } = await partnerWithKey(api.admin, 'acme', ['ws_a', 'ws_b']));
  // Powertools writes its INFO lines to stdout: read them, and keep them out of the run's output.
  process.stdout.write = (chunk: string | Uint8Array, ...rest: unknown[]) => {
    written.push(String(chunk));
    if (String(chunk).startsWith('{')) return true;
    return (realWrite as (...args: unknown[]) => boolean).call(process.stdout, chunk, ...rest);
  };
});
afterAll(async () => {
  process.stdout.write = realWrite;
  await api?.close();
});

it("names each request's own route as function_name when two routes' requests are in flight at once", async () => {
  const analyses = Array.from({ length: 6 }, (_, i) =>
    call(api.baseUrl, 'POST', '/signals/analyze', {
      key,
      body: { workspace_id: 'ws_a', source: 'task', subject: `Renew the certificate ${i}` },
    }),
  );
  const policies = Array.from({ length: 6 }, (_, i) =>
    call(api.baseUrl, 'PUT', '/workspaces/ws_b/policy', { key, body: { vip_senders: [`@vip${i}.example`] } }),
  );
  const answers = await Promise.all([...analyses, ...policies]);
  for (const answer of answers) expect(answer.status).toBe(200);
  const lines = written
    .flatMap((chunk) => chunk.split('\n'))
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const stored = lines.filter((l) => l.message === 'decision stored');
  const policy = lines.filter((l) => l.message === 'policy stored');
  expect(stored).toHaveLength(6);
  expect(policy).toHaveLength(6);
  expect(stored.map((l) => l.function_name)).toEqual(Array(6).fill('Analyze'));
  expect(policy.map((l) => l.function_name)).toEqual(Array(6).fill('PutPolicy'));
  // And its own invocation: no two requests' lines share one.
  expect(new Set([...stored, ...policy].map((l) => l.function_request_id)).size).toBe(12);
});
