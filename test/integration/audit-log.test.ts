// The audit log's storage against DynamoDB Local: an event lands with its change or not at all, in the cases the CLI
// cannot make on demand (a transaction refused by its own condition halfway through a bulk grant, a key revoked
// during a rotation, another writer's transaction carrying an event), and a bulk grant leaves one event a transaction.
import { PutCommand, ScanCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { AuditEventError } from '../../lambdas/domain/audit';
import { KeyChangedError } from '../../lambdas/domain/ports';
import { auditEventPut } from '../../lambdas/stores/audit-log';
import { DynamoAccessStore } from '../../lambdas/stores/access-store';
import { DynamoAuditLog } from '../../lambdas/stores/audit-store';
import { AdminService } from '../../lib/admin';
import { useAccessTables } from '../support/access';

let log: DynamoAuditLog;

const db = useAccessTables('auditlog', { acme: 'Acme' }, { actor: 'local:ops' });
beforeAll(async () => {
  log = new DynamoAuditLog(db.tables.client, db.tables.names.decisions);
});

const all = () => log.list({ limit: 10_000 });
const byNumber = (a: number, b: number) => a - b;

it('refuses the 101st prefix grant with its event, keeping the 100 that fit with theirs', async () => {
  const key = await db.admin.createKey({ partnerId: 'acme', workspaces: ['acme:p000*'] });
  const prefixes = Array.from({ length: 100 }, (_, i) => `acme:p${String(i + 1).padStart(3, '0')}*`);
  await expect(db.admin.grant(key.key_id, prefixes.slice(0, 99))).resolves.toBeDefined();
  const before = (await log.list({ keyId: key.key_id, limit: 10_000 })).filter((e) => e.action === 'key.grant');
  expect(before).toHaveLength(1 + 99); // one a prefix transaction
  // Past the check that reads first: the transaction's own condition refuses the 101st, and with it its event.
  await expect(
    db.store.grants.addGrants({ key_id: key.key_id, partner_id: 'acme' }, [prefixes[99]], { actor: 'local:ops' }),
  ).rejects.toThrow(/at most 100/);
  const after = (await log.list({ keyId: key.key_id, limit: 10_000 })).filter((e) => e.action === 'key.grant');
  expect(after).toHaveLength(before.length);
});

it('leaves one event per grant transaction of a bulk grant, each naming its own grants', async () => {
  const key = await db.admin.createKey({ partnerId: 'acme', workspaces: ['acme_bulk_0'] });
  const grants = Array.from({ length: 60 }, (_, i) => `acme_bulk_${i + 1}`);
  await db.admin.grant(key.key_id, grants);
  const events = (await log.list({ keyId: key.key_id, limit: 100 })).filter(
    (e) => e.action === 'key.grant' && e.after?.grants,
  );
  const listed = events.flatMap((e) => e.after!.grants as string[]);
  expect(events.length).toBe(1 + 3); // the create's grant, then 25 + 25 + 10
  expect(listed.sort()).toEqual(['acme_bulk_0', ...grants].sort());
});

it('rotates nothing, and records nothing, when the old key is revoked during the rotation', async () => {
  const key = await db.admin.createKey({ partnerId: 'acme', workspaces: ['acme_rot'] });
  const old = (await db.store.findKeyById(key.key_id))!;
  await db.admin.revokeKey(key.key_id);
  const count = (await all()).length;
  // What rotateKey would write after reading the key while it was still active.
  const fresh = { ...old, key_hash: 'f'.repeat(64), key_id: `${old.key_id}X`, created_at: new Date().toISOString() };
  await expect(
    db.store.putKey(fresh, { actor: 'local:ops' }, { key: old, expires_at: new Date().toISOString() }),
  ).rejects.toThrow(KeyChangedError);
  expect(await all()).toHaveLength(count);
  expect(await db.store.findKeyById(fresh.key_id)).toBeUndefined();
});

/**
 * The items that grant `keyId` anything (exact and prefix grants, their holder items, a prefix set not empty), read
 * consistently.
 */
const grantItemsOf = async (keyId: string) =>
  (
    await db.tables.client.send(new ScanCommand({ TableName: db.tables.names.access, ConsistentRead: true }))
  ).Items!.filter(
    (i) => String(i.pk).includes(keyId) && i.kind !== 'key' && (i.kind !== 'prefix_grants' || i.prefixes?.size > 0),
  );

it('a rotation that loses to a revoke leaves no grant of the key it did not issue, and says nothing was rotated', async () => {
  const key = await db.admin.createKey({ partnerId: 'acme', workspaces: ['acme_lost', 'acme:lost*'] });
  // Another operator revokes the key at the instant between the rotation reading its grants and storing the new key.
  const grants = db.store.grants;
  const read = grants.currentGrants.bind(grants);
  let newKeyId: string | undefined;
  const add = grants.addGrants.bind(grants);
  grants.currentGrants = async (id) => {
    const out = await read(id);
    await db.admin.revokeKey(key.key_id);
    return out;
  };
  grants.addGrants = async (owner, list, by) => {
    newKeyId = owner.key_id;
    return add(owner, list, by);
  };
  try {
    await expect(db.admin.rotateKey(key.key_id, 60)).rejects.toThrow(KeyChangedError);
  } finally {
    grants.currentGrants = read;
    grants.addGrants = add;
  }
  expect(newKeyId).toBeDefined();
  expect(await grantItemsOf(newKeyId!)).toEqual([]);
  // Once the revoked key's grants are removed, another partner may take those workspaces: no key nobody sees holds them.
  await db.admin.ungrant(key.key_id, ['acme_lost', 'acme:lost*']);
  await db.admin.createPartner({ id: 'globex_lost', name: 'Globex' });
  await expect(db.admin.createKey({ partnerId: 'globex_lost', workspaces: ['acme_lost'] })).resolves.toBeDefined();
});

it('ungrants the grants of a key a stopped key create wrote and never stored, with its event', async () => {
  // Ctrl-C between the grants and the key: grants of a key id no listing shows, which only ungrant can remove.
  const orphan = 'key_01M8N0000000000000000000ZZ';
  await db.store.grants.addGrants({ key_id: orphan, partner_id: 'acme' }, ['acme_orphan', 'acme:orphan*'], {
    actor: 'local:ops',
  });
  expect(await db.store.findKeyById(orphan)).toBeUndefined();
  const out = await db.admin.ungrant(orphan, ['acme_orphan', 'acme:orphan*']);
  expect(out).toEqual({ key_id: orphan, workspaces: [] });
  expect(await grantItemsOf(orphan)).toEqual([]);
  const events = (await log.list({ keyId: orphan, limit: 10 })).filter((e) => e.action === 'key.ungrant');
  expect(events.map((e) => e.target)).toEqual([
    { partner_id: 'acme', key_id: orphan },
    { partner_id: 'acme', key_id: orphan },
  ]);
  // A key id with neither a key nor grants is still unknown.
  await expect(db.admin.ungrant(orphan, ['acme_orphan'])).rejects.toThrow(/key key_01M8N0000000000000000000ZZ/);
});

it('refuses a key whose description holds an API key before writing anything', async () => {
  const count = (await all()).length;
  const leaked = (await db.admin.createKey({ partnerId: 'acme', workspaces: ['acme_leak_src'] })).key;
  const created = (await all()).length;
  await expect(
    db.admin.createKey({ partnerId: 'acme', workspaces: ['acme_leak'], description: `replaces ${leaked}` }),
  ).rejects.toThrow(/--description holds an API key/);
  expect((await all()).length).toBe(created);
  expect(created).toBeGreaterThan(count);
  await db.admin.createPartner({ id: 'globex_leak', name: 'Globex' });
  await expect(db.admin.createKey({ partnerId: 'globex_leak', workspaces: ['acme_leak'] })).resolves.toBeDefined();
});

it('refuses a partner whose name holds an API key, in its own words, before writing anything', async () => {
  const leaked = (await db.admin.createKey({ partnerId: 'acme', workspaces: ['acme_leak_name'] })).key;
  const count = (await all()).length;
  await expect(db.admin.createPartner({ id: 'initech_leak', name: `Initech ${leaked}` })).rejects.toThrow(
    /^--name holds an API key/,
  );
  expect((await all()).length).toBe(count);
});

it('ungrants only what the key holds: a grant it never held is no change and leaves no event', async () => {
  const key = await db.admin.createKey({ partnerId: 'acme', workspaces: ['acme_held', 'acme:held*'] });
  const count = (await all()).length;
  await db.admin.ungrant(key.key_id, ['acme_never', 'acme:never*']);
  expect((await all()).length).toBe(count);
  await db.admin.ungrant(key.key_id, ['acme_held', 'acme_never', 'acme:held*']);
  const events = (await all()).slice(0, (await all()).length - count);
  expect(events.map((e) => [e.action, e.before])).toEqual(
    expect.arrayContaining([
      ['key.ungrant', { grants: ['acme_held'] }],
      ['key.ungrant', { grants: ['acme:held*'] }],
    ]),
  );
  expect(events).toHaveLength(2);
});

it('grants only what the key lacks: a grant it holds is no change and leaves no event', async () => {
  const key = await db.admin.createKey({ partnerId: 'acme', workspaces: ['acme_had', 'acme:had*'] });
  const count = (await all()).length;
  await db.admin.grant(key.key_id, ['acme_had', 'acme:had*']);
  expect((await all()).length).toBe(count);
  await db.admin.grant(key.key_id, ['acme_had', 'acme_new']);
  const events = (await all()).slice(0, (await all()).length - count);
  expect(events.map((e) => [e.action, e.after])).toEqual([['key.grant', { grants: ['acme_new'] }]]);
});

it('records the grants key migrate-grants moves from a version 1 list', async () => {
  await db.tables.client.send(
    new PutCommand({
      TableName: db.tables.names.access,
      Item: {
        pk: `key#${'e'.repeat(64)}`,
        kind: 'key',
        key_id: 'key_v1',
        partner_id: 'acme',
        prefix: 'sas_live_AAAA',
        status: 'active',
        created_at: '2026-01-01T00:00:00.000Z',
        workspaces: ['acme_v1_a', 'acme_v1_b'],
      },
    }),
  );
  expect(await db.admin.migrateLegacyGrants()).toEqual({ keys_migrated: 1, grants_migrated: 2 });
  expect((await log.list({ keyId: 'key_v1', limit: 10 })).map((e) => [e.action, e.actor, e.after])).toEqual([
    ['key.grant', 'local:ops', { grants: ['acme_v1_a', 'acme_v1_b'] }],
  ]);
});

it("writes another writer's event only with that writer's change", async () => {
  const count = (await all()).length;
  const event = (n: number) =>
    auditEventPut(
      db.tables.names.decisions,
      {
        actor: 'key:key_x',
        action: 'model.forget',
        target: { workspace_id: 'ws_m' },
        before: { generation: n },
        after: { generation: n + 1 },
      },
      new Date(),
    );
  await db.tables.client.send(
    new PutCommand({ TableName: db.tables.names.decisions, Item: { pk: 'wsmodel#ws_m', generation: 1 } }),
  );
  const change = (expected: number) => ({
    Update: {
      TableName: db.tables.names.decisions,
      Key: { pk: 'wsmodel#ws_m' },
      UpdateExpression: 'SET generation = :next',
      ConditionExpression: 'generation = :expected',
      ExpressionAttributeValues: { ':next': expected + 1, ':expected': expected },
    },
  });
  await expect(
    db.tables.client.send(new TransactWriteCommand({ TransactItems: [change(7), event(7)] })),
  ).rejects.toThrow();
  expect(await all()).toHaveLength(count);
  await db.tables.client.send(new TransactWriteCommand({ TransactItems: [change(1), event(1)] }));
  expect((await log.list({ workspaceId: 'ws_m', limit: 10 })).map((e) => [e.action, e.actor, e.after])).toEqual([
    ['model.forget', 'key:key_x', { generation: 2 }],
  ]);
  // An event that would hold a key is refused before anything is sent.
  expect(() =>
    auditEventPut(
      db.tables.names.decisions,
      { actor: 'local:ops', action: 'key.create', target: {}, before: null, after: { key_hash: 'x' } },
      new Date(),
    ),
  ).toThrow(AuditEventError);
});

it('takes many changes of one key at the same moment, each its own event, none refused for losing the race', async () => {
  const key = await db.admin.createKey({ partnerId: 'acme', workspaces: ['acme_race'], rateLimit: '1/m' });
  // Sixteen transactions on one item at once: DynamoDB cancels the ones it finds the item held by (TransactionConflict),
  // and the others fail their condition on what they read; each is read again and retried.
  const limits = Array.from({ length: 16 }, (_, i) => i + 2);
  await Promise.all(limits.map((n) => db.admin.setRateLimit(key.key_id, `${n}/m`)));
  const changes = (await log.list({ keyId: key.key_id, limit: 100 })).filter((e) => e.action === 'key.set_rate_limit');
  expect(changes).toHaveLength(limits.length);
  // One chain from the limit the key was created with: each event's `before` is another's `after`, or the first.
  const before = changes.map((e) => (e.before as { rate_limit: { limit: number } }).rate_limit.limit).sort(byNumber);
  const after = changes.map((e) => (e.after as { rate_limit: { limit: number } }).rate_limit.limit).sort(byNumber);
  expect(after).toEqual(limits);
  const last = (await db.store.findKeyById(key.key_id))?.rate_limit?.limit;
  expect(before).toEqual([1, ...limits.filter((n) => n !== last)].sort(byNumber));
});

it('retries a change DynamoDB cancelled for another transaction holding the key, with one event', async () => {
  const key = await db.admin.createKey({ partnerId: 'acme', workspaces: ['acme_held'], rateLimit: '1/m' });
  // Injected, as DynamoDB answers while another transaction holds the item (DynamoDB Local serializes transactions,
  // so it never answers this): the first transaction is refused before it is sent.
  const client = db.tables.client;
  const send = client.send.bind(client) as (command: unknown) => Promise<unknown>;
  let refused = 0;
  const holding = Object.create(client) as typeof client;
  (holding as { send: unknown }).send = async (command: unknown) => {
    if (command instanceof TransactWriteCommand && refused++ === 0) {
      throw Object.assign(new Error('Transaction cancelled'), {
        name: 'TransactionCanceledException',
        CancellationReasons: [{ Code: 'TransactionConflict' }, { Code: 'None' }],
      });
    }
    return send(command);
  };
  const admin = new AdminService(new DynamoAccessStore(holding, db.tables.names.access, db.tables.names.decisions));
  await expect(admin.setRateLimit(key.key_id, '9/m')).resolves.toMatchObject({ rate_limit: { limit: 9 } });
  expect(refused).toBe(2);
  const changes = (await log.list({ keyId: key.key_id, limit: 100 })).filter((e) => e.action === 'key.set_rate_limit');
  expect(changes.map((e) => [e.before, e.after])).toEqual([
    [{ rate_limit: { limit: 1, window_seconds: 60 } }, { rate_limit: { limit: 9, window_seconds: 60 } }],
  ]);
});

it('rotates a key whose transaction DynamoDB cancelled for another holding the old key, with one event', async () => {
  const old = await db.admin.createKey({ partnerId: 'acme', workspaces: ['acme_rotheld'] });
  // Injected, as above: the rotation's first transaction is refused before it is sent.
  const client = db.tables.client;
  const send = client.send.bind(client) as (command: unknown) => Promise<unknown>;
  let refused = 0; // the rotation's own transaction (the new key's grants are written before it)
  const holding = Object.create(client) as typeof client;
  (holding as { send: unknown }).send = async (command: unknown) => {
    if (
      command instanceof TransactWriteCommand &&
      command.input.TransactItems?.some((t) => t.Put?.Item?.kind === 'key') &&
      refused === 0
    ) {
      refused++;
      throw Object.assign(new Error('Transaction cancelled'), {
        name: 'TransactionCanceledException',
        CancellationReasons: [{ Code: 'None' }, { Code: 'TransactionConflict' }, { Code: 'None' }],
      });
    }
    return send(command);
  };
  const admin = new AdminService(new DynamoAccessStore(holding, db.tables.names.access, db.tables.names.decisions));
  const rotated = await admin.rotateKey(old.key_id);
  expect(refused).toBe(1);
  expect((await db.store.findKeyById(rotated.key_id))?.status).toBe('active');
  const rotations = (await log.list({ keyId: old.key_id, limit: 100 })).filter((e) => e.action === 'key.rotate');
  expect(rotations).toHaveLength(1);
});

it('reads no further back than the retention, however old --since is', async () => {
  // Each month costs a Query per shard: --since 0001-01-01 walked 24,000 months back (2 min 18 s on DynamoDB Local).
  const queries = { n: 0 };
  const send = db.tables.client.send.bind(db.tables.client) as (c: unknown) => Promise<unknown>;
  const counting = Object.create(db.tables.client) as typeof db.tables.client;
  (counting as { send: unknown }).send = (command: { constructor: { name: string } }) => {
    if (command.constructor.name === 'QueryCommand') queries.n++;
    return send(command);
  };
  const counted = new DynamoAuditLog(counting, db.tables.names.decisions);
  const recent = await counted.list({ limit: 10_000 });
  const withinRetention = queries.n;
  queries.n = 0;
  const ancient = await counted.list({ limit: 10_000, sinceMs: Date.parse('0001-01-01T00:00:00Z') });
  expect(ancient).toEqual(recent);
  expect(queries.n).toBe(withinRetention);
});
