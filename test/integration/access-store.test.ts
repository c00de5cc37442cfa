// The access store against DynamoDB Local: grants that survive concurrent changes, and keys stored only as hashes.
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { AdminService } from '../../lib/admin';
import { DynamoAccessStore } from '../../lambdas/stores/access-store';
import { type TestTables, createTestTables } from '../support/dynamodb';

let tables: TestTables;
let admin: AdminService;

beforeAll(async () => {
  tables = await createTestTables('access');
  admin = new AdminService(new DynamoAccessStore(tables.client, tables.names.access, tables.names.decisions));
  await admin.createPartner({ id: 'acme', name: 'Acme' });
});
afterAll(async () => {
  await tables?.drop();
});

it('loses no grant when many grants on one key run at the same time', async () => {
  const { key_id } = await admin.createKey({ partnerId: 'acme', workspaces: ['ws_0'] });
  const added = Array.from({ length: 12 }, (_, i) => `ws_p${i}`);
  await Promise.all(added.map((ws) => admin.grant(key_id, ws)));
  const [listed] = (await admin.listKeys('acme')).keys.filter((k) => k.key_id === key_id);
  expect([...listed.workspaces].sort()).toEqual(['ws_0', ...added].sort());
});

it('loses nothing when grants and ungrants on one key interleave', async () => {
  const start = Array.from({ length: 6 }, (_, i) => `ws_old${i}`);
  const { key_id } = await admin.createKey({ partnerId: 'acme', workspaces: start });
  const fresh = Array.from({ length: 6 }, (_, i) => `ws_new${i}`);
  await Promise.all([
    ...fresh.map((ws) => admin.grant(key_id, ws)),
    ...start.slice(0, 3).map((ws) => admin.ungrant(key_id, ws)),
  ]);
  const [listed] = (await admin.listKeys('acme')).keys.filter((k) => k.key_id === key_id);
  expect([...listed.workspaces].sort()).toEqual([...start.slice(3), ...fresh].sort());
});

it('keeps no trace of the plaintext key in the table', async () => {
  const issued = await admin.createKey({ partnerId: 'acme', workspaces: ['ws_secret'] });
  const items = (await tables.client.send(new ScanCommand({ TableName: tables.names.access }))).Items ?? [];
  const stored = JSON.stringify(items);
  expect(stored).toContain(issued.key_id);
  // The random part (and any 12-character run of it) appears nowhere; the display prefix is the only fragment kept.
  const secret = issued.key.slice(9, 41);
  for (let i = 0; i + 12 <= secret.length; i += 4) expect(stored).not.toContain(secret.slice(i, i + 12));
});
