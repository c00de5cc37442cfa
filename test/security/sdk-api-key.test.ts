// Issue 21, finding 8: logging or serializing an SDK client must never show its API key (it used to be an ordinary
// property). The key still reaches the service: a real socket server records the Authorization header it receives.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Console } from 'node:console';
import { Writable } from 'node:stream';
import { format, inspect } from 'node:util';
import { SignalAnalysisClient } from '../../sdk/src';

const KEY = 'sas_test_NeverPrintMe0123456789abcdefghijkl';

it('keeps the API key out of util.inspect, console.log and JSON.stringify, and still sends it', async () => {
  const client = new SignalAnalysisClient({ apiKey: KEY, baseUrl: 'http://127.0.0.1:9/api/v1' });

  expect(inspect(client, { depth: Infinity, showHidden: true })).not.toContain(KEY);
  expect(JSON.stringify(client)).not.toContain(KEY);
  expect(JSON.stringify({ nested: [client] })).not.toContain(KEY);
  expect(format('%o %O %j %s', client, client, client, client)).not.toContain(KEY);
  expect(Object.values(client).join(' ')).not.toContain(KEY);
  expect(Reflect.ownKeys(client).map(String)).not.toContain('apiKey');

  // A console of Node's own writing to a stream we read (jest replaces the global one with its own).
  const printed: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      printed.push(String(chunk));
      done();
    },
  });
  const out = new Console({ stdout: sink, stderr: sink });
  out.log(client);
  out.log('%o', client);
  out.dir(client, { depth: null, showHidden: true });
  out.error({ client });
  expect(printed.join('')).toContain('SignalAnalysisClient');
  expect(printed.join('')).not.toContain(KEY);

  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ workspace_id: 'ws_a', version: 0, updated_at: null }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const live = new SignalAnalysisClient({ apiKey: KEY, baseUrl: `http://127.0.0.1:${port}/api/v1`, maxRetries: 0 });
    await live.getPolicy('ws_a');
    expect(seen.map((h) => h.authorization)).toEqual([`Bearer ${KEY}`]);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
