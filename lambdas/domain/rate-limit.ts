// Per-key rate limits (docs/partners.md, Scopes and rate limits): fixed windows aligned to the epoch, the IETF RateLimit headers, and
// how big a block of tokens one instance may lease from the shared counter. Pure: the counter lives behind a port.

export interface RateLimit {
  limit: number;
  window_seconds: number;
}

const WINDOW_UNITS = { s: 1, m: 60, h: 3_600 } as const;
const MAX_RATE_LIMIT = 1_000_000_000;

/** `100/m` → { limit: 100, window_seconds: 60 }; undefined when malformed. */
export function parseRateLimit(text: string): RateLimit | undefined {
  const m = /^(\d{1,10})\/([smh])$/.exec(text.trim());
  if (!m) return undefined;
  const limit = Number(m[1]);
  if (limit < 1 || limit > MAX_RATE_LIMIT) return undefined;
  return { limit, window_seconds: WINDOW_UNITS[m[2] as keyof typeof WINDOW_UNITS] };
}

export function formatRateLimit(rate: RateLimit): string {
  const unit = (Object.keys(WINDOW_UNITS) as (keyof typeof WINDOW_UNITS)[]).find(
    (u) => WINDOW_UNITS[u] === rate.window_seconds,
  );
  return unit ? `${rate.limit}/${unit}` : `${rate.limit}/${rate.window_seconds}s`;
}

interface Window {
  /** Epoch-aligned window number: floor(now / window length). */
  index: number;
  startMs: number;
  endMs: number;
}

export function windowAt(nowMs: number, windowSeconds: number): Window {
  const lengthMs = windowSeconds * 1000;
  const index = Math.floor(nowMs / lengthMs);
  return { index, startMs: index * lengthMs, endMs: (index + 1) * lengthMs };
}

/** Whole seconds until the window resets (at least 1, so a client never retries at once). */
export const secondsUntilReset = (window: Window, nowMs: number): number =>
  Math.max(1, Math.ceil((window.endMs - nowMs) / 1000));

/**
 * What the shared counter may hand out per window across all instances: 110% of the limit (the contract's ceiling on
 * accepted requests). Leases that strand tokens in idle instances eat into the 10% first.
 */
export const windowCeiling = (limit: number): number => Math.floor(limit * 1.1);

/** Limits below this are counted exactly, one conditional write per request. */
export const LEASE_MIN_LIMIT = 100;
/**
 * Largest lease as a share of the limit. An instance leases when it needs a token and spends one at once, so each
 * other instance strands at most 15% - 1 token: with at most 3 instances holding leases, 80% spent + 2 × (15% - 1)
 * stranded + 1 needed stays within the 110% ceiling, and a key under 80% is never refused.
 */
const LEASE_MAX_SHARE = 0.15;
/** Lease half of what this instance used lately: an instance with little traffic strands little. */
const LEASE_DEMAND_SHARE = 0.5;

/**
 * How many tokens an instance leases when it runs out: `need` for small limits (exact counting), otherwise a block
 * sized to this instance's recent use (its previous and current window), at most LEASE_MAX_SHARE of the limit.
 */
export function leaseSize(limit: number, need: number, recentUse: number): number {
  if (limit < LEASE_MIN_LIMIT) return need;
  const cap = Math.max(1, Math.floor(limit * LEASE_MAX_SHARE));
  const wanted = Math.ceil(recentUse * LEASE_DEMAND_SHARE);
  return Math.max(need, Math.min(cap, Math.max(1, wanted)));
}

export function rateLimitHeaders(rate: RateLimit, remaining: number, resetSeconds: number): Record<string, string> {
  return {
    'RateLimit-Policy': `"default";q=${rate.limit};w=${rate.window_seconds}`,
    RateLimit: `"default";r=${Math.max(0, Math.min(rate.limit, remaining))};t=${resetSeconds}`,
  };
}
