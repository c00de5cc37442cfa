// Per-key rate limits across every instance (docs/partners.md, Scopes and rate limits). Each instance leases tokens
// from a shared counter per (key, window) with one conditional write, one lease at a time, and spends them locally: a
// limit of 100 or more costs a write per block of tokens, not per request. The counter never hands out more than 110%
// of the limit in a window, which bounds what all instances together accept. Blocks are sized to what this instance
// used lately and at most 15% of the limit, so tokens stranded in other instances cannot push a key sending 80% of its
// limit over the counter's ceiling while at most 3 instances hold unspent blocks (80% + 2 × 15% ≤ 110%; see
// docs/operations.md). Limits under 100 are counted exactly: one conditional write per request, ceiling = the limit.
// Leases are kept per (key, window length, limit): tokens leased under a limit are spent only under that limit.
// "Key" is the key's counter id (Principal.rate_counter): a rotated key counts on the old key's counters, so the two
// share one allowance during the grace period, each request held to the limit of the key that sent it.
import type { Principal } from '../domain/principal';
import { LruMap } from '../domain/lru';
import type { RateCounterStore } from '../domain/ports';
import { receiptTime } from '../domain/timestamps';
import {
  LEASE_MIN_LIMIT,
  type RateLimit,
  leaseSize,
  rateLimitHeaders,
  secondsUntilReset,
  windowAt,
  windowCeiling,
} from '../domain/rate-limit';

export type RateOutcome =
  | { allowed: true; headers: Record<string, string> }
  | { allowed: false; headers: Record<string, string>; retryAfterSeconds: number; reason: 'window_full' }
  /** More than the whole limit: no wait makes it fit, so no Retry-After, and RateLimit says what really remains. */
  | { allowed: false; headers: Record<string, string>; reason: 'larger_than_limit'; needs: number; remaining: number };

interface KeyState {
  windowIndex: number;
  /** Leased here and not yet spent. */
  tokens: number;
  /** Spent here in this window, and in the window before. */
  used: number;
  usedBefore: number;
  /** The shared counter as last seen (includes every instance's leases). */
  counter: number;
  /** The lease in flight for this window, if any: at most one at a time. */
  leasing?: Promise<unknown>;
}

type WindowRef = Parameters<RateCounterStore['lease']>[1];

/** The key id whose counters a request counts on: the lineage's first key for a rotated key, else its own. */
const counterOf = (principal: Principal): string => principal.rate_counter ?? principal.key_id;

export class RateLimiter {
  private readonly states: LruMap<string, KeyState>;
  private readonly clock: () => number;
  /** Counter writes made, for the bench. */
  writes = 0;

  constructor(
    private readonly store: RateCounterStore,
    options: { clock?: () => number; maxKeys?: number } = {},
  ) {
    this.clock = options.clock ?? Date.now;
    this.states = new LruMap(options.maxKeys ?? 10_000);
  }

  /**
   * The limit is part of the state's identity (docs/partners.md, Scopes and rate limits: a changed limit takes effect
   * within AUTH_CACHE_TTL_SECONDS): tokens leased under an old, higher limit would otherwise keep being spent after the
   * limit is lowered. Under a new limit the next request leases from the shared counter, whose ceiling is the new
   * limit's, and what the counter already holds this window counts against it.
   */
  private stateId(counterId: string, rate: RateLimit): string {
    return `${counterId}\n${rate.window_seconds}\n${rate.limit}`;
  }

  private state(counterId: string, rate: RateLimit, windowIndex: number): KeyState {
    const id = this.stateId(counterId, rate);
    let s = this.states.get(id);
    if (s && s.windowIndex > windowIndex) {
      // A request of a window that has ended here (it straggled across the boundary): a state of its own, kept
      // nowhere, so it leases only what it needs and leaves the current window's tokens alone.
      return { windowIndex, tokens: 0, used: 0, usedBefore: 0, counter: 0 };
    }
    if (!s) {
      s = { windowIndex, tokens: 0, used: 0, usedBefore: 0, counter: 0 };
      this.states.set(id, s);
    } else if (s.windowIndex !== windowIndex) {
      // A new window: unspent tokens of the old one are gone, what was used there sizes the next lease.
      s.usedBefore = s.windowIndex === windowIndex - 1 ? s.used : 0;
      Object.assign(s, { windowIndex, tokens: 0, used: 0, counter: 0, leasing: undefined });
    }
    return s;
  }

  /** What remains of the limit in the window of `nowMs`, as far as this instance knows. */
  private remaining(rate: RateLimit, s: KeyState | undefined, nowMs: number): number {
    const window = windowAt(nowMs, rate.window_seconds);
    // What all instances have spent: the counter minus our own unspent tokens.
    const spent = s && s.windowIndex === window.index ? Math.max(s.counter - s.tokens, s.used) : 0;
    return Math.max(0, rate.limit - spent);
  }

  private headersFor(rate: RateLimit, s: KeyState | undefined, nowMs: number): Record<string, string> {
    const window = windowAt(nowMs, rate.window_seconds);
    return rateLimitHeaders(rate, this.remaining(rate, s, nowMs), secondsUntilReset(window, nowMs));
  }

  /** The headers for a response that spent nothing (e.g. a batch refused before its size was known). */
  headers(principal: Principal, nowMs: number = this.clock()): Record<string, string> {
    const rate = principal.rate_limit;
    if (!rate) return {};
    return this.headersFor(rate, this.states.peek(this.stateId(counterOf(principal), rate)), nowMs);
  }

  /** The time a request counts at: when the service received it (receiptTime), on this limiter's clock. */
  countingTime(receivedMs: unknown): number {
    return receiptTime(receivedMs, this.clock());
  }

  /** Spends `n` requests of the key's limit in the window of `nowMs`; all or nothing. Unlimited keys cost nothing. */
  async consume(principal: Principal, n = 1, nowMs: number = this.clock()): Promise<RateOutcome> {
    const rate = principal.rate_limit;
    if (!rate) return { allowed: true, headers: {} };
    const window = windowAt(nowMs, rate.window_seconds);
    // docs/partners.md, "Scopes and rate limits": `r` is what remains, 0 for a single request; a batch the window
    // cannot hold learns from the refusing count how many items it could.
    const refuse = (s: KeyState): RateOutcome => ({
      allowed: false,
      reason: 'window_full',
      retryAfterSeconds: secondsUntilReset(window, nowMs),
      headers: this.headersFor(rate, s, nowMs),
    });
    // docs/partners.md, "Scopes and rate limits": a request larger than the whole limit spends nothing and leaves the
    // window as it was, so its headers are those of a request that spent nothing (r is what remains, not 0).
    if (n > rate.limit) {
      const s = this.states.peek(this.stateId(counterOf(principal), rate));
      const remaining = this.remaining(rate, s, nowMs);
      return {
        allowed: false,
        reason: 'larger_than_limit',
        needs: n,
        remaining,
        headers: this.headersFor(rate, s, nowMs),
      };
    }

    const exact = rate.limit < LEASE_MIN_LIMIT;
    const counterId = counterOf(principal);
    let s = this.state(counterId, rate, window.index);
    // Requests that run out while this instance leases a block wait for that block rather than lease one each: blocks
    // leased side by side would strand more than one block here, which the ceiling does not allow for.
    while (s.tokens < n && s.leasing) {
      await s.leasing;
      s = this.state(counterId, rate, window.index);
    }
    if (s.tokens < n) {
      const need = n - s.tokens;
      const ceiling = exact ? rate.limit : windowCeiling(rate.limit);
      // The counter never drops within a window: once it is seen full, a lease is refused without another write (a
      // refused conditional write is billed, and a flood of refusals would all hit one item). A request that only
      // might not fit leases, so its refusal carries the counter's fresh count.
      if (s.counter >= ceiling) return refuse(s);
      const size = leaseSize(rate.limit, need, Math.max(s.usedBefore, s.used));
      const windowRef = { seconds: rate.window_seconds, index: window.index, endMs: window.endMs };
      const leasing = this.lease(counterId, windowRef, ceiling, size, need);
      // Exact counting leases only what each request needs: nothing to strand, no need to wait.
      if (!exact) s.leasing = leasing;
      let leased: { tokens: number; counter?: number };
      try {
        leased = await leasing;
      } finally {
        if (s.leasing === leasing) s.leasing = undefined;
      }
      // The window may have ended here meanwhile: then this request spends its tokens in a state of its own.
      s = this.state(counterId, rate, window.index);
      if (leased.counter !== undefined) s.counter = Math.max(s.counter, leased.counter);
      if (leased.tokens === 0) return refuse(s);
      s.tokens += leased.tokens;
    }
    s.tokens -= n;
    s.used += n;
    return { allowed: true, headers: this.headersFor(rate, s, nowMs) };
  }

  /**
   * Leases `size` tokens from the shared counter, or only `need` near the ceiling; 0 tokens when full. `counter`: the
   * count as the last write saw it, when known.
   */
  private async lease(
    counterId: string,
    window: WindowRef,
    ceiling: number,
    size: number,
    need: number,
  ): Promise<{ tokens: number; counter?: number }> {
    this.writes++;
    const first = await this.store.lease(counterId, window, size, ceiling);
    if (first.granted) return { tokens: size, counter: first.counter };
    if (size === need || (first.counter !== undefined && first.counter + need > ceiling))
      return { tokens: 0, counter: first.counter };
    // Near the ceiling: take only what this request needs.
    this.writes++;
    const second = await this.store.lease(counterId, window, need, ceiling);
    return { tokens: second.granted ? need : 0, counter: second.counter ?? first.counter };
  }
}
