// Local mode's access log has a line for every request, as the stage's access log on AWS does: also for a request
// whose client went away before its answer, with the status the answer had and a marker saying nobody received it.
// Fake handlers on a real socket.
import { request } from 'node:http';
import { type RunningServer, startLocalServer } from '../../lib/local/server';
import { generateApiKey } from '../../lambdas/domain/api-key';

const ROUTE_MS = 300;
const lines: string[] = [];
let lineWritten: (line: string) => void = () => undefined;
let server: RunningServer;

/** A local server whose GetDecision answers 200 after ROUTE_MS, writing its access lines to `accessLog`. */
function startServer(accessLog: (line: string) => void): Promise<RunningServer> {
  const ok = { statusCode: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}' };
  return startLocalServer({
    port: 0,
    handlers: {
      authorizer: async () => ({ isAuthorized: true, context: {} }),
      fallback: async () => ok,
      routes: { GetDecision: () => new Promise((resolve) => setTimeout(() => resolve(ok), ROUTE_MS)) },
    },
    accessLog,
  });
}

beforeAll(async () => {
  server = await startServer((line) => {
    lines.push(line);
    lineWritten(line);
  });
});
afterAll(() => server?.close());

/** The next access line, or undefined when none comes within `ms`. */
function nextLine(ms: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    lineWritten = (line) => {
      clearTimeout(timer);
      resolve(line);
    };
  });
}

it('writes a line with the status and a marker for a request whose client left before the answer', async () => {
  const line = nextLine(ROUTE_MS + 3_000);
  const sent = request(`${server.baseUrl}/decisions/dec_01KAM1Z8Q2N4W7Y3K6M1N0P2SX`);
  sent.on('error', () => undefined);
  // The request reached the server (its socket is open) and the route is running: the client goes away.
  sent.on('socket', (socket) => socket.on('connect', () => setTimeout(() => sent.destroy(), 50)));
  sent.end();
  expect(await line).toMatch(
    /^GET \/api\/v1\/decisions\/dec_01KAM1Z8Q2N4W7Y3K6M1N0P2SX 200 \d+\.\dms request_id=\S+ client_closed$/,
  );
});

it('writes one line without the marker for an answer the client received', async () => {
  const before = lines.length; // the lines other tests' requests left
  const line = nextLine(ROUTE_MS + 3_000);
  const res = await fetch(`${server.baseUrl}/decisions/dec_01KAM1Z8Q2N4W7Y3K6M1N0P2SX`);
  expect(res.status).toBe(200);
  await res.text();
  expect(await line).toMatch(/^GET \/api\/v1\/decisions\/dec_01KAM1Z8Q2N4W7Y3K6M1N0P2SX 200 \d+\.\dms request_id=\S+$/);
  expect(lines.slice(before).filter((l) => l.includes(' 200 '))).toHaveLength(1);
});

it('writes "-" for the status of a request whose client left before sending it whole (nothing ran)', async () => {
  const line = nextLine(3_000);
  const sent = request(`${server.baseUrl}/signals/analyze`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': '100' },
  });
  sent.on('error', () => undefined);
  sent.write('{"workspa', () => setTimeout(() => sent.destroy(), 50));
  expect(await line).toMatch(/^POST \/api\/v1\/signals\/analyze - \d+\.\dms request_id=\S+ client_closed$/);
});

it('marks a request local mode closed while stopping as server_closed, not as the client leaving', async () => {
  const stopped: string[] = [];
  let written: (line: string) => void = () => undefined;
  const done = new Promise<string>((resolve) => (written = resolve));
  const stopping = await startServer((line) => {
    stopped.push(line);
    written(line);
  });
  const sent = request(`${stopping.baseUrl}/decisions/dec_01KAM1Z8Q2N4W7Y3K6M1N0P2SX`);
  sent.on('error', () => undefined);
  sent.on('socket', (socket) => socket.on('connect', () => setTimeout(() => void stopping.close(), 50)));
  sent.end();
  expect(await done).toMatch(/ 200 \d+\.\dms request_id=\S+ server_closed$/);
  expect(stopped).toHaveLength(1);
});

it('masks an API key a partner put in the path by mistake', async () => {
  const key = generateApiKey();
  const line = nextLine(ROUTE_MS + 3_000);
  const res = await fetch(`${server.baseUrl}/workspaces/${key}/policy`);
  await res.text();
  const written = await line;
  expect(written).toMatch(/^GET \/api\/v1\/workspaces\/<API key>\/policy \d{3} /);
  expect(written).not.toContain(key);
});

it('masks a key in the path also when its characters are percent-encoded', async () => {
  const key = generateApiKey();
  const encoded = key.replace(/_/g, '%5F').replace(/^s/, '%73');
  const line = nextLine(ROUTE_MS + 3_000);
  const res = await fetch(`${server.baseUrl}/workspaces/${encoded}/policy%2Fx`);
  await res.text();
  const written = await line;
  // Only unreserved characters are decoded: an encoded slash stays as sent.
  expect(written).toMatch(/^GET \/api\/v1\/workspaces\/<API key>\/policy%2Fx \d{3} /);
  expect(written).not.toContain(key.slice(9));
  // Encoded twice, a key shows only decoded further: the line then holds no path.
  const twice = nextLine(ROUTE_MS + 3_000);
  await (await fetch(`${server.baseUrl}/workspaces/${key.replace(/_/g, '%255F')}/policy`)).text();
  const line2 = await twice;
  expect(line2).toMatch(/^GET <a path holding an API key> \d{3} /);
  expect(line2).not.toContain(key.slice(9, 25));
});
