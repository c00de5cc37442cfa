// A restart of local mode on kept data re-issues the demo key on `ws_demo`. When the operator has since given another
// partner a key on that workspace (exactly or through a prefix, with --allow-shared as docs/operations.md says), the
// restart must still start and print a demo key and curl command that work: the sharing was allowed when it was made.
import { type ChildProcess, execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { runAdmin } from '../support/admin-cli';
import { startLocalMode } from '../support/local-mode';

jest.setTimeout(240_000);

const exec = promisify(execFile);
let dataDir: string;
const started: ChildProcess[] = [];

const stop = async (child: ChildProcess) => {
  const exited = new Promise((done) => child.once('exit', done));
  process.kill(-child.pid!, 'SIGTERM');
  // Local mode exits only after its database has stopped (bin/local.ts): the data directory is free once it has.
  await exited;
};

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'sas-demo-shared-'));
});
afterAll(() => {
  for (const child of started) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
});

it('restarts with a working demo key after another partner was granted ws_demo with --allow-shared', async () => {
  // Port 0: DynamoDB Local binds a free port itself (one picked here and released could be taken before it binds).
  const env = { PORT: '0', LOCAL_DYNAMODB_PORT: '0', LOCAL_DATA_DIR: dataDir };
  const first = await startLocalMode(env, { started });
  const cli = { ...process.env, LOCAL_DYNAMODB_PORT: String(first.dbPort), LOCAL_DATA_DIR: dataDir };
  expect((await runAdmin(cli, ['partner', 'create', '--id', 'acme', '--name', 'Acme', '--json'])).code).toBe(0);
  const shared = await runAdmin(cli, ['key', 'create', '--partner', 'acme', '--workspace', 'ws_*', '--allow-shared']);
  expect(shared.code).toBe(0);
  await stop(first.child);

  const second = await startLocalMode(env, { started });
  expect(second.demoKey).not.toBe(first.demoKey);
  const { stdout } = await exec('sh', ['-c', second.curl]);
  expect(JSON.parse(stdout)).toMatchObject({ workspace_id: 'ws_demo', decision_id: expect.stringMatching(/^dec_/) });
  await stop(second.child);
});
