// An API key or Idempotency-Key the SDK cannot put into an HTTP header (a line break or a control character inside,
// as a key pasted across lines or two keys in one variable have) used to be taken for a connection failure: fetch's
// TypeError was retried with backoff, then thrown as `CONNECTION_ERROR` "could not reach ...", with that TypeError
// as its `cause`, whose message quotes the whole Authorization value. Logging the error (console.error prints the
// cause) logged the key. It is a usage error: thrown at once, naming the option, never repeating its value.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { SignalAnalysisClient, SignalAnalysisConnectionError } from '../../sdk/src';

const SECRET = 'NeverPrintMe0123456789abcdefghij';
const signal = { workspace_id: 'ws_a', source: 'task' as const, subject: 'Renew the certificate' };

let baseUrl: string;
let requests = 0;
const server = createServer((req, res) => {
  requests++;
  res.writeHead(401, { 'content-type': 'application/json', 'x-request-id': 'r1' });
  res.end(
    JSON.stringify({ error: { code: 'UNAUTHORIZED', message: 'Missing or invalid API key.', request_id: 'r1' } }),
  );
});
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/** What a call made with these options ends in: the constructor's throw or the call's rejection. */
async function outcome(apiKey: string, idempotencyKey?: string): Promise<unknown> {
  try {
    const client = new SignalAnalysisClient({ apiKey, baseUrl, retryBaseMs: 50 });
    return await client.analyze(signal, { idempotencyKey });
  } catch (err) {
    return err;
  }
}

it.each([
  ['a line break', `sas_live_${SECRET}\nsas_live_${SECRET}`],
  ['a carriage return', `sas_live_${SECRET}\r${SECRET}`],
  ['a NUL', `sas_live_${SECRET}\u0000`],
])('refuses an API key with %s at once, without retrying or repeating it', async (_, apiKey) => {
  requests = 0;
  const err = await outcome(apiKey);
  expect(err).toBeInstanceOf(TypeError);
  expect(err).not.toBeInstanceOf(SignalAnalysisConnectionError);
  expect((err as Error).message).toMatch(/apiKey/);
  expect(inspect(err, { depth: Infinity })).not.toContain(SECRET);
  expect(requests).toBe(0);
});

it('refuses an Idempotency-Key a header cannot carry at once, naming it', async () => {
  requests = 0;
  const err = await outcome(`sas_live_${SECRET}`, 'job-1\njob-2');
  expect(err).toBeInstanceOf(TypeError);
  expect((err as Error).message).toMatch(/idempotencyKey|Idempotency-Key/);
  expect(requests).toBe(0);
});

it('still sends a key read from a file with its trailing newline (fetch trims it)', async () => {
  requests = 0;
  const err = await outcome(`sas_live_${SECRET}\n`);
  expect(err).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
  expect(requests).toBe(1);
});

it.each([
  ['an API key with a control character fetch refuses only when sending', `sas_live_${SECRET}\u0001`, undefined],
  ['an Idempotency-Key with a control character', `sas_live_${SECRET}`, 'job-1\u0001'],
])('refuses %s at once, not as a connection failure after every retry', async (_, apiKey, idempotencyKey) => {
  requests = 0;
  const err = await outcome(apiKey, idempotencyKey);
  expect(err).toBeInstanceOf(TypeError);
  expect(inspect(err, { depth: Infinity })).not.toContain(SECRET);
  expect(requests).toBe(0);
});

it('refuses an Idempotency-Key beginning or ending with a space, which fetch would send as another key', async () => {
  requests = 0;
  for (const key of [' job-1', 'job-1 ', 'x'.repeat(256)]) {
    expect(await outcome(`sas_live_${SECRET}`, key)).toBeInstanceOf(TypeError);
  }
  expect(requests).toBe(0);
  // A space inside is a printable ASCII character like any other (docs/partners.md).
  expect(await outcome(`sas_live_${SECRET}`, 'job 1')).toMatchObject({ status: 401 });
});

it('sends a key over plain HTTP only to this machine', () => {
  for (const baseUrl of ['http://api.example.com/api/v1', 'http://10.0.0.7:3000/api/v1', 'ftp://example.com/api/v1']) {
    expect(() => new SignalAnalysisClient({ apiKey: `sas_live_${SECRET}`, baseUrl })).toThrow(TypeError);
  }
  for (const baseUrl of [
    'https://api.example.com/api/v1',
    'http://localhost:3000/api/v1',
    'http://[::1]:3000/api/v1',
  ]) {
    expect(() => new SignalAnalysisClient({ apiKey: `sas_live_${SECRET}`, baseUrl })).not.toThrow();
  }
});
