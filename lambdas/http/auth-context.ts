// What the authorizer hands to the route Lambdas. HTTP API authorizers cannot shape their own refusal bodies, so
// the authorizer always allows at the gateway and passes its verdict here; `requirePrincipal` enforces it in every
// route Lambda, which then answers in the contract's error shape.

import type { AuthVerdict, RefusalOutcome } from '../authorizer/authorize';

const REFUSALS: readonly string[] = ['ACCOUNT_INACTIVE', 'SERVICE_UNAVAILABLE', 'INTERNAL_ERROR'];

/** Flat string context, as API Gateway passes authorizer context values to the integration. */
export type AuthContext = Record<string, string>;

export function encodeVerdict(verdict: AuthVerdict): AuthContext {
  if (verdict.outcome !== 'allow') return { outcome: verdict.outcome };
  return {
    outcome: 'allow',
    partner_id: verdict.partner_id,
    key_id: verdict.key_id,
    workspaces: JSON.stringify(verdict.workspaces),
  };
}

/** Fails closed: a missing or unreadable context is treated as no key at all. */
export function decodeVerdict(context: unknown): AuthVerdict {
  const c = (context ?? {}) as Record<string, unknown>;
  if (typeof c.outcome === 'string' && REFUSALS.includes(c.outcome)) return { outcome: c.outcome as RefusalOutcome };
  if (c.outcome !== 'allow' || typeof c.partner_id !== 'string' || typeof c.key_id !== 'string') {
    return { outcome: 'UNAUTHORIZED' };
  }
  let workspaces: unknown;
  try {
    workspaces = typeof c.workspaces === 'string' ? JSON.parse(c.workspaces) : c.workspaces;
  } catch {
    return { outcome: 'UNAUTHORIZED' };
  }
  if (!Array.isArray(workspaces) || !workspaces.every((w) => typeof w === 'string')) return { outcome: 'UNAUTHORIZED' };
  return { outcome: 'allow', partner_id: c.partner_id, key_id: c.key_id, workspaces };
}
