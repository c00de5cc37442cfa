// Grants as data against DynamoDB Local (docs/operations.md, "Grants"): exact and prefix grants, the cross-partner
// check and --allow-shared, the prefix bound, and what the request path reads per (key, workspace).
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { GrantStore } from '../../lambdas/domain/ports';
import { SharedGrantError } from '../../lambdas/domain/ports';
import { GrantAccess } from '../../lambdas/application/workspace-access';
import { allowedPrincipal, useAccessTables } from '../support/access';

const db = useAccessTables('grants', { acme: 'acme', globex: 'globex' });

/** The real grant store, counting its round trips. */
function counting(grants: GrantStore) {
  const counter = { reads: 0 };
  return {
    counter,
    grants: { checkGrant: (k: string, w: string, p?: string[]) => (counter.reads++, grants.checkGrant(k, w, p)) },
  };
}

it('refuses to share a workspace or an overlapping prefix with another partner, unless allowed', async () => {
  // Other tests of this file give globex keys too: only what this one adds is compared (any order).
  const before = new Set((await db.admin.listKeys('globex')).keys.map((k) => k.key_id));
  const acme = await db.admin.createKey({ partnerId: 'acme', workspaces: ['shared_ws', 'acmeco:*'] });
  // The same partner may hold a workspace on several keys.
  await expect(db.admin.createKey({ partnerId: 'acme', workspaces: ['shared_ws'] })).resolves.toBeDefined();
  for (const grants of [['shared_ws'], ['acmeco:eu'], ['acm*'], ['acmeco:eu:*'], ['shar*']]) {
    const refused = db.admin.createKey({ partnerId: 'globex', workspaces: ['globex_ws', ...grants] });
    await expect(refused).rejects.toBeInstanceOf(SharedGrantError);
    await expect(refused).rejects.toThrow(/would share workspaces with another partner/);
  }
  const globex = await db.admin.createKey({ partnerId: 'globex', workspaces: ['globex_ws'] });
  await expect(db.admin.grant(globex.key_id, ['acmeco:us'])).rejects.toBeInstanceOf(SharedGrantError);
  // Nothing of a refused call was stored.
  const added = (await db.admin.listKeys('globex')).keys.filter((k) => !before.has(k.key_id));
  expect(added.map((k) => k.workspaces)).toEqual([['globex_ws']]);

  const shared = await db.admin.grant(globex.key_id, ['acmeco:us', 'shared_ws'], { allowShared: true });
  expect(shared.workspaces).toEqual(['acmeco:us', 'globex_ws', 'shared_ws']);
  // Once the other partner lets go, the workspace is free again.
  await db.admin.ungrant(globex.key_id, ['acmeco:us', 'shared_ws']);
  await db.admin.ungrant(acme.key_id, ['acmeco:*']);
  await expect(db.admin.grant(globex.key_id, ['acmeco:us'])).resolves.toBeDefined();
});

it('holds at most 100 prefix grants per key, also when granted concurrently', async () => {
  const { key_id } = await db.admin.createKey({ partnerId: 'acme', workspaces: ['pfx000:*'] });
  const more = Array.from({ length: 110 }, (_, i) => `pfx${String(i + 1).padStart(3, '0')}:*`);
  await expect(db.admin.grant(key_id, more)).rejects.toThrow(/at most 100 prefix grants/);
  // Racing single grants, ten in flight at once: the store's condition keeps the bound.
  const outcomes: string[] = []; // 'ok' or the refusal's message
  let next = 0;
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (next < more.length) {
        const grant = more[next++];
        outcomes.push(
          await db.store.grants.addGrants({ key_id, partner_id: 'acme' }, [grant], { actor: 'local:test' }).then(
            () => 'ok',
            (err: Error) => err.message,
          ),
        );
      }
    }),
  );
  expect(outcomes.filter((o) => o === 'ok')).toHaveLength(99);
  expect(new Set(outcomes.filter((o) => o !== 'ok'))).toEqual(new Set(['a key holds at most 100 prefix grants']));
  expect(await db.store.grants.prefixGrants(key_id)).toHaveLength(100);
});

it('reads once per (key, workspace) and caches both answers for the TTL; an ungrant shows after it', async () => {
  const { key_id } = await db.admin.createKey({ partnerId: 'acme', workspaces: ['ws_one', 'ws_two', 'team:*'] });
  const { grants, counter } = counting(db.store.grants);
  let now = 1_000_000;
  const access = new GrantAccess(grants, { ttlSeconds: 30, clock: () => now });
  const p = allowedPrincipal(key_id);
  expect(await access.allows(p, 'ws_one')).toBe(true); // exact grant and prefix set, one round trip
  expect(await access.allows(p, 'ws_one')).toBe(true);
  expect(await access.allows(p, 'ws_other')).toBe(false);
  expect(await access.allows(p, 'ws_other')).toBe(false);
  expect(await access.allows(p, 'team:a')).toBe(true); // covered by the cached prefix set: no read
  expect(await access.allows(p, 'ws_two')).toBe(true);
  expect(counter.reads).toBe(3);

  await db.admin.ungrant(key_id, ['ws_one', 'team:*']);
  now += 29_000;
  expect(await access.allows(p, 'ws_one')).toBe(true); // within the TTL
  now += 1_001;
  expect(await access.allows(p, 'ws_one')).toBe(false);
  expect(await access.allows(p, 'team:a')).toBe(false);
});

it('loses nothing when hundreds of grants and ungrants on one key run at the same time', async () => {
  const { key_id } = await db.admin.createKey({ partnerId: 'acme', workspaces: ['bulk_0'] });
  const first = Array.from({ length: 300 }, (_, i) => `bulk_a${i}`);
  const second = Array.from({ length: 300 }, (_, i) => `bulk_b${i}`);
  await db.admin.grant(key_id, first.slice(0, 150));
  await Promise.all([
    db.admin.grant(key_id, first.slice(150)),
    db.admin.grant(key_id, second),
    db.admin.ungrant(key_id, first.slice(0, 100)),
  ]);
  const listed = (await db.admin.listKeys('acme')).keys.find((k) => k.key_id === key_id)!;
  expect(listed.workspaces).toEqual(['bulk_0', ...first.slice(100), ...second].sort());
});

it('moves the workspace lists of version 1 keys into grants, once', async () => {
  // A key item as version 1 wrote it: the grants as a list on the item.
  await db.tables.client.send(
    new PutCommand({
      TableName: db.tables.names.access,
      Item: {
        pk: 'key#v1hash',
        kind: 'key',
        key_id: 'key_V1',
        partner_id: 'acme',
        prefix: 'sas_live_Ab3x',
        workspaces: ['v1_a', 'v1_b', 'v1_a'],
        status: 'active',
        created_at: '2026-01-01T00:00:00.000Z',
      },
    }),
  );
  const access = new GrantAccess(db.store.grants, { ttlSeconds: 0 });
  expect(await access.allows(allowedPrincipal('key_V1'), 'v1_a')).toBe(false);
  // Before the migration, a grant change would be undone by it (an ungrant) or lost (a rotation): refused.
  for (const change of [
    () => db.admin.ungrant('key_V1', 'v1_b'),
    () => db.admin.grant('key_V1', 'v1_c'),
    () => db.admin.rotateKey('key_V1'),
  ])
    await expect(change()).rejects.toThrow(/still holds version 1's workspace list: run key migrate-grants first/);
  // The list's repeat is one grant, and counted once.
  expect(await db.admin.migrateLegacyGrants()).toEqual({ keys_migrated: 1, grants_migrated: 2 });
  expect(await access.allows(allowedPrincipal('key_V1'), 'v1_a')).toBe(true);
  expect((await db.admin.listKeys('acme')).keys.find((k) => k.key_id === 'key_V1')).toMatchObject({
    workspaces: ['v1_a', 'v1_b'],
    scopes: ['analyze', 'read', 'feedback', 'policy'],
    rate_limit: null,
  });
  expect(await db.admin.migrateLegacyGrants()).toEqual({ keys_migrated: 0, grants_migrated: 0 });
  await db.admin.ungrant('key_V1', 'v1_b');
  expect(await access.allows(allowedPrincipal('key_V1'), 'v1_b')).toBe(false);
});

it('rotate copies the grants the table holds, not an ungrant a lagging index still lists', async () => {
  const old = await db.admin.createKey({
    partnerId: 'acme',
    workspaces: ['lag_kept', 'lag_gone', 'lagkept:*', 'laggone:*'],
  });
  // The index's answer from before the changes below: on AWS a GSI read may lag the table by about a second, which
  // DynamoDB Local (consistent) cannot show, so the listing is replayed.
  const lagging = await db.store.grants.listGrants(old.key_id);
  await db.admin.ungrant(old.key_id, ['lag_gone', 'laggone:*']);
  await db.admin.grant(old.key_id, ['lagnew:*']);
  const listed = jest.spyOn(db.store.grants, 'listGrants').mockResolvedValueOnce(lagging);
  try {
    const rotated = await db.admin.rotateKey(old.key_id);
    expect(listed).toHaveBeenCalled();
    // Neither ungranted grant was copied; the prefix granted a moment ago was (the key's prefix set is read
    // consistently).
    expect(rotated.workspaces).toEqual(['lag_kept', 'lagkept:*', 'lagnew:*']);
    expect(await db.store.grants.listGrants(rotated.key_id)).toEqual(rotated.workspaces);
    expect(await db.store.grants.checkGrant(rotated.key_id, 'lag_gone')).toEqual({
      exact: false,
      prefixes: ['lagkept:*', 'lagnew:*'],
    });
  } finally {
    listed.mockRestore();
  }
});

it("counts a revoked key's grants as another partner's: the workspace still holds that partner's data", async () => {
  // A review granted a revoked key's workspace to another partner, which then read the first one's decisions and
  // policy through the API. Sharing it takes --allow-shared; ungranting the old key's grants takes it out of the check.
  const old = await db.admin.createKey({ partnerId: 'acme', workspaces: ['handed_over'] });
  await expect(db.admin.createKey({ partnerId: 'globex', workspaces: ['handed_over'] })).rejects.toBeInstanceOf(
    SharedGrantError,
  );
  await db.admin.revokeKey(old.key_id);
  await expect(db.admin.createKey({ partnerId: 'globex', workspaces: ['handed_over'] })).rejects.toThrow(
    /handed_over.*partner acme/,
  );
  await expect(
    db.admin.createKey({ partnerId: 'globex', workspaces: ['handed_over'], allowShared: true }),
  ).resolves.toBeDefined();
});

it('finds a holder under a prefix after a workspace whose grant does not count, one that sorts before it', async () => {
  // The prefix check read only the first other partner's workspace under the prefix: one that did not count there
  // (then a revoked key's; now only a grant of a key never stored, a stopped key create's) hid a live one after it,
  // and the prefix was granted over another partner's workspace.
  await db.admin.createPartner({ id: 'initech', name: 'Initech' });
  const never = 'key_01M8N0000000000000000000ZY';
  await db.store.grants.addGrants({ key_id: never, partner_id: 'acme' }, ['zz77:a'], { actor: 'local:ops' });
  await db.admin.createKey({ partnerId: 'globex', workspaces: ['zz77:b'] });
  const refused = db.admin.createKey({ partnerId: 'initech', workspaces: ['zz77:*'] });
  await expect(refused).rejects.toBeInstanceOf(SharedGrantError);
  await expect(refused).rejects.toThrow(/zz77:b/);
  // Under a prefix only the never-stored key's grant covers, nothing is shared; a revoked key's workspace counts.
  await expect(db.admin.createKey({ partnerId: 'initech', workspaces: ['zz77:a*'] })).resolves.toBeDefined();
  const gone = await db.admin.createKey({ partnerId: 'acme', workspaces: ['zz78:a'] });
  await db.admin.revokeKey(gone.key_id);
  await expect(db.admin.createKey({ partnerId: 'initech', workspaces: ['zz78:*'] })).rejects.toThrow(/zz78:a/);
});
