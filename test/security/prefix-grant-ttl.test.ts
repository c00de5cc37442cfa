// Issue 21, finding 6: removing a prefix grant takes effect within AUTH_CACHE_TTL_SECONDS (docs/operations.md,
// "Authorization cache"), also for a (key, workspace) answer first derived from the cached prefix set late in its life:
// a derived answer expires no later than what it was derived from. Against DynamoDB Local, with a test clock.
import { GrantAccess } from '../../lambdas/application/workspace-access';
import { allowedPrincipal, useAccessTables } from '../support/access';

const db = useAccessTables('sec-prefix-ttl', { acme: 'acme' });

const TTL_MS = 30_000;

it('an ungranted prefix stops covering every workspace within one TTL of the change', async () => {
  const { key_id } = await db.admin.createKey({ partnerId: 'acme', workspaces: ['ws_exact', 'team:*'] });
  let now = 5_000_000;
  const access = new GrantAccess(db.store.grants, { ttlSeconds: TTL_MS / 1000, clock: () => now });
  const p = allowedPrincipal(key_id);

  expect(await access.allows(p, 'team:a')).toBe(true); // loads the prefix set at t0
  now += 1_000;
  await db.admin.ungrant(key_id, ['team:*']); // the change, at t0 + 1 s
  const changedAt = now;
  now += TTL_MS - 2_000;
  // Still within the TTL of the prefix set's read: a stale "yes" is allowed here, derived from the cached set.
  expect(await access.allows(p, 'team:b')).toBe(true);
  expect(await access.allows(p, 'team:a')).toBe(true);

  now = changedAt + TTL_MS + 1;
  expect(await access.allows(p, 'team:a')).toBe(false);
  expect(await access.allows(p, 'team:b')).toBe(false); // on the old code: cached with a fresh time, true for another TTL
  expect(await access.allows(p, 'ws_exact')).toBe(true);
});

it('a granted prefix shows within one TTL even for a workspace refused from the cached prefix set late in its life', async () => {
  const { key_id } = await db.admin.createKey({ partnerId: 'acme', workspaces: ['ws_exact2'] });
  let now = 9_000_000;
  const access = new GrantAccess(db.store.grants, { ttlSeconds: TTL_MS / 1000, clock: () => now });
  const p = allowedPrincipal(key_id);

  expect(await access.allows(p, 'ws_exact2')).toBe(true); // loads the (empty) prefix set at t0
  now += 1_000;
  await db.admin.grant(key_id, ['crew:*']);
  const changedAt = now;
  now += TTL_MS - 2_000;
  expect(await access.allows(p, 'crew:a')).toBe(false); // the exact read now, the prefix set from t0

  now = changedAt + TTL_MS + 1;
  expect(await access.allows(p, 'crew:a')).toBe(true);
});
