// The SDK as a partner gets it: `npm pack` builds the tarball (tsc), a fresh project installs it with no network and
// no other package, type-checks a TypeScript program against its declarations, and runs an ES module program that
// uses it against local mode over a real socket.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type TestApi, partnerWithKey, startTestApi } from '../support/local-api';

jest.setTimeout(240_000);

const REPO = resolve(__dirname, '..', '..');
let api: TestApi;
let key: string;
let dir: string;

beforeAll(async () => {
  api = await startTestApi('sdk-pack');
  ({ key } = await partnerWithKey(api.admin, 'acme', ['ws_pack']));
  dir = mkdtempSync(join(tmpdir(), 'sas-sdk-pack-'));
});
afterAll(async () => {
  await api?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const run = (cmd: string, args: string[], cwd: string, env: Record<string, string> = {}) =>
  execFileSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    timeout: 180_000,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });

it('packs, installs offline with no dependencies, type-checks and runs a partner program', async () => {
  run('npm', ['pack', '--silent', '--pack-destination', dir], join(REPO, 'sdk'));
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'))!;
  expect(tarball).toMatch(/^signal-analysis-sdk-\d+\.\d+\.\d+\.tgz$/);

  const app = join(dir, 'app');
  run('mkdir', ['-p', app], dir);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'partner-app', private: true, type: 'module' }));
  run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--silent', join(dir, tarball)], app);
  // Nothing but the SDK itself was installed.
  expect(readdirSync(join(app, 'node_modules')).filter((n) => !n.startsWith('.'))).toEqual(['@signal-analysis']);

  writeFileSync(
    join(app, 'partner.ts'),
    `import { SignalAnalysisClient, SignalAnalysisError, type Decision } from '@signal-analysis/sdk';
const client = new SignalAnalysisClient({ apiKey: 'sas_test_x', baseUrl: 'http://127.0.0.1:3000/api/v1' });
export async function main(): Promise<Decision['priority'] | string> {
  try {
    const d = await client.analyze({ workspace_id: 'ws', source: 'email', subject: 'Hi' });
    return d.priority;
  } catch (e) {
    if (e instanceof SignalAnalysisError) return e.code + (e.requestId ?? '');
    throw e;
  }
}
`,
  );
  run(
    process.execPath,
    [
      join(REPO, 'node_modules/typescript/bin/tsc'),
      '--noEmit',
      '--strict',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--target',
      'es2022',
      '--typeRoots',
      join(REPO, 'node_modules/@types'),
      '--types',
      'node',
      'partner.ts',
    ],
    app,
  );

  writeFileSync(
    join(app, 'partner.mjs'),
    `import { SignalAnalysisClient, SignalAnalysisError } from '@signal-analysis/sdk';
const client = new SignalAnalysisClient({ apiKey: process.env.SAS_API_KEY, baseUrl: process.env.SAS_BASE_URL });
const batch = await client.analyzeBatch([{ workspace_id: 'ws_pack', source: 'task', subject: 'Renew the certificate' }, { workspace_id: 'ws_pack', source: 'email', subject: 'Server down', sender: 'ops@example.com' }]);
const listed = [];
for await (const d of client.allDecisions({ workspace_id: 'ws_pack', limit: 1 })) listed.push(d.decision_id);
let refused;
try { await client.getDecision('dec_01M7YP0Z169DWN2DAG06SFY9E9'); } catch (e) { refused = e instanceof SignalAnalysisError ? e.code : String(e); }
console.log(JSON.stringify({ batch: batch.data.map((i) => i.decision.decision_id), listed, refused }));
`,
  );
  // Asynchronously: the service under test runs in this process and must keep answering.
  const { stdout } = await promisify(execFile)(process.execPath, ['partner.mjs'], {
    cwd: app,
    timeout: 120_000,
    env: { ...process.env, SAS_API_KEY: key, SAS_BASE_URL: api.baseUrl },
  });
  const out = JSON.parse(stdout);
  expect(out.refused).toBe('DECISION_NOT_FOUND');
  expect([...out.listed].sort()).toEqual([...out.batch].sort());
  expect(out.listed).toHaveLength(2);
});
