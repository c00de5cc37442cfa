// The admin CLI, version 2 (README, Admin CLI), as an operator runs it: real processes against DynamoDB Local.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TestTables, createTestTables } from '../support/dynamodb';
import { type AdminResult, runAdmin, adminCliEnv, argv } from '../support/admin-cli';

jest.setTimeout(180_000);

let tables: TestTables;
let env: NodeJS.ProcessEnv;
let dir: string;

const admin = (...args: string[]): Promise<AdminResult> => runAdmin(env, args);

beforeAll(async () => {
  tables = await createTestTables('cli2');
  dir = await mkdtemp(join(tmpdir(), 'sas-cli2-'));
  env = adminCliEnv(tables.names);
  for (const id of ['acme', 'globex'])
    expect((await admin('partner', 'create', '--id', id, '--name', id)).code).toBe(0);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await tables?.drop();
});

it('creates a key with scopes, a rate limit and grants from a file, and lists them', async () => {
  const file = join(dir, 'ws.txt');
  await writeFile(file, '# acme workspaces\nacme_1\n\nacme_2\nacme:eu:*\n');
  const created = await admin(
    'key',
    'create',
    '--partner',
    'acme',
    '--workspace',
    'acme_0',
    '--workspaces-file',
    file,
    '--scope',
    'read',
    '--scope',
    'analyze',
    '--rate-limit',
    '600/m',
    '--json',
  );
  expect(created.json).toMatchObject({
    partner_id: 'acme',
    workspaces: ['acme_0', 'acme_1', 'acme_2', 'acme:eu:*'],
    scopes: ['analyze', 'read'],
    rate_limit: { limit: 600, window_seconds: 60 },
  });
  const keyId = created.json.key_id;
  // A bad line is named by its number: in a file of thousands, "bad workspace" alone left the operator searching.
  await writeFile(file, '# more\nacme_5\n\nacme 6\n');
  const bad = await admin('key', 'grant', '--key-id', keyId, '--workspaces-file', file);
  expect(bad.code).toBe(1);
  expect(bad.stderr).toContain(`--workspaces-file ${file} line 4: bad workspace "acme 6"`);
  expect(
    (await admin('key', 'grant', '--key-id', keyId, '--workspace', 'acme_3', '--workspace', 'acme_4', '--json')).json,
  ).toEqual({
    key_id: keyId,
    workspaces: ['acme:eu:*', 'acme_0', 'acme_1', 'acme_2', 'acme_3', 'acme_4'],
  });
  expect((await admin('key', 'set-rate-limit', '--key-id', keyId, '--limit', '5/s', '--json')).json).toEqual({
    key_id: keyId,
    rate_limit: { limit: 5, window_seconds: 1 },
  });
  const rotated = (await admin('key', 'rotate', '--key-id', keyId, '--json')).json;
  expect(rotated).toMatchObject({ scopes: ['analyze', 'read'], rate_limit: { limit: 5, window_seconds: 1 } });
  expect([...rotated.workspaces].sort()).toEqual(['acme:eu:*', 'acme_0', 'acme_1', 'acme_2', 'acme_3', 'acme_4']);
  expect((await admin('key', 'set-rate-limit', '--key-id', keyId, '--none', '--json')).json).toEqual({
    key_id: keyId,
    rate_limit: null,
  });
  const listed = (await admin('key', 'list', '--partner', 'acme', '--json')).json.keys;
  expect(listed.find((k: { key_id: string }) => k.key_id === keyId)).toMatchObject({
    scopes: ['analyze', 'read'],
    rate_limit: null,
  });
});

it('refuses to share with another partner unless --allow-shared, naming the holder', async () => {
  // Its own holder, initech, and its grant: acme's keys are the first test's, and globex's grant under acme:eu:* made
  // here would refuse that test's key.
  expect((await admin(...argv('partner create --id initech --name initech'))).code).toBe(0);
  expect((await admin(...argv('key create --partner initech --workspace initech:eu:* --json'))).code).toBe(0);
  const refused = await admin('key', 'create', '--partner', 'globex', '--workspace', 'initech:eu:paris', '--json');
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toMatch(/share workspaces with another partner.*partner initech.*--allow-shared/s);
  expect(refused.json.error.conflicts[0]).toMatchObject({
    grant: 'initech:eu:paris',
    held_grant: 'initech:eu:*',
    partner_id: 'initech',
  });
  const allowed = await admin(
    ...argv('key create --partner globex --workspace initech:eu:paris --allow-shared --json'),
  );
  expect(allowed.json.workspaces).toEqual(['initech:eu:paris']);
});

it.each([
  [['key', 'create', '--partner', 'acme', '--workspace', 'w', '--scope', 'admin'], /bad scope "admin"/],
  [['key', 'create', '--partner', 'acme', '--workspace', 'w', '--rate-limit', '10/d'], /bad rate limit "10\/d"/],
  [['key', 'create', '--partner', 'acme', '--workspace', 'ab*'], /bad prefix grant "ab\*"/],
  [['key', 'create', '--partner', 'acme', '--workspaces-file', '/nonexistent/ws.txt'], /cannot read --workspaces-file/],
  [['key', 'set-rate-limit', '--key-id', 'key_x', '--limit', '5/s', '--none'], /either --limit/],
  [['key', 'set-rate-limit', '--key-id', 'key_missing', '--none'], /unknown key key_missing/],
  [['key', 'grant', '--key-id', 'key_missing', '--workspace', 'w'], /unknown key key_missing/],
])('refuses bad input %j with a clear message', async (args, message) => {
  const result = await admin(...args);
  expect(result.code).not.toBe(0);
  expect(result.stderr).toMatch(message);
});
