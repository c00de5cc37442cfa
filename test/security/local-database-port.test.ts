// Issue 21, finding 3: local mode's database secret (the access key id that names its data inside DynamoDB Local)
// must reach nobody but the DynamoDB Local process local mode started. Another local process that holds the database
// port (after the JVM died, or before it binds at start-up) gets connections but never a byte of a signed request:
// the admin CLI and local mode stop with a clear message instead.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { type Server, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { generateAccessKeyId, CREDENTIALS_FILE } from '../../lib/local/credentials';
import { dynamoDbAnswers, freePort } from '../../lib/local/dynamodb-local';
import { OwnedListenerAgent } from '../../lib/local/listener-owner';
import { removePortRecord, writePortRecord } from '../../lib/local/port-record';
import { call } from '../support/http';
import { TSX_NODE_ARGS } from '../support/tsx';
import { jvmOf, startLocalMode } from '../support/local-mode';

jest.setTimeout(240_000);

const repo = resolve(__dirname, '..', '..');
const started: ChildProcess[] = [];
const servers: Server[] = [];
const dirs: string[] = [];

/** A process that is not the database: it listens on `port` and keeps every byte it is sent. */
async function foreignListener(
  port: number,
  attempts = 1,
): Promise<{ received: () => string; connections: () => number }> {
  let received = '';
  let connections = 0;
  for (let attempt = 1; ; attempt++) {
    const server = createServer((socket) => {
      connections++;
      socket.on('data', (chunk) => {
        received += chunk.toString('latin1');
        socket.end('HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
      });
      socket.on('error', () => undefined);
    });
    const bound = await new Promise<boolean>((done) => {
      server.once('error', () => done(false));
      server.listen(port, () => done(true)); // every interface, as DynamoDB Local binds
    });
    if (bound) {
      servers.push(server);
      return { received: () => received, connections: () => connections };
    }
    if (attempt >= attempts) throw new Error(`could not bind port ${port}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

afterAll(async () => {
  for (const server of servers) await new Promise((r) => server.close(r));
  for (const child of started) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

it('the admin CLI sends no signed request to a process that is not local mode’s database', async () => {
  const port = await freePort();
  const secret = generateAccessKeyId();
  const foreign = await foreignListener(port);
  // A live record says local mode (this process) runs a database on the port; what listens there is not its child.
  writePortRecord({ accessKeyId: secret, region: 'us-east-1', port, pid: process.pid, dataDir: ':memory:' });
  try {
    const result = await new Promise<{ code: number | null; stderr: string }>((done) => {
      execFile(
        process.execPath,
        [...TSX_NODE_ARGS, 'bin/admin.ts', 'key', 'list', '--partner', 'demo'],
        { cwd: repo, env: { ...process.env, LOCAL_DYNAMODB_PORT: String(port) }, timeout: 60_000 },
        (err, _stdout, stderr) => done({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stderr }),
      );
    });
    expect(foreign.received()).not.toContain(secret);
    expect(foreign.received()).toBe('');
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(new RegExp(`port ${port} is held by another process, not by the embedded database`));
  } finally {
    removePortRecord(port, process.pid);
  }
});

it('at start-up, a listener that is not the JVM being started gets no signed request', async () => {
  const port = await freePort();
  const secret = generateAccessKeyId();
  const foreign = await foreignListener(port);
  // The JVM that was started (here a stand-in child process) has not bound the port yet; something else has.
  const child = spawn('sleep', ['60'], { detached: true, stdio: 'ignore' });
  started.push(child);
  let refused: Error | undefined;
  const agent = new OwnedListenerAgent(
    port,
    () => [child.pid!],
    (err) => (refused = err),
  );
  const answered = await dynamoDbAnswers(
    `http://127.0.0.1:${port}`,
    5_000,
    { accessKeyId: secret, region: 'us-east-1' },
    agent,
  );
  expect(answered).toBe(false);
  expect(foreign.connections()).toBeGreaterThan(0); // it was reached...
  expect(foreign.received()).toBe(''); // ...and sent nothing
  expect(refused?.message).toMatch(/is held by another process/);
});

it('local mode sends no signed request to a process that takes the port after the database died, and stops', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sas-port-'));
  dirs.push(dataDir);
  const dbPort = await freePort();
  const { child, output, baseUrl, demoKey, exited } = await startLocalMode(
    { PORT: '0', LOCAL_DYNAMODB_PORT: String(dbPort), LOCAL_DATA_DIR: dataDir, DYNAMODB_REQUEST_TIMEOUT_MS: '4000' },
    { started },
  );
  const { accessKeyId: secret } = JSON.parse(readFileSync(join(dataDir, CREDENTIALS_FILE), 'utf8'));

  process.kill(jvmOf(child.pid!), 'SIGKILL');
  // The port is free the moment the JVM is gone; this process takes it before any restart can.
  const foreign = await foreignListener(dbPort, 2_000);
  for (let i = 0; i < 3; i++) {
    await call(baseUrl, 'POST', '/signals/analyze', {
      key: demoKey,
      body: { workspace_id: 'ws_demo', source: 'task', subject: `While the port is taken ${i}` },
    }).catch(() => undefined); // local mode may already have stopped
  }
  expect(foreign.received()).not.toContain(secret);
  expect(foreign.received()).toBe('');

  const code = await exited;
  expect(code).not.toBe(0);
  expect(code).not.toBeNull();
  // Its last words may still be in the pipe when 'exit' fires (Node's documentation): read until they are in.
  const said = /local mode stops: .*(another process took its port|is held by another process)/;
  const deadline = Date.now() + 10_000;
  while (!said.test(output()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  expect(output()).toMatch(said);
});
