// The authorizer's use case: from an Authorization header to a verdict. Reads go through a bounded in-memory cache
// keyed by key hash, so a warm key costs no database read; changes show within the cache TTL.
import { bearerToken, hashApiKey, isWellFormedApiKey } from '../domain/api-key';
import type { AccessStore, KeyRecord, PartnerRecord } from '../domain/ports';

/** Refusals carry the contract's error code as their outcome. */
export type RefusalOutcome = 'UNAUTHORIZED' | 'ACCOUNT_INACTIVE' | 'SERVICE_UNAVAILABLE' | 'INTERNAL_ERROR';

export type AuthVerdict =
  | { outcome: 'allow'; partner_id: string; key_id: string; workspaces: string[] }
  | { outcome: RefusalOutcome };

/** The caller of an allowed request. */
export type Principal = Extract<AuthVerdict, { outcome: 'allow' }>;

interface CacheEntry {
  key?: KeyRecord;
  partner?: PartnerRecord;
  loadedAtMs: number;
}

export interface KeyAuthorizerOptions {
  ttlSeconds: number;
  /** True for store failures a retry may cure: they become a 503 verdict instead of an error. */
  isUnavailable: (err: unknown) => boolean;
  maxEntries?: number;
}

export class KeyAuthorizer {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly ttlSeconds: number;
  private readonly maxEntries: number;

  constructor(
    private readonly store: AccessStore,
    private readonly options: KeyAuthorizerOptions,
  ) {
    this.ttlSeconds = options.ttlSeconds;
    this.maxEntries = options.maxEntries ?? 10_000;
  }

  async verify(authorization: string | undefined, nowMs: number = Date.now()): Promise<AuthVerdict> {
    const key = bearerToken(authorization);
    // Malformed keys and bad checksums are refused without a database read.
    if (!key || !isWellFormedApiKey(key)) return { outcome: 'UNAUTHORIZED' };
    const keyHash = hashApiKey(key);

    let entry: CacheEntry;
    try {
      entry = await this.load(keyHash, nowMs);
    } catch (err) {
      if (this.options.isUnavailable(err)) return { outcome: 'SERVICE_UNAVAILABLE' };
      throw err;
    }
    return verdictFor(entry, nowMs);
  }

  private async load(keyHash: string, nowMs: number): Promise<CacheEntry> {
    const hit = this.cache.get(keyHash);
    if (hit && this.ttlSeconds > 0 && nowMs - hit.loadedAtMs < this.ttlSeconds * 1000) return hit;

    const key = await this.store.getKeyByHash(keyHash);
    // A revoked key is refused whatever its partner's status: no second read.
    const partner = key?.status === 'active' ? await this.store.getPartner(key.partner_id) : undefined;
    const entry: CacheEntry = { key, partner, loadedAtMs: nowMs };
    if (this.ttlSeconds > 0) {
      // Unknown keys are cached too: a random key never becomes valid later, and this keeps guessing off the table.
      this.cache.delete(keyHash);
      this.cache.set(keyHash, entry);
      if (this.cache.size > this.maxEntries) this.cache.delete(this.cache.keys().next().value as string);
    }
    return entry;
  }
}

/** Expiry is checked against the request time, so a cached key still expires on the second. */
function verdictFor({ key, partner }: CacheEntry, nowMs: number): AuthVerdict {
  if (!key || key.status !== 'active') return { outcome: 'UNAUTHORIZED' };
  if (key.expires_at && Date.parse(key.expires_at) <= nowMs) return { outcome: 'UNAUTHORIZED' };
  if (!partner || partner.status !== 'active') return { outcome: 'ACCOUNT_INACTIVE' };
  return { outcome: 'allow', partner_id: key.partner_id, key_id: key.key_id, workspaces: key.workspaces };
}
