// Issue 21, finding 7: `key rotate` dropped the expiry, so an expiring key rotated into one that never expires. The
// new key keeps the old key's expiry (with its scopes and rate limit); an expired key is not rotated at all (it is as
// unusable as a revoked one, and rotating it would hand out a working key). Through the real admin CLI.
import { KeyAuthorizer } from '../../lambdas/authorizer/authorize';
import { isDatabaseUnavailable } from '../../lambdas/stores/database-faults';
import { DynamoAccessStore } from '../../lambdas/stores/access-store';
import { AdminService } from '../../lib/admin';
import { type TestTables, createTestTables } from '../support/dynamodb';
import { adminCliEnv, runAdmin } from '../support/admin-cli';

jest.setTimeout(120_000);

let tables: TestTables;
let env: NodeJS.ProcessEnv;

const admin = (...args: string[]) => runAdmin(env, [...args, '--json']);

beforeAll(async () => {
  tables = await createTestTables('rotate');
  env = adminCliEnv(tables.names);
  expect((await admin('partner', 'create', '--id', 'rot', '--name', 'Rotating')).code).toBe(0);
});
afterAll(async () => {
  await tables?.drop();
});

it('keeps the expiry, scopes and rate limit of the rotated key, and never lengthens the old key’s life', async () => {
  const expiresAt = new Date(Date.now() + 2 * 3_600_000).toISOString();
  const old = (
    await admin(
      'key',
      'create',
      '--partner',
      'rot',
      '--workspace',
      'ws_r',
      '--expires-at',
      expiresAt,
      '--scope',
      'read',
      '--rate-limit',
      '7/m',
    )
  ).json;
  const rotated = await admin('key', 'rotate', '--key-id', old.key_id, '--grace-seconds', '86400');
  expect(rotated.code).toBe(0);
  expect(rotated.json).toMatchObject({
    expires_at: expiresAt,
    scopes: ['read'],
    rate_limit: { limit: 7, window_seconds: 60 },
    workspaces: ['ws_r'],
  });
  expect(rotated.json.old_key_expires_at).toBe(expiresAt); // the grace period is longer than what the old key had left

  const listed = (await admin('key', 'list', '--partner', 'rot')).json.keys;
  expect(listed.find((k: { key_id: string }) => k.key_id === rotated.json.key_id).expires_at).toBe(expiresAt);

  // What a client notices: the new key stops working when the old one would have.
  const authorizer = new KeyAuthorizer(new DynamoAccessStore(tables.client, tables.names.access), {
    ttlSeconds: 0,
    isUnavailable: isDatabaseUnavailable,
  });
  expect((await authorizer.verify(`Bearer ${rotated.json.key}`)).outcome).toBe('allow');
  expect((await authorizer.verify(`Bearer ${rotated.json.key}`, Date.parse(expiresAt) + 1_000)).outcome).toBe(
    'UNAUTHORIZED',
  );
});

it('refuses to rotate an expired key, with a clear message, and issues nothing', async () => {
  // Issued while its expiry was still ahead: the CLI refuses one already past (last test).
  const before2020 = new AdminService(
    new DynamoAccessStore(tables.client, tables.names.access, tables.names.decisions),
    { now: () => new Date('2019-12-01T00:00:00Z') },
  );
  const expired = await before2020.createKey({
    partnerId: 'rot',
    workspaces: ['ws_x'],
    expiresAt: '2020-01-01T00:00:00Z',
  });
  const before = (await admin('key', 'list', '--partner', 'rot')).json.keys.length;
  const refused = await admin('key', 'rotate', '--key-id', expired.key_id);
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toMatch(
    new RegExp(
      `key ${expired.key_id} expired at 2020-01-01T00:00:00.000Z; only a key that has not expired can be rotated`,
    ),
  );
  const after = (await admin('key', 'list', '--partner', 'rot')).json.keys;
  expect(after).toHaveLength(before);
  expect(after.find((k: { key_id: string }) => k.key_id === expired.key_id).expires_at).toBe(
    '2020-01-01T00:00:00.000Z',
  );
});

it('refuses to create a key whose expiry is already past, and issues nothing', async () => {
  const before = (await admin('key', 'list', '--partner', 'rot')).json.keys.length;
  const refused = await admin(
    'key',
    'create',
    '--partner',
    'rot',
    '--workspace',
    'ws_y',
    '--expires-at',
    '2020-01-01T00:00:00Z',
  );
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(
    /--expires-at 2020-01-01T00:00:00.000Z is not in the future: the key could never be used/,
  );
  expect((await admin('key', 'list', '--partner', 'rot')).json.keys).toHaveLength(before);
});
