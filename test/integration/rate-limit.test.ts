// Per-key rate limits across instances (docs/partners.md, Scopes and rate limits): three service objects (three "Lambda instances",
// each with its own leases and caches) behind their own local servers, sharing one DynamoDB Local and one injected
// clock, so window boundaries are exact. Requests go round-robin over the three, several in flight at once.
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { AdminService } from '../../lib/admin';
import { type RunningServer, startLocalServer } from '../../lib/local/server';
import { ITEM_PREFIX } from '../../lambdas/contract/tables';
import { type Service, createService } from '../../lambdas/service';
import { DynamoAccessStore } from '../../lambdas/stores/access-store';
import { type TestTables, createTestTables } from '../support/dynamodb';
import { testSettings } from '../support/local-api';

jest.setTimeout(120_000);

const INSTANCES = 3;
const MINUTE = 60_000;
let tables: TestTables;
let admin: AdminService;
// Windows in the future: counters expire (DynamoDB TTL, which DynamoDB Local applies at once) an hour after their
// window by the wall clock, so a clock in the past would see its counters deleted mid-test.
const HOUR = 3_600_000;
const FUTURE = Math.ceil(Date.now() / HOUR) * HOUR + 24 * HOUR;
let now = FUTURE;
const clock = () => now;
const instances: { service: Service; server: RunningServer; writes: number }[] = [];

beforeAll(async () => {
  tables = await createTestTables('ratelimit');
  admin = new AdminService(new DynamoAccessStore(tables.client, tables.names.access, tables.names.decisions));
  await admin.createPartner({ id: 'acme', name: 'Acme' });
  for (let i = 0; i < INSTANCES; i++) {
    const service = createService(testSettings(tables, { authCacheTtlSeconds: 300 }), { clock });
    const instance = { service, server: await startLocalServer({ port: 0, handlers: service }), writes: 0 };
    // Count the rate limit counter's writes this instance makes.
    service.dependencies.client.middlewareStack.add(
      (next, context) => async (args) => {
        const pk = (args.input as { Key?: { pk?: string } }).Key?.pk;
        if (context.commandName === 'UpdateItemCommand' && pk?.startsWith(ITEM_PREFIX.rateWindow)) instance.writes++;
        return next(args);
      },
      { step: 'initialize', name: 'countRateWrites' },
    );
    instances.push(instance);
  }
});
afterAll(async () => {
  for (const { server, service } of instances) {
    await server.close();
    service.close();
  }
  await tables?.drop();
});

/** What the authorizer hands a route for a key of partner acme with this limit (the limiter reads no more). */
const limitedPrincipal = (keyId: string, limit: number, windowSeconds: number) => ({
  outcome: 'allow' as const,
  partner_id: 'acme',
  key_id: keyId,
  scopes: [],
  rate_limit: { limit, window_seconds: windowSeconds },
});

const totalWrites = () => instances.reduce((sum, i) => sum + i.writes, 0);

/**
 * Sends `count` requests round-robin over the instances, `parallel` at a time; answers the statuses. With several
 * keys, request i uses key i mod their number.
 */
async function burst(key: string | string[], count: number, parallel = 6): Promise<number[]> {
  const keys = typeof key === 'string' ? [key] : key;
  const statuses: number[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        const i = next++;
        // A malformed decision id: the route answers 404 without a read, after the limit was spent.
        const res = await fetch(`${instances[i % INSTANCES].server.baseUrl}/decisions/dec_malformed`, {
          headers: { authorization: `Bearer ${keys[i % keys.length]}` },
        });
        await res.arrayBuffer();
        statuses[i] = res.status;
      }
    }),
  );
  return statuses;
}
const accepted = (statuses: number[]) => statuses.filter((s) => s === 404).length;

async function counters(keyId: string): Promise<Record<string, number>> {
  const items = (await tables.client.send(new ScanCommand({ TableName: tables.names.decisions }))).Items ?? [];
  return Object.fromEntries(
    items
      .filter((i) => String(i.pk).startsWith(`${ITEM_PREFIX.rateWindow}${keyId}#`))
      .map((i) => [i.pk, Number(i.used)]),
  );
}

it('leases blocks for a limit of 200/m: under 80% never refused, at most 110% accepted, few writes', async () => {
  const { key, key_id } = await admin.createKey({ partnerId: 'acme', workspaces: ['ws_a'], rateLimit: '200/m' });
  now = FUTURE + 5_000;
  // Window 1 and 2: 80% of the limit, round-robin over three instances; nothing refused.
  for (let w = 0; w < 2; w++) {
    const statuses = await burst(key, 160);
    expect(statuses.filter((s) => s !== 404)).toEqual([]);
    now += MINUTE;
  }
  // Window 3, steady state: writes per request.
  const before = totalWrites();
  expect(accepted(await burst(key, 160))).toBe(160);
  const steadyWrites = totalWrites() - before;
  expect(steadyWrites).toBeGreaterThan(0); // the counter is counted at all
  expect(steadyWrites / 160).toBeLessThanOrEqual(0.1);
  now += MINUTE;
  // Window 4: a flood; at most 110% accepted, and the rest refused with 429.
  const flood = await burst(key, 400, 12);
  expect(accepted(flood)).toBeLessThanOrEqual(220);
  expect(accepted(flood)).toBeGreaterThanOrEqual(160);
  expect(flood.filter((s) => s !== 404 && s !== 429)).toEqual([]);
  const stored = await counters(key_id);
  expect(Object.keys(stored)).toHaveLength(4);
  for (const used of Object.values(stored)) expect(used).toBeLessThanOrEqual(220);
});

it('leases one block at a time per instance, however many of its requests run out together', async () => {
  const { key_id } = await admin.createKey({ partnerId: 'acme', workspaces: ['ws_a'], rateLimit: '200/m' });
  const principal = limitedPrincipal(key_id, 200, 60);
  const limiter = instances[0].service.dependencies.rateLimiter;
  const windowA = FUTURE + 2 * HOUR;
  const windowB = windowA + MINUTE;
  const counterOf = (startMs: number) => `${ITEM_PREFIX.rateWindow}${key_id}#60#${startMs / MINUTE}`;
  // A window of steady use here sizes this instance's next blocks at their largest, 15% of the limit (30).
  for (let i = 0; i < 60; i++) expect(await limiter.consume(principal, 1, windowA)).toMatchObject({ allowed: true });
  const usedInA = (await counters(key_id))[counterOf(windowA)];

  // Six requests of the next window find no tokens at once: one block between them, not one each (six blocks
  // stranded here would leave other instances' traffic under 80% of the limit refused).
  const together = await Promise.all(Array.from({ length: 6 }, () => limiter.consume(principal, 1, windowB)));
  expect(together.filter((o) => !o.allowed)).toEqual([]);
  expect((await counters(key_id))[counterOf(windowB)]).toBe(30);

  // A request of window A that straggles in after window B began takes only its own token from A's counter and
  // leaves B's block alone: B's next requests spend it without a new lease.
  expect(await limiter.consume(principal, 1, windowA)).toMatchObject({ allowed: true });
  for (let i = 0; i < 6; i++) expect(await limiter.consume(principal, 1, windowB)).toMatchObject({ allowed: true });
  const stored = await counters(key_id);
  expect(stored[counterOf(windowA)]).toBe(usedInA + 1);
  expect(stored[counterOf(windowB)]).toBe(30);
});

it('tells a batch the window cannot hold how many items it still can, across instances, and that many fit', async () => {
  const { key_id } = await admin.createKey({ partnerId: 'acme', workspaces: ['ws_a'], rateLimit: '200/m' });
  const principal = limitedPrincipal(key_id, 200, 60);
  const [here, there] = [instances[0].service.dependencies.rateLimiter, instances[1].service.dependencies.rateLimiter];
  const at = FUTURE + 3 * HOUR;
  for (let i = 0; i < 60; i++) expect(await there.consume(principal, 1, at)).toMatchObject({ allowed: true });
  for (let i = 0; i < 100; i++) expect(await here.consume(principal, 1, at)).toMatchObject({ allowed: true });
  // 40 remain; the other instance may hold a block of at most 15% (30) it has not spent, which this one cannot see.
  const refused = await here.consume(principal, 80, at);
  expect(refused).toMatchObject({ allowed: false, reason: 'window_full' });
  const r = Number(/;r=(\d+);/.exec(refused.headers.RateLimit)?.[1]);
  expect(r).toBeGreaterThanOrEqual(10);
  expect(r).toBeLessThanOrEqual(40);
  expect(await here.consume(principal, r, at)).toMatchObject({ allowed: true });
});

it('counts a limit under 100 exactly, and a window boundary resets it on the millisecond', async () => {
  const { key } = await admin.createKey({ partnerId: 'acme', workspaces: ['ws_a'], rateLimit: '20/m' });
  const windowStart = FUTURE + HOUR;
  now = windowStart + MINUTE - 2_000;
  const statuses = await burst(key, 30, 10);
  expect(accepted(statuses)).toBe(20);
  expect(statuses.filter((s) => s === 429)).toHaveLength(10);
  now = windowStart + MINUTE - 1; // still the same window
  expect(await burst(key, 3)).toEqual([429, 429, 429]);
  now = windowStart + MINUTE; // the next window starts
  expect(accepted(await burst(key, 16))).toBe(16);
});

it('refuses in a full window without writing the counter again (a refused conditional write is billed)', async () => {
  for (const [limit, windowStart] of [
    ['150/m', FUTURE + 2 * HOUR],
    ['20/m', FUTURE + 3 * HOUR],
  ] as const) {
    const { key } = await admin.createKey({ partnerId: 'acme', workspaces: ['ws_a'], rateLimit: limit });
    now = windowStart + 1_000;
    const flood = await burst(key, 250, 6);
    expect(flood.filter((s) => s === 429).length).toBeGreaterThan(0);
    // Every instance has seen the counter full by now: 90 more refusals cost no write.
    await burst(key, 3 * INSTANCES, 1);
    const before = totalWrites();
    expect(new Set(await burst(key, 90, 6))).toEqual(new Set([429]));
    expect(totalWrites() - before).toBe(0);
  }
});

it('refuses a request that needs more than the whole limit, and an unlimited key writes nothing', async () => {
  const { key } = await admin.createKey({ partnerId: 'acme', workspaces: ['ws_a'] });
  const before = totalWrites();
  expect(accepted(await burst(key, 30))).toBe(30);
  expect(totalWrites()).toBe(before);
  expect(before).toBeGreaterThan(0);

  const limited = await admin.createKey({ partnerId: 'acme', workspaces: ['ws_a'], rateLimit: '5/s' });
  const principal = limitedPrincipal(limited.key_id, 5, 1);
  const outcome = await instances[0].service.dependencies.rateLimiter.consume(principal, 6);
  expect(outcome).toMatchObject({ allowed: false, reason: 'larger_than_limit' });
  expect(await instances[0].service.dependencies.rateLimiter.consume(principal, 5)).toMatchObject({ allowed: true });
});

it('a lowered limit applies to tokens leased under the old one; a raised or removed limit applies at once', async () => {
  // One more instance, without the key cache, so a changed limit reaches its next request.
  const service = createService(testSettings(tables, { authCacheTtlSeconds: 0 }), { clock });
  const server = await startLocalServer({ port: 0, handlers: service });
  try {
    const send = async (key: string, count: number) => {
      const statuses: number[] = [];
      for (let i = 0; i < count; i++) {
        const res = await fetch(`${server.baseUrl}/decisions/dec_malformed`, {
          headers: { authorization: `Bearer ${key}` },
        });
        await res.arrayBuffer();
        statuses.push(res.status);
      }
      return statuses;
    };
    const { key, key_id } = await admin.createKey({ partnerId: 'acme', workspaces: ['ws_a'], rateLimit: '1000/h' });
    // An hour of steady use sizes this instance's blocks at their largest (15% of 1,000): the next hour's first
    // request leases 150 tokens and spends one.
    now = FUTURE + 4 * HOUR;
    expect(accepted(await send(key, 300))).toBe(300);
    now += HOUR;
    expect(await send(key, 1)).toEqual([404]);

    // Lowered to 100/h in the same hour: at most 110 accepted in the window, the 149 unspent tokens of the old limit
    // included, and the rest refused with 429.
    await admin.setRateLimit(key_id, '100/h');
    const lowered = await send(key, 200);
    expect(1 + accepted(lowered)).toBeLessThanOrEqual(110);
    expect(lowered.filter((s) => s !== 404 && s !== 429)).toEqual([]);

    // Raised to 1,000/h: more than the old 100 fit at once; removed: nothing counted.
    await admin.setRateLimit(key_id, '1000/h');
    expect(accepted(await send(key, 200))).toBe(200);
    await admin.setRateLimit(key_id, null);
    expect(accepted(await send(key, 50))).toBe(50);
  } finally {
    await server.close();
    service.close();
  }
});

describe('a rotated key hands its allowance to the new key, it does not double it', () => {
  // Rotated on the service's clock, so the grace period (a day) covers the windows below.
  const rotating = () =>
    new AdminService(new DynamoAccessStore(tables.client, tables.names.access, tables.names.decisions), {
      now: () => new Date(now),
    });

  it('counts the old and the new key on one counter during the grace period (20/m, exact)', async () => {
    const old = await admin.createKey({ partnerId: 'acme', workspaces: ['ws_a'], rateLimit: '20/m' });
    now = FUTURE + 8 * HOUR + 1_000;
    // Half of the window spent before the rotation: the new key gets what is left of it, not a window of its own.
    expect(accepted(await burst(old.key, 10))).toBe(10);
    const rotated = await rotating().rotateKey(old.key_id);
    expect(rotated.rate_limit).toEqual({ limit: 20, window_seconds: 60 });
    const rest = await burst([old.key, rotated.key], 30);
    expect(accepted(rest)).toBe(10);
    expect(rest.filter((s) => s !== 404 && s !== 429)).toEqual([]);

    // The next window: the two keys, alternating, get the limit once between them.
    now += MINUTE;
    expect(accepted(await burst([rotated.key, old.key], 40, 8))).toBe(20);

    // Rotated again within the grace period: one lineage, one counter for all three keys.
    const again = await rotating().rotateKey(rotated.key_id);
    now += MINUTE;
    expect(accepted(await burst([old.key, rotated.key, again.key], 45, 9))).toBe(20);
    // Every request was counted on the first key's counters; the new keys have none of their own.
    expect(Object.keys(await counters(old.key_id))).toHaveLength(3);
    expect(await counters(rotated.key_id)).toEqual({});
    expect(await counters(again.key_id)).toEqual({});
  });

  it('holds a leased limit (200/h) to 110% across both keys and all instances', async () => {
    const old = await admin.createKey({ partnerId: 'acme', workspaces: ['ws_a'], rateLimit: '200/h' });
    const rotated = await rotating().rotateKey(old.key_id);
    now = FUTURE + 10 * HOUR + 1_000;
    const flood = await burst([old.key, rotated.key], 500, 12);
    expect(accepted(flood)).toBeLessThanOrEqual(220);
    expect(accepted(flood)).toBeGreaterThanOrEqual(160);
    expect(flood.filter((s) => s !== 404 && s !== 429)).toEqual([]);
  });

  it('holds each request to the limit of the key that sent it, on the shared counter, after set-rate-limit', async () => {
    // Without the key cache, so a changed limit reaches the next request.
    const service = createService(testSettings(tables, { authCacheTtlSeconds: 0 }), { clock });
    const server = await startLocalServer({ port: 0, handlers: service });
    const send = async (key: string, count: number) => {
      let ok = 0;
      for (let i = 0; i < count; i++) {
        const res = await fetch(`${server.baseUrl}/decisions/dec_malformed`, {
          headers: { authorization: `Bearer ${key}` },
        });
        await res.arrayBuffer();
        if (res.status === 404) ok++;
        else expect(res.status).toBe(429);
      }
      return ok;
    };
    try {
      const old = await admin.createKey({ partnerId: 'acme', workspaces: ['ws_a'], rateLimit: '20/m' });
      const rotated = await rotating().rotateKey(old.key_id);
      now = FUTURE + 12 * HOUR + 1_000;
      // The new key's limit raised: it gets up to 30 in the window, the old key still only up to its 20, and both
      // count on one counter, so together they get the higher limit, not the sum.
      await admin.setRateLimit(rotated.key_id, '30/m');
      expect(await send(rotated.key, 10)).toBe(10);
      expect(await send(old.key, 20)).toBe(10);
      expect(await send(rotated.key, 20)).toBe(10);
      expect(await send(old.key, 1)).toBe(0);

      // The old key's limit lowered (say it leaked): it stops at 5, what it spent still counts for the new key.
      now += MINUTE;
      await admin.setRateLimit(old.key_id, '5/m');
      expect(await send(old.key, 10)).toBe(5);
      expect(await send(rotated.key, 30)).toBe(25);
      expect(Object.keys(await counters(rotated.key_id))).toEqual([]);
    } finally {
      await server.close();
      service.close();
    }
  });
});
