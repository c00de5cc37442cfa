// Requests and responses of the Signal Analysis Service API. Those docs/openapi.yaml describes are generated from it
// into ./api-types.ts (`npm run sdk:types`; the repository's tests fail while the two differ); what the document has
// no schema for, the query of a list, is written here.
import type { Priority } from './api-types';

export type * from './api-types';

/** Query of `GET /decisions`. */
export interface ListDecisionsParams {
  workspace_id: string;
  /** 1 to 100, default 20. */
  limit?: number;
  /** The last `decision_id` of the previous page. */
  starting_after?: string;
  /** Only these priorities. */
  priority?: Priority | Priority[];
  /** Exclusive bounds on `created_at`: RFC 3339 strings or Dates. */
  created_after?: string | Date;
  created_before?: string | Date;
}

/**
 * The key's rate limit as the service's last answer stated it (its `RateLimit-Policy` and `RateLimit` headers:
 * docs/partners.md, "Scopes and rate limits"). Only a key the operator gave a limit gets them.
 */
export interface RateLimitState {
  /** Requests per window (`q`). */
  limit: number;
  /** The window's length in seconds (`w`). */
  windowSeconds: number;
  /** Requests that remain in this window (`r`): the service's estimate across its instances. */
  remaining: number;
  /** Seconds until the window resets (`t`), counted from `receivedAt`. */
  resetSeconds: number;
  receivedAt: Date;
}
