// The pure rules of grants (docs/operations.md, Grants) and rate limits (docs/partners.md, Scopes and rate limits).
import { grantCovers, grantHead, grantProblem, grantsOverlap } from '../../lambdas/domain/grants';
import { LruMap } from '../../lambdas/domain/lru';
import {
  leaseSize,
  parseRateLimit,
  rateLimitHeaders,
  secondsUntilReset,
  windowAt,
  windowCeiling,
} from '../../lambdas/domain/rate-limit';

describe('grants', () => {
  it('takes workspace ids and prefixes with at least 3 characters before the *', () => {
    for (const ok of ['ws_a', 'acme:*', 'abc*', 'a.b-c:*']) expect(grantProblem(ok)).toBeUndefined();
    for (const bad of ['', 'ab*', '*', 'acme:**', 'ac me', 'x'.repeat(129), 'a*b'])
      expect(grantProblem(bad)).toBeDefined();
  });

  it('covers and overlaps as a prefix match', () => {
    expect(grantCovers('acme:*', 'acme:eu')).toBe(true);
    expect(grantCovers('acme:*', 'acme:')).toBe(true);
    expect(grantCovers('acme:*', 'acm')).toBe(false);
    expect(grantCovers('ws_a', 'ws_ab')).toBe(false);
    expect(grantsOverlap('acme:*', 'acme:eu:*')).toBe(true);
    expect(grantsOverlap('acme:eu:*', 'acme:*')).toBe(true);
    expect(grantsOverlap('acme:eu:*', 'acme:us:*')).toBe(false);
    expect(grantsOverlap('acme:eu', 'acme:*')).toBe(true);
    expect(grantsOverlap('ws_a', 'ws_b')).toBe(false);
    // A prefix and every workspace it covers share an index head.
    expect(grantHead('acme:*')).toBe(grantHead('acme:eu'));
  });
});

describe('rate limits', () => {
  it('parses n/s, n/m and n/h only', () => {
    expect(parseRateLimit('600/m')).toEqual({ limit: 600, window_seconds: 60 });
    expect(parseRateLimit('5/s')).toEqual({ limit: 5, window_seconds: 1 });
    expect(parseRateLimit('1/h')).toEqual({ limit: 1, window_seconds: 3600 });
    for (const bad of ['0/m', '10/d', 'ten/m', '10', '-1/s', '1.5/s']) expect(parseRateLimit(bad)).toBeUndefined();
  });

  it('aligns windows to the epoch and counts down to the reset', () => {
    const t = Date.parse('2026-11-23T10:15:42.250Z');
    const w = windowAt(t, 60);
    expect(new Date(w.startMs).toISOString()).toBe('2026-11-23T10:15:00.000Z');
    expect(secondsUntilReset(w, t)).toBe(18);
    expect(secondsUntilReset(w, w.endMs - 1)).toBe(1);
    expect(rateLimitHeaders({ limit: 600, window_seconds: 60 }, 412, 18)).toEqual({
      'RateLimit-Policy': '"default";q=600;w=60',
      RateLimit: '"default";r=412;t=18',
    });
  });

  it('counts small limits exactly and sizes leases so 80% plus two stranded leases fit the ceiling', () => {
    expect(leaseSize(99, 1, 1_000)).toBe(1);
    expect(leaseSize(99, 7, 1_000)).toBe(7);
    for (const limit of [100, 101, 250, 1_000, 77_777]) {
      const biggest = leaseSize(limit, 1, limit * 10);
      expect(Math.floor(limit * 0.8) + 2 * (biggest - 1) + 1).toBeLessThanOrEqual(windowCeiling(limit));
      expect(biggest).toBeGreaterThanOrEqual(Math.floor(limit * 0.15));
      expect(leaseSize(limit, 1, 0)).toBe(1); // no recent use: no block to strand
    }
  });
});

describe('LruMap', () => {
  it('refreshes on a hit and drops the least recently used', () => {
    const lru = new LruMap<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    lru.get('a');
    lru.set('c', 3);
    expect([lru.peek('a'), lru.peek('b'), lru.peek('c')]).toEqual([1, undefined, 3]);
  });
});
