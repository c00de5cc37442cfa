// The authorizer's use case against DynamoDB Local: verdicts, the in-memory cache, and an unreachable database.
import { freePort } from '../../lib/local/dynamodb-local';
import { generateApiKey } from '../../lambdas/domain/api-key';
import { KeyAuthorizer } from '../../lambdas/authorizer/authorize';
import { isDatabaseUnavailable } from '../../lambdas/stores/database-faults';
import type { AccessStore } from '../../lambdas/domain/ports';
import { DynamoAccessStore } from '../../lambdas/stores/access-store';
import { createDocumentClient } from '../../lambdas/stores/dynamodb-client';
import { useAccessTables } from '../support/access';

/** An authorizer on the real store, counting the store's reads. */
function countingAuthorizer(options: Omit<ConstructorParameters<typeof KeyAuthorizer>[1], 'isUnavailable'>) {
  const store: AccessStore = db.store;
  const counter = { reads: 0 };
  const wrapped: AccessStore = Object.create(store);
  wrapped.getKeyByHash = (h) => (counter.reads++, store.getKeyByHash(h));
  wrapped.getPartner = (p) => (counter.reads++, store.getPartner(p));
  return { authorizer: new KeyAuthorizer(wrapped, { ...options, isUnavailable: isDatabaseUnavailable }), counter };
}

const db = useAccessTables('authorizer', { acme: 'Acme' });

it('allows an active key of an active partner, with its scopes and limit and no grant list', async () => {
  const issued = await db.admin.createKey({ partnerId: 'acme', workspaces: ['ws_a', 'ws_b'] });
  const verdict = await new KeyAuthorizer(db.store, { ttlSeconds: 0, isUnavailable: isDatabaseUnavailable }).verify(
    `Bearer ${issued.key}`,
  );
  expect(verdict).toEqual({
    outcome: 'allow',
    partner_id: 'acme',
    key_id: issued.key_id,
    scopes: ['analyze', 'read', 'feedback', 'policy'],
  });
  const limited = await db.admin.createKey({
    partnerId: 'acme',
    workspaces: ['ws_a'],
    scopes: ['read'],
    rateLimit: '600/m',
  });
  expect(
    await new KeyAuthorizer(db.store, { ttlSeconds: 0, isUnavailable: isDatabaseUnavailable }).verify(
      `Bearer ${limited.key}`,
    ),
  ).toEqual({
    outcome: 'allow',
    partner_id: 'acme',
    key_id: limited.key_id,
    scopes: ['read'],
    rate_limit: { limit: 600, window_seconds: 60 },
  });
});

it('names the first key of a rotation lineage as a rotated, limited key’s counter', async () => {
  const verify = (key: string) =>
    new KeyAuthorizer(db.store, { ttlSeconds: 0, isUnavailable: isDatabaseUnavailable }).verify(`Bearer ${key}`);
  const first = await db.admin.createKey({ partnerId: 'acme', workspaces: ['ws_a'], rateLimit: '20/m' });
  const second = await db.admin.rotateKey(first.key_id);
  const third = await db.admin.rotateKey(second.key_id);
  expect(await verify(first.key)).not.toHaveProperty('rate_counter');
  expect(await verify(second.key)).toMatchObject({ key_id: second.key_id, rate_counter: first.key_id });
  expect(await verify(third.key)).toMatchObject({ key_id: third.key_id, rate_counter: first.key_id });
  // Stored on every rotated key, limited or not; only a limited one's verdict carries it.
  await db.admin.setRateLimit(third.key_id, null);
  expect(await verify(third.key)).not.toHaveProperty('rate_counter');
  expect((await db.store.findKeyById(third.key_id))?.rate_counter).toBe(first.key_id);
});

it('refuses malformed keys and bad checksums without a database read', async () => {
  const { authorizer, counter } = countingAuthorizer({ ttlSeconds: 30 });
  const good = generateApiKey();
  for (const header of [
    undefined,
    '',
    'Bearer',
    'Token x',
    'Bearer sas_live_abc',
    `Bearer ${good.slice(0, -1)}${good.endsWith('A') ? 'B' : 'A'}`,
  ]) {
    expect(await authorizer.verify(header)).toEqual({ outcome: 'UNAUTHORIZED' });
  }
  expect(counter.reads).toBe(0);
});

it('serves a warm key from the cache with no read, and sees changes after the TTL', async () => {
  const issued = await db.admin.createKey({ partnerId: 'acme', workspaces: ['ws_a'] });
  const { authorizer, counter } = countingAuthorizer({ ttlSeconds: 30 });
  const t0 = Date.now();
  expect((await authorizer.verify(`Bearer ${issued.key}`, t0)).outcome).toBe('allow');
  expect(counter.reads).toBe(2); // key, then partner
  expect((await authorizer.verify(`Bearer ${issued.key}`, t0 + 1_000)).outcome).toBe('allow');
  expect(counter.reads).toBe(2);

  await db.admin.revokeKey(issued.key_id);
  // Within the TTL the cached verdict stands (documented: changes take effect within AUTH_CACHE_TTL_SECONDS).
  expect((await authorizer.verify(`Bearer ${issued.key}`, t0 + 29_000)).outcome).toBe('allow');
  expect((await authorizer.verify(`Bearer ${issued.key}`, t0 + 30_001)).outcome).toBe('UNAUTHORIZED');
  expect(counter.reads).toBe(3); // a revoked key: no partner read
});

it('expires a cached key on the second, without waiting for the TTL', async () => {
  const expiresAt = new Date(Date.now() + 5_000).toISOString();
  const issued = await db.admin.createKey({ partnerId: 'acme', workspaces: ['ws_a'], expiresAt });
  const authorizer = new KeyAuthorizer(db.store, { ttlSeconds: 300, isUnavailable: isDatabaseUnavailable });
  expect((await authorizer.verify(`Bearer ${issued.key}`, Date.parse(expiresAt) - 1)).outcome).toBe('allow');
  expect((await authorizer.verify(`Bearer ${issued.key}`, Date.parse(expiresAt))).outcome).toBe('UNAUTHORIZED');
});

it('caches unknown keys too, in their own bounded cache', async () => {
  const { authorizer, counter } = countingAuthorizer({ ttlSeconds: 30, maxEntries: 2, maxUnknownEntries: 2 });
  const unknown = generateApiKey();
  await authorizer.verify(`Bearer ${unknown}`);
  await authorizer.verify(`Bearer ${unknown}`);
  expect(counter.reads).toBe(1);
  for (let i = 0; i < 5; i++) await authorizer.verify(`Bearer ${generateApiKey()}`);
  await authorizer.verify(`Bearer ${unknown}`); // evicted by the bound: read again
  expect(counter.reads).toBe(7);
});

it('keeps a key in steady use cached while minted keys flood the unknown cache (real reads)', async () => {
  const issued = await db.admin.createKey({ partnerId: 'acme', workspaces: ['ws_a'] });
  const { authorizer, counter } = countingAuthorizer({ ttlSeconds: 300, maxEntries: 3, maxUnknownEntries: 50 });
  const t0 = Date.now();
  expect((await authorizer.verify(`Bearer ${issued.key}`, t0)).outcome).toBe('allow');
  expect(counter.reads).toBe(2);
  for (let i = 0; i < 500; i++) {
    expect((await authorizer.verify(`Bearer ${generateApiKey()}`, t0 + i)).outcome).toBe('UNAUTHORIZED');
    if (i % 50 === 0) expect((await authorizer.verify(`Bearer ${issued.key}`, t0 + i)).outcome).toBe('allow');
  }
  expect(counter.reads).toBe(2 + 500); // one read per minted key, none for the key in use
});

it('keeps known keys in an LRU: a hit refreshes, so the least recently used one goes', async () => {
  const keys = await Promise.all([1, 2, 3].map(() => db.admin.createKey({ partnerId: 'acme', workspaces: ['ws_a'] })));
  const { authorizer, counter } = countingAuthorizer({ ttlSeconds: 300, maxEntries: 2 });
  const [a, b, c] = keys.map((k) => `Bearer ${k.key}`);
  await authorizer.verify(a);
  await authorizer.verify(b);
  await authorizer.verify(a); // refreshes a
  await authorizer.verify(c); // evicts b, the least recently used
  expect(counter.reads).toBe(6);
  await authorizer.verify(a);
  expect(counter.reads).toBe(6);
  await authorizer.verify(b);
  expect(counter.reads).toBe(8);
});

it('reports an inactive partner as ACCOUNT_INACTIVE', async () => {
  await db.admin.createPartner({ id: 'sleepy', name: 'Sleepy', status: 'pending' });
  const issued = await db.admin.createKey({ partnerId: 'sleepy', workspaces: ['ws_s'] });
  expect(
    await new KeyAuthorizer(db.store, { ttlSeconds: 0, isUnavailable: isDatabaseUnavailable }).verify(
      `Bearer ${issued.key}`,
    ),
  ).toEqual({ outcome: 'ACCOUNT_INACTIVE' });
});

it('answers SERVICE_UNAVAILABLE when the database cannot be reached', async () => {
  const port = await freePort(); // nothing listens there
  const client = createDocumentClient({ endpoint: `http://127.0.0.1:${port}` });
  const authorizer = new KeyAuthorizer(new DynamoAccessStore(client, 'nowhere'), {
    ttlSeconds: 0,
    isUnavailable: isDatabaseUnavailable,
  });
  const causes: unknown[] = [];
  const verdict = await authorizer.verify(`Bearer ${generateApiKey()}`, Date.now(), (err) => causes.push(err));
  expect(verdict).toEqual({ outcome: 'SERVICE_UNAVAILABLE' });
  // What failed is told to the caller, for its log line: the verdict alone would leave it unknown.
  expect(causes).toHaveLength(1);
  expect(isDatabaseUnavailable(causes[0])).toBe(true);
  client.destroy();
});
