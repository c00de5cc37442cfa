// What `key list` shows of a key (README, Admin CLI): never its secret or hash.
import { keyExpired } from '../../lambdas/domain/api-key';
import type { Scope } from '../../lambdas/contract/routes';
import type { KeyRecord } from '../../lambdas/domain/ports';
import type { RateLimit } from '../../lambdas/domain/rate-limit';

export interface KeySummary {
  key_id: string;
  prefix: string;
  status: string;
  workspaces: string[];
  expires_at: string | null;
  created_at: string;
  scopes: Scope[];
  rate_limit: RateLimit | null;
  description?: string;
  /** Its `expires_at` has passed: it lets no request in, whatever its status says. */
  expired: boolean;
  /** The key a rotation issued in its place. */
  replaced_by?: string;
}

/** The key as listed at `nowMs`, with its `workspaces` (grants). */
export const keySummary = (k: KeyRecord, workspaces: string[], nowMs: number): KeySummary => ({
  key_id: k.key_id,
  prefix: k.prefix,
  status: k.status,
  workspaces,
  expires_at: k.expires_at ?? null,
  created_at: k.created_at,
  scopes: k.scopes,
  rate_limit: k.rate_limit ?? null,
  ...(k.description ? { description: k.description } : {}),
  expired: keyExpired(k, nowMs),
  ...(k.replaced_by ? { replaced_by: k.replaced_by } : {}),
});
