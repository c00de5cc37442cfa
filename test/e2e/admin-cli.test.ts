// The admin CLI as an operator runs it (README, Admin CLI): real processes against DynamoDB Local.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { KeyAuthorizer } from '../../lambdas/authorizer/authorize';
import { isDatabaseUnavailable } from '../../lambdas/stores/database-faults';
import { DynamoAccessStore } from '../../lambdas/stores/access-store';
import { isWellFormedApiKey } from '../../lambdas/domain/api-key';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { buildDecision } from '../../lambdas/domain/decision';
import { scoreSignal } from '../../lambdas/domain/engine';
import { ulidTime } from '../../lambdas/domain/ids';
import { decisionItem } from '../../lambdas/stores/decision-store';
import { type TestTables, createTestTables } from '../support/dynamodb';
import { type AdminResult, runAdmin, adminCliEnv, argv } from '../support/admin-cli';

jest.setTimeout(120_000);

const repo = resolve(__dirname, '..', '..');
const exec = promisify(execFile);
let tables: TestTables;
let env: NodeJS.ProcessEnv;

const admin = (...args: string[]): Promise<AdminResult> => runAdmin(env, args);

beforeAll(async () => {
  tables = await createTestTables('cli');
  env = adminCliEnv(tables.names);
});
afterAll(async () => {
  await tables?.drop();
});

it('runs through npm as documented and prints one JSON object with --json', async () => {
  const id = `p${randomBytes(3).toString('hex')}`;
  const { stdout } = await exec(
    'npm',
    ['run', '--silent', 'admin', '--', 'partner', 'create', '--id', id, '--name', 'Acme Corp', '--json'],
    { cwd: repo, env },
  );
  expect(JSON.parse(stdout)).toEqual({ partner_id: id, name: 'Acme Corp', status: 'active' });
});

it('manages partners and keys, and never stores or lists a secret', async () => {
  expect(
    (await admin('partner', 'create', '--id', 'acme', '--name', 'Acme', '--status', 'pending', '--json')).json,
  ).toEqual({
    partner_id: 'acme',
    name: 'Acme',
    status: 'pending',
  });
  expect((await admin('partner', 'set-status', '--id', 'acme', '--status', 'active', '--json')).json).toEqual({
    partner_id: 'acme',
    status: 'active',
  });

  const created = (
    await admin(...argv('key create --partner acme --workspace ws_a --workspace ws_b --env test --json'))
  ).json;
  expect(created).toEqual({
    key: expect.any(String),
    key_id: expect.stringMatching(/^key_/),
    partner_id: 'acme',
    workspaces: ['ws_a', 'ws_b'],
    expires_at: null,
    scopes: ['analyze', 'read', 'feedback', 'policy'],
    rate_limit: null,
  });
  expect(created.key).toMatch(/^sas_test_/);
  expect(isWellFormedApiKey(created.key)).toBe(true);

  const granted = (await admin('key', 'grant', '--key-id', created.key_id, '--workspace', 'ws_c', '--json')).json;
  expect(granted).toEqual({ key_id: created.key_id, workspaces: ['ws_a', 'ws_b', 'ws_c'] });
  const ungranted = (await admin('key', 'ungrant', '--key-id', created.key_id, '--workspace', 'ws_a', '--json')).json;
  expect(ungranted).toEqual({ key_id: created.key_id, workspaces: ['ws_b', 'ws_c'] });
  // A workspace the key never held (a typo) removes nothing, and the operator hears so.
  const typo = await admin('key', 'ungrant', '--key-id', created.key_id, '--workspace', 'ws_cc');
  expect(typo.code).toBe(0);
  expect(typo.stdout).toMatch(/held no grant of ws_cc/);

  const listed = await admin('key', 'list', '--partner', 'acme', '--json');
  expect(listed.json.keys).toEqual([
    {
      key_id: created.key_id,
      prefix: created.key.slice(0, 13),
      status: 'active',
      workspaces: ['ws_b', 'ws_c'],
      expires_at: null,
      expired: false,
      created_at: expect.any(String),
      scopes: ['analyze', 'read', 'feedback', 'policy'],
      rate_limit: null,
    },
  ]);
  expect(listed.stdout).not.toContain(created.key.slice(13));

  const revoked = (await admin('key', 'revoke', '--key-id', created.key_id, '--json')).json;
  expect(revoked).toEqual({ key_id: created.key_id, status: 'revoked' });
  const authorizer = new KeyAuthorizer(new DynamoAccessStore(tables.client, tables.names.access), {
    ttlSeconds: 0,
    isUnavailable: isDatabaseUnavailable,
  });
  expect((await authorizer.verify(`Bearer ${created.key}`)).outcome).toBe('UNAUTHORIZED');
  // A revoked key takes no new grant: it would reach nothing and only block the workspace for other partners.
  const late = await admin('key', 'grant', '--key-id', created.key_id, '--workspace', 'ws_late');
  expect(late.code).not.toBe(0);
  expect(late.stderr).toMatch(/is revoked/);
});

it('rotates a key: the new key has the old grants, the old one works until the grace period ends', async () => {
  await admin('partner', 'create', '--id', 'rot', '--name', 'Rotating');
  const old = (await admin('key', 'create', '--partner', 'rot', '--workspace', 'ws_r', '--json')).json;
  const before = Date.now();
  const rotated = (await admin('key', 'rotate', '--key-id', old.key_id, '--grace-seconds', '3600', '--json')).json;
  expect(rotated).toMatchObject({ partner_id: 'rot', workspaces: ['ws_r'], expires_at: null });
  expect(rotated.key).toMatch(/^sas_live_/);
  expect(rotated.key_id).not.toBe(old.key_id);

  const authorizer = new KeyAuthorizer(new DynamoAccessStore(tables.client, tables.names.access), {
    ttlSeconds: 0,
    isUnavailable: isDatabaseUnavailable,
  });
  expect((await authorizer.verify(`Bearer ${rotated.key}`)).outcome).toBe('allow');
  expect((await authorizer.verify(`Bearer ${old.key}`)).outcome).toBe('allow');
  expect((await authorizer.verify(`Bearer ${old.key}`, before + 3_601_000 + 60_000)).outcome).toBe('UNAUTHORIZED');

  const listed = (await admin('key', 'list', '--partner', 'rot', '--json')).json.keys;
  const oldListed = listed.find((k: { key_id: string }) => k.key_id === old.key_id);
  expect(oldListed).toMatchObject({ status: 'active', expired: false, replaced_by: rotated.key_id });
  expect(Date.parse(oldListed.expires_at) - before).toBeGreaterThan(3_590_000);
  expect(Date.parse(oldListed.expires_at) - before).toBeLessThan(3_700_000);
});

it('creates keys with an expiry, normalized to UTC', async () => {
  await admin('partner', 'create', '--id', 'exp', '--name', 'Expiring');
  // A year from now, whenever the test runs (an expiry in the past is refused), written with a +01:00 offset.
  const year = new Date().getUTCFullYear() + 1;
  const created = (
    await admin(...argv(`key create --partner exp --workspace w1 --expires-at ${year}-01-31T10:00:00+01:00 --json`))
  ).json;
  expect(created.expires_at).toBe(`${year}-01-31T09:00:00.000Z`);
});

it.each([
  [['partner', 'set-status', '--id', 'nobody', '--status', 'active'], /unknown partner nobody/],
  [['partner', 'create', '--id', 'bad', '--name', 'Bad', '--status', 'sleeping'], /bad status "sleeping"/],
  [['key', 'create', '--partner', 'nobody', '--workspace', 'w'], /unknown partner nobody/],
  [['key', 'create', '--partner', 'acme', '--workspace', 'w', '--expires-at', 'next tuesday'], /malformed date/],
  [['key', 'create', '--partner', 'acme'], /--workspace \(or --workspaces-file\) is required/],
  [['key', 'revoke', '--key-id', 'key_missing'], /unknown key key_missing/],
  [['key', 'rotate', '--key-id', 'key_missing'], /unknown key key_missing/],
  [['key', 'list', '--partner', 'nobody'], /unknown partner nobody/],
  [['key', 'frobnicate'], /unknown command/],
  [['partner', 'create', '--name', 'No id'], /--id is required/],
])('refuses bad input %j with a clear message and a non-zero exit', async (args, message) => {
  const result = await admin(...args);
  expect(result.code).not.toBe(0);
  expect(result.stderr).toMatch(message);
});

it('exits 2 for every command line it cannot run, and answers --help on stdout with 0', async () => {
  // A missing --workspace exited 1 (the exit of bad input) where a missing --partner exited 2, and --help wrote its
  // usage on stderr: a script could not tell a slip in its command line from a value the CLI refused.
  for (const args of [
    ['key', 'create', '--partner', 'acme'],
    ['workspace', 'import', '--file', 'examples.jsonl'],
    ['workspace', 'forget'],
    ['workspace', 'policy', 'set', '--workspace', 'ws_a'],
  ]) {
    const out = await admin(...args);
    expect({ args, code: out.code }).toEqual({ args, code: 2 });
    expect(out.stderr).toMatch(/is required\n\nUsage: /);
  }
  const help = await admin('--help');
  expect(help.code).toBe(0);
  expect(help.stdout).toMatch(/^Usage: npm run --silent admin -- <command>/);
  expect(help.stderr).toBe('');
});

it("refuses a key's secret given as --key-id without printing it, naming its key_id, and an empty one plainly", async () => {
  await admin('partner', 'create', '--id', 'slip', '--name', 'Slip');
  const made = (await admin('key', 'create', '--partner', 'slip', '--workspace', 'ws_slip', '--json')).json;
  // The slip of the "a key may have leaked" runbook: the secret where its id belongs.
  for (const args of [
    ['key', 'revoke', '--key-id', made.key],
    ['key', 'grant', '--key-id', made.key, '--workspace', 'ws_more'],
    ['key', 'set-rate-limit', '--key-id', made.key, '--none'],
  ]) {
    const out = await admin(...args, '--json');
    expect(out.code).not.toBe(0);
    expect(out.stdout + out.stderr).not.toContain(made.key);
    expect(out.stderr).toContain(`--key-id is a key's secret, not its key_id (its key_id is ${made.key_id})`);
  }
  // The same slip where a partner or workspace id belongs: refused without printing it (the audit log refused some in
  // its own words, "target.partner_id holds an API key"; others printed "unknown partner <the key>").
  for (const args of [
    ['partner', 'create', '--id', made.key, '--name', 'Slip'],
    ['partner', 'set-status', '--id', made.key, '--status', 'active'],
    ['key', 'list', '--partner', made.key],
    ['key', 'create', '--partner', made.key, '--workspace', 'ws_x'],
    ['key', 'create', '--partner', 'slip', '--workspace', made.key],
    ['workspace', 'forget', '--workspace', made.key],
  ]) {
    const out = await admin(...args);
    expect({ args, code: out.code }).toEqual({ args, code: 1 });
    expect(out.stdout + out.stderr).not.toContain(made.key);
    expect(out.stderr).toMatch(/^error: (the partner id|--workspace) holds an API key: give an id, not a secret$/m);
  }
  // On a --workspaces-file line too, named by its line, alone or inside other text ("key: <secret>" was printed back).
  const tmp = mkdtempSync(join(tmpdir(), 'sas-cli-key-'));
  try {
    const file = join(tmp, 'pasted-key.txt');
    for (const line of [made.key, `key: ${made.key}`]) {
      writeFileSync(file, `ws_fine\n${line}\n`);
      const out = await admin('key', 'create', '--partner', 'slip', '--workspaces-file', file);
      expect(out.code).toBe(1);
      expect(out.stdout + out.stderr).not.toContain(made.key);
      expect(out.stderr).toContain(
        `error: --workspaces-file ${file} line 2 holds an API key: give an id, not a secret`,
      );
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  const listed = (await admin('key', 'list', '--partner', 'slip', '--json')).json.keys;
  expect(listed).toMatchObject([{ key_id: made.key_id, status: 'active', workspaces: ['ws_slip'] }]);
  const empty = await admin('key', 'revoke', '--key-id', '');
  expect(empty.code).not.toBe(0);
  expect(empty.stderr).toMatch(/--key-id must be a key_id/);
});

it('never prints back a key pasted as a command word, an option or its value, whole or a character short', async () => {
  // The leaked-key runbook's slip again, where a message quotes what it refuses ("unknown command", "--status must
  // be ...", a file it could not open): a key one character short gives the whole key away (its checksum is public).
  // Both ways a message is written: the command line's own errors and a command's.
  await admin('partner', 'create', '--id', 'pasted', '--name', 'Pasted');
  const { key } = (await admin('key', 'create', '--partner', 'pasted', '--workspace', 'ws_pasted', '--json')).json;
  const short = key.slice(0, -1);
  for (const args of [
    ['key', 'revoke', key],
    ['key', 'revoke', `--${short}`],
    ['partner', 'set-status', '--id', 'pasted', '--status', short],
    ['audit', 'list', '--since', key],
    ['key', 'create', '--partner', 'pasted', '--workspace', 'ws_x', '--rate-limit', short],
    ['workspace', 'import', '--workspace', 'ws_x', '--file', key],
  ]) {
    const out = await admin(...args, '--json');
    expect({ args, code: out.code === 0 ? 0 : 'refused' }).toEqual({ args, code: 'refused' });
    expect(out.stdout + out.stderr).not.toContain(key.slice(9, 25));
  }
});

it('refuses an option the command does not take, before it changes anything', async () => {
  // Ignored, `--limit` (set-rate-limit's spelling) on key create made a key with no limit at all.
  await admin('partner', 'create', '--id', 'optional', '--name', 'Optional'); // its own partner, in any order
  const before = (await admin('key', 'list', '--partner', 'optional', '--json')).json.keys.length;
  const limited = await admin('key', 'create', '--partner', 'optional', '--workspace', 'ws_opt', '--limit', '600/m');
  expect(limited.code).toBe(2);
  expect(limited.stderr).toMatch(/--limit does not apply to key create \(did you mean --rate-limit\?\)/);
  expect((await admin('key', 'list', '--partner', 'optional', '--json')).json.keys).toHaveLength(before);
  const audit = await admin('audit', 'list', '--id', 'x');
  expect(audit.code).toBe(2);
  expect(audit.stderr).toMatch(/--id does not apply to audit list/);
  // With --json, an option the parser does not know at all is answered in JSON too.
  const unknown = await admin('key', 'list', '--partner', 'optional', '--colour', '--json');
  expect(unknown.code).toBe(2);
  expect(unknown.json).toEqual({ error: { message: expect.stringMatching(/--colour/) } });
});

it('warns, exiting 1, when a workspace ungranted stays reachable through a prefix the key keeps', async () => {
  // It exited 0 and the key kept its access: the operator believed the workspace cut off.
  await admin('partner', 'create', '--id', 'prefixed', '--name', 'Prefixed');
  const key = (
    await admin('key', 'create', '--partner', 'prefixed', '--workspace', 'pfx:*', '--workspace', 'pfx:eu', '--json')
  ).json;
  const out = await admin('key', 'ungrant', '--key-id', key.key_id, '--workspace', 'pfx:eu', '--json');
  expect(out.code).toBe(1);
  expect(out.json).toEqual({
    key_id: key.key_id,
    workspaces: ['pfx:*'],
    still_allowed: [{ workspace: 'pfx:eu', by: 'pfx:*' }],
  });
  const text = await admin('key', 'ungrant', '--key-id', key.key_id, '--workspace', 'pfx:us');
  expect(text.code).toBe(1);
  expect(text.stdout).toMatch(/warning: the key still reaches pfx:us \(through pfx:\*\)/);
});

it('refuses to create a partner twice', async () => {
  await admin('partner', 'create', '--id', 'twice', '--name', 'Twice');
  const again = await admin('partner', 'create', '--id', 'twice', '--name', 'Twice');
  expect(again.code).not.toBe(0);
  expect(again.stderr).toMatch(/partner twice already exists/);
});

it("shows a partner's status, and a stored decision with who asked for it and its expiry, expired too", async () => {
  // On-call's "why ACCOUNT_INACTIVE?" and "decision X was wrong / GET answers 404", without a partner's key.
  await admin('partner', 'create', '--id', 'shown', '--name', 'Shown', '--status', 'suspended');
  expect((await admin('partner', 'get', '--id', 'shown', '--json')).json).toEqual({
    partner_id: 'shown',
    name: 'Shown',
    status: 'suspended',
    created_at: expect.any(String),
    updated_at: expect.any(String),
  });

  // A decision stored as analyze stores it, two days ago with a retention of one day: GET would answer 404.
  const madeMs = Date.now() - 2 * 86_400_000;
  const made = new Date(madeMs).toISOString();
  const signal = { workspace_id: 'ws_shown', source: 'task' as const, subject: 'Weekly report', received_at: made };
  const ids = { decision_id: `dec_${ulidTime(madeMs)}${'0'.repeat(16)}`, ...signal, created_at: made };
  const decision = buildDecision(ids, scoreSignal(signal, new Date(madeMs)));
  const owner = { partner_id: 'shown', key_id: 'key_shown' };
  await tables.client.send(
    new PutCommand({ TableName: tables.names.decisions, Item: decisionItem(decision, owner, madeMs, 1) }),
  );
  const shown = await admin('decision', 'get', '--id', decision.decision_id, '--json');
  expect(shown.json).toEqual({ decision, ...owner, expires_at: expect.any(String), expired: true });
  const text = await admin('decision', 'get', '--id', decision.decision_id);
  expect(text.stdout).toContain(`priority ${decision.priority} (score ${decision.score})`);
  expect(text.stdout).toMatch(/expired .*\(GET answers 404\)/);

  const unknown = await admin('decision', 'get', '--id', `dec_${ulidTime(madeMs)}${'1'.repeat(16)}`);
  expect([unknown.code, unknown.stderr]).toEqual([1, expect.stringMatching(/unknown decision dec_/)]);
});
