// `key rotate --grace-seconds <n>` with a grace period past what a date can hold (9,999,999,999,999 s is 316,000
// years) used to fail with JavaScript's own "Invalid time value": bad input gets a message that names the option.
import { type TestTables, createTestTables } from '../support/dynamodb';
import { type AdminResult, adminCliEnv, runAdmin } from '../support/admin-cli';

jest.setTimeout(120_000);

let tables: TestTables;
let env: NodeJS.ProcessEnv;
const admin = (...args: string[]): Promise<AdminResult> => runAdmin(env, args);

beforeAll(async () => {
  tables = await createTestTables('cli-grace');
  env = adminCliEnv(tables.names);
});
afterAll(async () => {
  await tables?.drop();
});

it('refuses a grace period too long for a date, naming --grace-seconds, and issues nothing', async () => {
  expect((await admin('partner', 'create', '--id', 'gr', '--name', 'Grace')).code).toBe(0);
  const key = (await admin('key', 'create', '--partner', 'gr', '--workspace', 'ws_g', '--json')).json;
  for (const grace of ['9999999999999', '99999999999999999999']) {
    const refused = await admin('key', 'rotate', '--key-id', key.key_id, '--grace-seconds', grace, '--json');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error: --grace-seconds must be a whole number from 0 to 315360000/m);
    expect(refused.json).toEqual({ error: { message: expect.stringMatching(/^--grace-seconds/) } });
  }
  expect((await admin('key', 'list', '--partner', 'gr', '--json')).json.keys).toHaveLength(1);
  // Ten years is still taken.
  const rotated = await admin('key', 'rotate', '--key-id', key.key_id, '--grace-seconds', '315360000', '--json');
  expect(rotated.code).toBe(0);
  expect(Date.parse(rotated.json.old_key_expires_at)).toBeGreaterThan(Date.now() + 9 * 365 * 86_400_000);
});

it('refuses to rotate a key already rotated, whose expiry is the grace period, naming the key to rotate instead', async () => {
  // The second rotation copied the old key's expiry, by then the grace period's end, to the new key: a key that would
  // stop within a day. (An operator who lost the first output, or followed "rotate with --grace-seconds 0".)
  expect((await admin('partner', 'create', '--id', 'gr2', '--name', 'Grace twice')).code).toBe(0);
  const key = (await admin('key', 'create', '--partner', 'gr2', '--workspace', 'ws_g2', '--json')).json;
  const first = await admin('key', 'rotate', '--key-id', key.key_id, '--grace-seconds', '60', '--json');
  expect(first.code).toBe(0);
  expect(first.json.expires_at ?? null).toBeNull();
  const again = await admin('key', 'rotate', '--key-id', key.key_id, '--grace-seconds', '0', '--json');
  expect(again.code).toBe(1);
  expect(again.json.error.message).toContain(`rotate ${first.json.key_id}`);
  expect((await admin('key', 'list', '--partner', 'gr2', '--json')).json.keys).toHaveLength(2);
  // The replacement rotates as any key does.
  expect((await admin('key', 'rotate', '--key-id', first.json.key_id, '--json')).code).toBe(0);
});

it('lists a rotated key with the key that replaced it, and as expired once its grace period ended', async () => {
  // It was listed as active after its expiry, and nothing said which key took its place.
  expect((await admin('partner', 'create', '--id', 'gr3', '--name', 'Grace over')).code).toBe(0);
  const key = (await admin('key', 'create', '--partner', 'gr3', '--workspace', 'ws_g3', '--json')).json;
  const rotated = (await admin('key', 'rotate', '--key-id', key.key_id, '--grace-seconds', '0', '--json')).json;
  const listed = (await admin('key', 'list', '--partner', 'gr3', '--json')).json.keys;
  expect(listed.find((k: { key_id: string }) => k.key_id === key.key_id)).toMatchObject({
    expired: true,
    replaced_by: rotated.key_id,
  });
  expect(listed.find((k: { key_id: string }) => k.key_id === rotated.key_id)).toMatchObject({ expired: false });
  expect(listed.find((k: { key_id: string }) => k.key_id === rotated.key_id).replaced_by).toBeUndefined();
  const text = (await runAdmin(env, ['key', 'list', '--partner', 'gr3'])).stdout;
  const line = text.split('\n').find((l) => l.startsWith(key.key_id))!;
  expect(line).toMatch(/ expired /);
  expect(line).toContain(`replaced by ${rotated.key_id}`);
});
