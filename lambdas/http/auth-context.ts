// What the authorizer hands to the route Lambdas. HTTP API authorizers cannot shape their own refusal bodies, so
// the authorizer always allows at the gateway and passes its verdict here; `requirePrincipal` enforces it in every
// route Lambda, which then answers in the contract's error shape. The context is small and bounded: no grant list.

import type { AuthVerdict, RefusalOutcome } from '../domain/principal';
import { SCOPES, type Scope } from '../contract/routes';

const REFUSALS: readonly string[] = ['FORBIDDEN', 'ACCOUNT_INACTIVE', 'SERVICE_UNAVAILABLE', 'INTERNAL_ERROR'];
/** A key id (`key_<ULID>`; tests use shorter ones): never a `#`, which separates a counter item's key parts. */
const COUNTER_ID = /^[A-Za-z0-9_]{1,64}$/;

/** Flat string context, as API Gateway passes authorizer context values to the integration. */
export type AuthContext = Record<string, string>;

export function encodeVerdict(verdict: AuthVerdict): AuthContext {
  if (verdict.outcome !== 'allow') return { outcome: verdict.outcome };
  return {
    outcome: 'allow',
    partner_id: verdict.partner_id,
    key_id: verdict.key_id,
    scopes: verdict.scopes.join(','),
    // `<limit>/<window seconds>`, or empty: no per-key limit.
    rate_limit: verdict.rate_limit ? `${verdict.rate_limit.limit}/${verdict.rate_limit.window_seconds}` : '',
    // Only for a key that counts on another key's counters (a rotated key): the lineage's first key id.
    ...(verdict.rate_counter ? { rate_counter: verdict.rate_counter } : {}),
  };
}

/** Fails closed: a missing or unreadable context is treated as no key at all. */
export function decodeVerdict(context: unknown): AuthVerdict {
  const c = (context ?? {}) as Record<string, unknown>;
  if (typeof c.outcome === 'string' && REFUSALS.includes(c.outcome)) return { outcome: c.outcome as RefusalOutcome };
  if (
    c.outcome !== 'allow' ||
    typeof c.partner_id !== 'string' ||
    typeof c.key_id !== 'string' ||
    typeof c.scopes !== 'string'
  ) {
    return { outcome: 'UNAUTHORIZED' };
  }
  const scopes = c.scopes === '' ? [] : c.scopes.split(',');
  if (!scopes.every((s) => (SCOPES as readonly string[]).includes(s))) return { outcome: 'UNAUTHORIZED' };
  let rate_limit: { limit: number; window_seconds: number } | undefined;
  if (typeof c.rate_limit === 'string' && c.rate_limit !== '') {
    const m = /^(\d+)\/(\d+)$/.exec(c.rate_limit);
    if (!m || Number(m[1]) < 1 || Number(m[2]) < 1) return { outcome: 'UNAUTHORIZED' };
    rate_limit = { limit: Number(m[1]), window_seconds: Number(m[2]) };
  }
  let rate_counter: string | undefined;
  if (c.rate_counter !== undefined && c.rate_counter !== '') {
    if (typeof c.rate_counter !== 'string' || !COUNTER_ID.test(c.rate_counter)) return { outcome: 'UNAUTHORIZED' };
    rate_counter = c.rate_counter;
  }
  return {
    outcome: 'allow',
    partner_id: c.partner_id,
    key_id: c.key_id,
    scopes: scopes as Scope[],
    ...(rate_limit ? { rate_limit } : {}),
    ...(rate_limit && rate_counter ? { rate_counter } : {}),
  };
}
