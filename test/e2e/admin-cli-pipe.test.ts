// Issue 33, finding 5: every admin command with --json writes its whole output before it exits, wherever it goes
// (README, "Admin CLI"). Through a pipe, output past the pipe's 64 KiB buffer used to be dropped by process.exit with
// exit status 0: `key create` of 8,000 workspaces stopped at 146 KB, `audit list --json | wc -c` at 65,536 bytes.
// Here 1,200 workspaces of long ids make as much output with fewer grants to write.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { type TestTables, createTestTables } from '../support/dynamodb';
import { adminCliEnv, runAdmin } from '../support/admin-cli';
import { TSX_NODE_ARGS } from '../support/tsx';

jest.setTimeout(300_000);

const exec = promisify(execFile);
const repo = resolve(__dirname, '..', '..');
const WORKSPACES = 1_200;
/** A workspace id of 120 characters (the limit is 128), so the key's output is past 128 KiB. */
const longId = (i: number) => `acme_workspace_${String(i).padStart(5, '0')}_`.padEnd(120, 'x');

let tables: TestTables;
let env: NodeJS.ProcessEnv;
let dir: string;

beforeAll(async () => {
  tables = await createTestTables('cli-pipe');
  dir = await mkdtemp(join(tmpdir(), 'sas-cli-pipe-'));
  env = adminCliEnv(tables.names);
  expect((await runAdmin(env, ['partner', 'create', '--id', 'acme', '--name', 'Acme'])).code).toBe(0);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await tables?.drop();
});

/** The admin CLI through a shell pipe into `tail` (a kernel pipe, as in `admin ... --json | jq`), its stdout read. */
async function adminThroughPipe(args: string): Promise<string> {
  const admin = ['node', ...TSX_NODE_ARGS, 'bin/admin.ts', args].join(' ');
  const { stdout } = await exec('bash', ['-o', 'pipefail', '-c', `${admin} | tail -c +1`], {
    cwd: repo,
    env,
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

it('prints the whole key of 1,200 long workspace ids through a pipe', async () => {
  const file = join(dir, 'ws.txt');
  const ids = Array.from({ length: WORKSPACES }, (_, i) => longId(i));
  await writeFile(file, `${ids.join('\n')}\n`);
  const stdout = await adminThroughPipe(`key create --partner acme --workspaces-file '${file}' --json`);
  expect(stdout.length).toBeGreaterThan(128 * 1024);
  expect(JSON.parse(stdout).workspaces).toHaveLength(WORKSPACES);
});

it('writes as many bytes of `audit list --json` into `wc -c` as into a file', async () => {
  // Its own key of 1,200 grants (written to a file, not through a pipe), whose key.create event makes the output.
  const file = join(dir, 'ws-audit.txt');
  await writeFile(file, `${Array.from({ length: WORKSPACES }, (_, i) => longId(i)).join('\n')}\n`);
  const created = await runAdmin(env, ['key', 'create', '--partner', 'acme', '--workspaces-file', file, '--json']);
  expect(created.code).toBe(0);
  const admin = ['node', ...TSX_NODE_ARGS, 'bin/admin.ts', 'audit', 'list', '--json'].join(' ');
  const toFile = join(dir, 'audit.json');
  await exec('bash', ['-c', `${admin} > '${toFile}'`], { cwd: repo, env });
  const fileBytes = (await stat(toFile)).size;
  // The key.create event of the key above holds its 1,200 grants: far past a pipe's buffer.
  expect(fileBytes).toBeGreaterThan(64 * 1024);
  expect(JSON.parse(await readFile(toFile, 'utf8')).events.length).toBeGreaterThan(0);
  const piped = await exec('bash', ['-o', 'pipefail', '-c', `${admin} | wc -c`], { cwd: repo, env });
  expect(Number(piped.stdout.trim())).toBe(fileBytes);
});
