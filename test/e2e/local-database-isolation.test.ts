// docs/operations.md, Local mode's embedded database: the embedded database serves nobody but local mode. Probed the way an outsider would: from
// another host on the network (a network namespace this test makes, joined to this machine by a veth pair with
// private addresses; no traffic leaves the machine), and as a web page would (a CORS preflight). Then the database
// is killed under local mode: 503 while it is down, the same data after the restart; in memory, local mode stops.
import { type ChildProcess, execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { CREDENTIALS_FILE } from '../../lib/local/credentials';
import { NO_WEB_ORIGIN } from '../../lib/local/dynamodb-local';
import { call, expectError } from '../support/http';
import { type LocalMode, jvmOf, startLocalMode as startLocal } from '../support/local-mode';
import { processAlive } from '../../lib/local/parent-watch';
import { TSX_NODE_ARGS } from '../support/tsx';

jest.setTimeout(400_000);

const repo = resolve(__dirname, '..', '..');
const exec = promisify(execFile);

// ---- the other host: a network namespace of our own -------------------------------------------------------------

const tag = randomBytes(3).toString('hex');
const ns = `sas-probe-${tag}`;
const hostIf = `sash${tag}`;
const nsIf = `sasn${tag}`;
/** A /30 in 10.0.0.0/8 that no route of this machine uses yet. */
function pickSubnet(): { host: string; peer: string } {
  const routes = spawnSync('ip', ['-4', 'route', 'show', 'table', 'all'], { encoding: 'utf8' }).stdout ?? '';
  for (;;) {
    const [a, b, c] = randomBytes(3);
    const base = `10.${a}.${b}.${c & 0xfc}`;
    if (!routes.includes(`10.${a}.${b}.`)) {
      const [p1, p2, p3, p4] = base.split('.').map(Number);
      return { host: `${p1}.${p2}.${p3}.${p4 + 1}`, peer: `${p1}.${p2}.${p3}.${p4 + 2}` };
    }
  }
}
const subnet = pickSubnet();

function ip(...args: string[]): string | undefined {
  const r = spawnSync('ip', args, { encoding: 'utf8' });
  if (r.error) return r.error.message;
  return r.status === 0 ? undefined : (r.stderr || `ip ${args.join(' ')} failed`).trim();
}

/** Makes the namespace and the veth pair; the reason it could not, or undefined. */
function makeProbeHost(): string | undefined {
  if (process.platform !== 'linux') return `network namespaces need Linux (this is ${process.platform})`;
  const failed =
    ip('netns', 'add', ns) ??
    ip('link', 'add', hostIf, 'type', 'veth', 'peer', 'name', nsIf) ??
    ip('link', 'set', nsIf, 'netns', ns) ??
    ip('addr', 'add', `${subnet.host}/30`, 'dev', hostIf) ??
    ip('link', 'set', hostIf, 'up') ??
    ip('netns', 'exec', ns, 'ip', 'addr', 'add', `${subnet.peer}/30`, 'dev', nsIf) ??
    ip('netns', 'exec', ns, 'ip', 'link', 'set', nsIf, 'up') ??
    ip('netns', 'exec', ns, 'ip', 'link', 'set', 'lo', 'up');
  if (failed) {
    removeProbeHost();
    const who = process.getuid?.() === 0 ? '' : ' (not running as root)';
    return `cannot make a network namespace${who}: ${failed}`;
  }
  return undefined;
}
function removeProbeHost() {
  // Deleting the namespace deletes the veth pair with it; the host end is removed too in case it was not moved.
  ip('netns', 'del', ns);
  ip('link', 'del', hostIf);
}

const noNamespace = makeProbeHost();
const withNamespace = noNamespace ? it.skip : it;
if (noNamespace) {
  console.warn(`local-database-isolation: probing from another host is SKIPPED: ${noNamespace}`);
  it.skip(`probing from another host is skipped: ${noNamespace}`, () => undefined);
}

/**
 * Runs DynamoDB calls inside the namespace, as another machine would, against the host's address. Each probe is
 * ListTables plus a Scan of the service's access table with one set of credentials; returns what each saw.
 */
async function probeFromOtherHost(port: number, credentials: { id: string; region: string }[]) {
  const script = `
    const { DynamoDBClient, ListTablesCommand, ScanCommand } = require('@aws-sdk/client-dynamodb');
    (async () => {
      const out = [];
      for (const c of ${JSON.stringify(credentials)}) {
        const client = new DynamoDBClient({ endpoint: 'http://${subnet.host}:${port}', region: c.region, maxAttempts: 1,
          credentials: { accessKeyId: c.id, secretAccessKey: 'guess' } });
        const seen = { id: c.id, region: c.region };
        try { seen.tables = (await client.send(new ListTablesCommand({}))).TableNames; } catch (e) { seen.listError = e.name; }
        try { seen.items = (await client.send(new ScanCommand({ TableName: 'sas-access' }))).Items.length; } catch (e) { seen.scanError = e.name; }
        out.push(seen);
        client.destroy();
      }
      process.stdout.write(JSON.stringify(out));
    })();`;
  const { stdout } = await exec('ip', ['netns', 'exec', ns, process.execPath, '-e', script], {
    cwd: repo,
    env: process.env,
    timeout: 60_000,
  });
  return JSON.parse(stdout) as {
    id: string;
    region: string;
    tables?: string[];
    listError?: string;
    items?: number;
    scanError?: string;
  }[];
}

// ---- local mode as `npm start` runs it --------------------------------------------------------------------------

const started: ChildProcess[] = [];
const dirs: string[] = [];

async function startLocalMode(env: Record<string, string>): Promise<LocalMode> {
  // Database attempts long enough that a JVM pause on a loaded machine is not mistaken for an outage.
  return startLocal({ PORT: '0', DYNAMODB_REQUEST_TIMEOUT_MS: '4000', ...env }, { started });
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 180_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

afterAll(async () => {
  for (const child of started) {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  await new Promise((r) => setTimeout(r, 1_000));
  for (const child of started) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  if (!noNamespace) removeProbeHost();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

// ---- the tests --------------------------------------------------------------------------------------------------

let local: LocalMode;
let dbPort: number;
let dataDir: string;
let decision: { decision_id: string };

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'sas-isolation-'));
  dirs.push(dataDir);
  // Port 0: DynamoDB Local binds a free port itself (one picked here and released could be taken before it binds).
  local = await startLocalMode({ LOCAL_DYNAMODB_PORT: '0', LOCAL_DATA_DIR: dataDir });
  dbPort = local.dbPort;
  const reply = await call(local.baseUrl, 'POST', '/signals/analyze', {
    key: local.demoKey,
    body: {
      workspace_id: 'ws_demo',
      source: 'task',
      subject: 'Review the quarterly report',
      body: 'Please have a look.',
    },
  });
  expect(reply.status).toBe(200);
  decision = reply.json;
});

it('says at start how the data is protected', () => {
  expect(local.output()).toMatch(/secret access key id made now and kept in .*dynamodb-credentials\.json \(mode 0600/);
  expect(local.output()).toMatch(/telemetry to AWS is off; CORS allows only https:\/\/no-web-origin\.invalid/);
});

withNamespace('gives another host on the network nothing usable, whatever credentials it guesses', async () => {
  const guesses = [
    'local',
    'fakeMyKeyId',
    'AKIAIOSFODNN7EXAMPLE',
    'DUMMYIDEXAMPLE',
    'test',
    'x',
    'dynamodb',
    'admin',
  ].flatMap((id) => [
    { id, region: 'us-east-1' },
    { id, region: 'localhost' },
    { id, region: 'eu-west-1' },
  ]);
  const seen = await probeFromOtherHost(dbPort, guesses);
  expect(seen).toHaveLength(guesses.length);
  for (const probe of seen) {
    // The port answers (so the probe reached it), but with an empty database of the guesser's own.
    expect({ id: probe.id, region: probe.region, tables: probe.tables, scanError: probe.scanError }).toEqual({
      id: probe.id,
      region: probe.region,
      tables: [],
      scanError: 'ResourceNotFoundException',
    });
  }

  // The control: the same probe with the data directory's secret sees the tables and the stored items, so the
  // empty answers above are the secret's doing, not an unreachable port.
  const secret = JSON.parse(readFileSync(join(dataDir, CREDENTIALS_FILE), 'utf8'));
  const [withSecret] = await probeFromOtherHost(dbPort, [{ id: secret.accessKeyId, region: secret.region }]);
  expect(withSecret.tables).toEqual(expect.arrayContaining(['sas-access', 'sas-decisions']));
  expect(withSecret.items).toBeGreaterThan(0);
});

it('lets no web page read its answers: a cross-origin preflight gets no Access-Control-Allow-Origin', async () => {
  const preflight = (origin: string) =>
    fetch(`http://127.0.0.1:${dbPort}/`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-amz-target,authorization',
      },
    });
  for (const origin of ['http://localhost:3000', 'http://127.0.0.1:8080', 'https://example.com', 'null']) {
    const res = await preflight(origin);
    expect({ origin, allowOrigin: res.headers.get('access-control-allow-origin') }).toEqual({
      origin,
      allowOrigin: null,
    });
  }
  // The control: the one allowed origin (which no page can have) does get the header, so CORS is on and configured.
  expect((await preflight(NO_WEB_ORIGIN)).headers.get('access-control-allow-origin')).toBe(NO_WEB_ORIGIN);
  // And a simple cross-origin POST gets no allow-origin either (a browser would hide the answer from the page).
  const post = await fetch(`http://127.0.0.1:${dbPort}/`, {
    method: 'POST',
    headers: { origin: 'http://localhost:3000', 'content-type': 'text/plain' },
    body: '{}',
  });
  expect(post.headers.get('access-control-allow-origin')).toBeNull();
});

it('restarts a killed database on the same data: 503 while it is down, the same decision after', async () => {
  const jvm = jvmOf(local.child.pid!);
  process.kill(jvm, 'SIGKILL');
  await until('the JVM to die', async () => (processAlive(jvm) ? undefined : true));

  const down = await call(local.baseUrl, 'GET', `/decisions/${decision.decision_id}`, { key: local.demoKey });
  expectError(down, 503, 'SERVICE_UNAVAILABLE');

  const back = await until('the decision to be served again', async () => {
    const reply = await call(local.baseUrl, 'GET', `/decisions/${decision.decision_id}`, { key: local.demoKey });
    if (reply.status === 200) return reply;
    expectError(reply, 503, 'SERVICE_UNAVAILABLE'); // nothing but 503 until then
    return undefined;
  });
  expect(back.json).toEqual(decision);
  expect(jvmOf(local.child.pid!)).not.toBe(jvm);
  expect(local.output()).toMatch(
    /the embedded database \(DynamoDB Local\) was killed \(SIGKILL\); restarting it on the same data/,
  );
  // The JVM answers as soon as it listens, a little before the supervisor's own readiness check returns and logs it.
  await until('the restart to be reported', async () =>
    /is back on port \d+ after \d+ attempts?, on the same data/.test(local.output()) ? true : undefined,
  );
  // New decisions are stored again too (a JVM just started may still be slow to write: 503 until then, nothing else).
  const fresh = await until('a new decision to be stored', async () => {
    const reply = await call(local.baseUrl, 'POST', '/signals/analyze', {
      key: local.demoKey,
      body: { workspace_id: 'ws_demo', source: 'task', subject: 'After the restart' },
    });
    if (reply.status === 200) return reply;
    expectError(reply, 503, 'SERVICE_UNAVAILABLE');
    return undefined;
  });
  const stored = await call(local.baseUrl, 'GET', `/decisions/${fresh.json.decision_id}`, { key: local.demoKey });
  expect(stored.json).toEqual(fresh.json);
});

it('stops with a reason and a non-zero status when an in-memory database dies (its data is gone)', async () => {
  const memory = await startLocalMode({ LOCAL_DYNAMODB_PORT: '0', LOCAL_DATA_DIR: ':memory:' });
  const memoryDbPort = String(memory.dbPort);
  expect(memory.output()).toMatch(/secret access key id made for this run only/);
  // The admin CLI still reaches this run's database (through local mode's port record), whatever its LOCAL_DATA_DIR.
  const admin = await exec(
    process.execPath,
    [...TSX_NODE_ARGS, 'bin/admin.ts', 'key', 'list', '--partner', 'demo', '--json'],
    {
      cwd: repo,
      env: { ...process.env, LOCAL_DYNAMODB_PORT: memoryDbPort, LOCAL_DATA_DIR: join(tmpdir(), 'sas-no-such-dir') },
    },
  );
  expect(JSON.parse(admin.stdout).keys).toHaveLength(1);
  process.kill(jvmOf(memory.child.pid!), 'SIGKILL');
  const code = await memory.exited;
  expect(code).not.toBe(0);
  expect(code).not.toBeNull();
  // 'exit' can come before the last of the child's output is read: wait for the line rather than read it once.
  await until('the reason to be printed', async () =>
    /local mode stops: the embedded database \(DynamoDB Local\) was killed \(SIGKILL\)\. Its data was in memory/.test(
      memory.output(),
    )
      ? true
      : undefined,
  );
});
