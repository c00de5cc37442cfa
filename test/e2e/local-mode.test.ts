// `npm start` as a newcomer runs it: a real process, a real socket, the printed demo key and curl command, data that
// persists across restarts, a clean stop on SIGTERM and SIGINT, and no key or signal text in anything it prints.
import { type ChildProcess, execFile } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { dynamoDbAnswers } from '../../lib/local/dynamodb-local';
import { call } from '../support/http';
import { TSX_NODE_ARGS } from '../support/tsx';
import { startLocalMode } from '../support/local-mode';

jest.setTimeout(180_000);

const repo = resolve(__dirname, '..', '..');
const exec = promisify(execFile);

// Kept in `running` from the spawn on, so a start that fails or hangs is stopped too (afterAll).
const startNpm = (env: Record<string, string>) => startLocalMode(env, { npm: true, started: running });

/** Waits for npm to exit, then for the server and database it started to be gone (they outlive npm briefly). */
async function stopped(child: ChildProcess, dbPort: number): Promise<number | null> {
  const code = await new Promise<number | null>((done) => {
    if (child.exitCode !== null) return done(child.exitCode);
    child.once('exit', (c) => done(c));
  });
  const deadline = Date.now() + 20_000;
  while (groupAlive(child.pid!) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  expect(groupAlive(child.pid!)).toBe(false);
  expect(await dynamoDbAnswers(`http://127.0.0.1:${dbPort}`)).toBe(false);
  return code;
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

let dataDir: string;
const running: ChildProcess[] = [];

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'sas-local-'));
});
afterAll(() => {
  for (const child of running) if (groupAlive(child.pid!)) process.kill(-child.pid!, 'SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

it('starts, prints a working demo key and curl command, persists data, and stops cleanly', async () => {
  // Port 0: DynamoDB Local binds a free port itself (one picked here and released could be taken before it binds).
  const env = {
    PORT: '0',
    LOCAL_DYNAMODB_PORT: '0',
    LOCAL_DATA_DIR: dataDir,
    POWERTOOLS_LOG_LEVEL: 'DEBUG',
    // Powertools' switch to log every event, which an operator may turn on to debug: the events hold the key.
    POWERTOOLS_LOGGER_LOG_EVENT: 'true',
    // A learning table named apart, as an operator may: local mode must create the one the service reads.
    LEARNING_TABLE_NAME: 'sas-local-learning',
  };
  const first = await startNpm(env);
  const dbPort = first.dbPort;
  expect(first.output()).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+\/api\/v1/);

  // The printed curl command works as printed.
  const { stdout } = await exec('sh', ['-c', first.curl]);
  const decision = JSON.parse(stdout);
  expect(decision.decision_id).toMatch(/^dec_/);
  expect(decision.workspace_id).toBe('ws_demo');

  // The admin CLI talks to the same database while the server runs.
  const cli = await exec(
    'npm',
    ['run', '--silent', 'admin', '--', 'key', 'create', '--partner', 'demo', '--workspace', 'ws_demo', '--json'],
    {
      cwd: repo,
      env: { ...process.env, LOCAL_DYNAMODB_PORT: String(dbPort), LOCAL_DATA_DIR: dataDir },
    },
  );
  const issued = JSON.parse(cli.stdout);
  const secretSubject = 'Quarterly merger plan WOMBAT-4412';
  const secretBody = 'Confidential body text NARWHAL-9921 about the deal';
  const reply = await call(first.baseUrl, 'POST', '/signals/analyze', {
    key: issued.key,
    body: { workspace_id: 'ws_demo', source: 'email', subject: secretSubject, body: secretBody, sender: 'a@b.co' },
  });
  expect(reply.status).toBe(200);
  const refused = await call(first.baseUrl, 'POST', '/signals/analyze', {
    headers: { authorization: 'Bearer sas_live_THIS-IS-NOT-A-REAL-KEY-BUT-STILL-SECRET' },
    body: { workspace_id: 'ws_demo', source: 'email', subject: secretSubject },
  });
  expect(refused.status).toBe(401);

  // SIGTERM to npm alone (npm does not forward it; local mode notices its launcher is gone).
  first.child.kill('SIGTERM');
  await stopped(first.child, dbPort);

  // Privacy: nothing it printed holds an issued key, an Authorization value, or signal text.
  const printed = first.output();
  for (const secret of [issued.key, 'THIS-IS-NOT-A-REAL-KEY', 'WOMBAT-4412', 'NARWHAL-9921', 'Confidential body']) {
    expect(printed).not.toContain(secret);
  }
  expect(printed).toContain(reply.json.decision_id); // decision ids are what gets logged

  // A second start on the same data: the decision is still there; a fresh demo key works, the old one is revoked.
  const second = await startNpm(env);
  expect(second.demoKey).not.toBe(first.demoKey);
  const again = await call(second.baseUrl, 'GET', `/decisions/${decision.decision_id}`, { key: second.demoKey });
  expect(again.status).toBe(200);
  expect(again.json).toEqual(decision);
  expect((await call(second.baseUrl, 'GET', `/decisions/${decision.decision_id}`, { key: first.demoKey })).status).toBe(
    401,
  );

  // Ctrl-C: the terminal sends SIGINT to the whole process group.
  process.kill(-second.child.pid!, 'SIGINT');
  await stopped(second.child, second.dbPort);
});

it('says plainly that Java is missing, and how to install it', async () => {
  // A PATH with node and nothing else.
  const bin = mkdtempSync(join(tmpdir(), 'sas-nojava-'));
  symlinkSync(process.execPath, join(bin, 'node'));
  try {
    await exec(process.execPath, [...TSX_NODE_ARGS, 'bin/local.ts'], {
      cwd: repo,
      env: { ...process.env, PATH: bin, PORT: '0', LOCAL_DYNAMODB_PORT: '0', LOCAL_DATA_DIR: ':memory:' },
    });
    throw new Error('local mode started without Java');
  } catch (err) {
    const e = err as { code?: number; stderr?: string };
    expect(e.code).toBe(1);
    expect(e.stderr).toMatch(/Java was not found/);
    expect(e.stderr).toMatch(/apt-get install -y openjdk-17-jre-headless/);
  } finally {
    rmSync(bin, { recursive: true, force: true });
  }
});
