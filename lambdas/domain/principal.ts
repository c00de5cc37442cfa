// Who is calling: the verdict the authorizer reaches for a request, and the caller of an allowed one. Routes,
// use cases and the HTTP edge all speak of the caller in these terms.
import type { Scope } from '../contract/routes';
import type { RateLimit } from './rate-limit';

/** Refusals carry the contract's error code as their outcome. */
export type RefusalOutcome =
  'FORBIDDEN' | 'UNAUTHORIZED' | 'ACCOUNT_INACTIVE' | 'SERVICE_UNAVAILABLE' | 'INTERNAL_ERROR';

/** The caller of an allowed request. Small and bounded whatever the key holds: no grant list (grants are checked
 * per workspace, lambdas/application/workspace-access.ts). */
export interface Principal {
  outcome: 'allow';
  partner_id: string;
  key_id: string;
  scopes: Scope[];
  rate_limit?: RateLimit;
  /**
   * The key id whose counters the limit counts on, when not `key_id`'s own: a rotated key shares the old key's
   * (KeyRecord.rate_counter). Only with a `rate_limit`.
   */
  rate_counter?: string;
}

export type AuthVerdict = Principal | { outcome: RefusalOutcome };
