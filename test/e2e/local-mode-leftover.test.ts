// A `kill -9` of local mode leaves its DynamoDB Local running on the data directory (its parent is gone, it is not).
// A restart on the same directory must not open the data a second time: it stops that leftover and serves the same
// data with one database; and while a local mode runs, another start on its directory is refused, naming it.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../lib/local/dynamodb-local';
import { call } from '../support/http';
import { jvmOf, startLocalMode } from '../support/local-mode';
import { processAlive } from '../../lib/local/parent-watch';
import { TSX_NODE_ARGS } from '../support/tsx';

jest.setTimeout(240_000);

const repo = resolve(__dirname, '..', '..');
const exec = promisify(execFile);

/** Every DynamoDB Local process (any parent) whose -dbPath is `dir`, from /proc. */
function databasesOn(dir: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      // Not the shell that sets the umask and then execs java (dynamodb-local.ts): while it execs, its cmdline reads
      // empty for a moment, and a JVM seen a moment before seemed gone (a CI run under load failed on it).
      if (/(^|\/)sh$/.test(args[0])) continue;
      if (args.some((a) => a.endsWith('DynamoDBLocal.jar')) && args[args.indexOf('-dbPath') + 1] === dir)
        found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

let dataDir: string;
const started: ChildProcess[] = [];
const jvms: number[] = [];

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'sas-leftover-'));
});
afterAll(() => {
  for (const child of started) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  for (const pid of [...jvms, ...databasesOn(dataDir)]) if (processAlive(pid)) process.kill(pid, 'SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

it('after kill -9, a restart stops the leftover database and serves the same data with one; a second start is refused', async () => {
  const env = { PORT: '0', LOCAL_DYNAMODB_PORT: '0', LOCAL_DATA_DIR: dataDir };
  const first = await startLocalMode(env, { started });
  const firstJvm = jvmOf(first.child.pid!);
  jvms.push(firstJvm);
  const stored = await call(first.baseUrl, 'POST', '/signals/analyze', {
    key: first.demoKey,
    body: { workspace_id: 'ws_demo', source: 'email', subject: 'Checkout down', body: 'Since 09:10 for everyone.' },
  });
  expect(stored.status).toBe(200);

  // kill -9 of local mode alone: its JVM stays, still serving the directory.
  process.kill(first.child.pid!, 'SIGKILL');
  await first.exited;
  expect(processAlive(firstJvm)).toBe(true);
  expect(databasesOn(dataDir)).toEqual([firstJvm]);

  const second = await startLocalMode(env, { started });
  const secondJvm = jvmOf(second.child.pid!);
  jvms.push(secondJvm);
  expect(databasesOn(dataDir)).toEqual([secondJvm]);
  expect(processAlive(firstJvm)).toBe(false);
  expect(second.output()).toContain(`DynamoDB Local pid ${firstJvm}`);
  // The same data: the decision made before the kill.
  const again = await call(second.baseUrl, 'GET', `/decisions/${stored.json.decision_id}`, { key: second.demoKey });
  expect(again.status).toBe(200);
  expect(again.json).toEqual(stored.json);

  // A second local mode on the running one's directory: refused, naming it; the first keeps its one database.
  const refused = await exec(process.execPath, [...TSX_NODE_ARGS, 'bin/local.ts'], {
    cwd: repo,
    env: { ...process.env, ...env },
  }).then(
    () => ({ code: 0, stderr: '' }),
    (err: { code?: number; stderr?: string }) => ({ code: err.code, stderr: err.stderr ?? '' }),
  );
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain(`in use by local mode or the admin CLI (pid ${second.child.pid}`);
  expect(databasesOn(dataDir)).toEqual([secondJvm]);
  expect(
    (await call(second.baseUrl, 'GET', `/decisions/${stored.json.decision_id}`, { key: second.demoKey })).status,
  ).toBe(200);

  // The admin CLI on another port (where no local mode runs) would start a database of its own on the directory:
  // refused too, naming the port that reaches the running one.
  const dbPort = second.dbPort;
  const admin = await exec(process.execPath, [...TSX_NODE_ARGS, 'bin/admin.ts', 'key', 'list', '--partner', 'demo'], {
    cwd: repo,
    env: { ...process.env, LOCAL_DATA_DIR: dataDir, LOCAL_DYNAMODB_PORT: String(await freePort()) },
  }).then(
    () => ({ code: 0, stderr: '' }),
    (err: { code?: number; stderr?: string }) => ({ code: err.code, stderr: err.stderr ?? '' }),
  );
  expect(admin.code).not.toBe(0);
  expect(admin.stderr).toContain(`LOCAL_DYNAMODB_PORT=${dbPort}`);
  expect(databasesOn(dataDir)).toEqual([secondJvm]);

  // A clean stop takes its database with it.
  second.child.kill('SIGTERM');
  await second.exited;
  const deadline = Date.now() + 20_000;
  while (databasesOn(dataDir).length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  expect(databasesOn(dataDir)).toEqual([]);
});

/**
 * Runs `script` (with `args`) on a data directory of its own, sends it SIGTERM as soon as the DynamoDB Local it starts
 * exists (long before that answers), and expects that database gone once the process has exited.
 */
async function sigtermStopsItsDatabase(script: string, args: string[], env: Record<string, string>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'sas-early-stop-'));
  const child = spawn(process.execPath, [...TSX_NODE_ARGS, script, ...args], {
    cwd: repo,
    env: { ...process.env, ...env, LOCAL_DYNAMODB_PORT: '0', LOCAL_DATA_DIR: dir },
    stdio: 'ignore',
    detached: true,
  });
  started.push(child);
  const exited = new Promise((done) => child.once('exit', done));
  try {
    const deadline = Date.now() + 60_000;
    while (databasesOn(dir).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const jvm = databasesOn(dir);
    expect(jvm).toHaveLength(1);
    jvms.push(...jvm);
    child.kill('SIGTERM');
    await exited;
    const gone = Date.now() + 20_000;
    // Read from /proc/<pid>/cmdline, which a killed process not yet reaped no longer has.
    while (databasesOn(dir).length > 0 && Date.now() < gone) await new Promise((r) => setTimeout(r, 100));
    expect(databasesOn(dir)).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

it('a SIGTERM while local mode is still starting stops the database it spawned too', async () => {
  await sigtermStopsItsDatabase('bin/local.ts', [], { PORT: '0' });
});

it('an admin CLI stopped by SIGTERM stops the database it started', async () => {
  await sigtermStopsItsDatabase('bin/admin.ts', ['audit', 'list', '--json'], {});
});
