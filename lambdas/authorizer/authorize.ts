// The authorizer's use case: from an Authorization header to a verdict. Reads go through bounded in-memory caches
// keyed by key hash, so a warm key costs no database read; changes show within the cache TTL. Known keys live in an
// LRU (a hit refreshes), unknown keys in a separate, smaller one: anyone can mint well-formed keys (the checksum is
// public), and those must never push a key in use out of the cache.
import { bearerToken, hashApiKey, isWellFormedApiKey, keyExpired } from '../domain/api-key';
import { LruMap } from '../domain/lru';
import type { AccessStore, KeyRecord, PartnerRecord } from '../domain/ports';
import type { AuthVerdict } from '../domain/principal';

interface CacheEntry {
  key?: KeyRecord;
  partner?: PartnerRecord;
  loadedAtMs: number;
}

interface KeyAuthorizerOptions {
  ttlSeconds: number;
  /** True for store failures a retry may cure: they become a 503 verdict instead of an error. */
  isUnavailable: (err: unknown) => boolean;
  /** Known keys cached (least recently used go first). */
  maxEntries?: number;
  /** Unknown keys cached, apart from the known ones. */
  maxUnknownEntries?: number;
}

export class KeyAuthorizer {
  private readonly known: LruMap<string, CacheEntry>;
  private readonly unknown: LruMap<string, CacheEntry>;
  private readonly ttlSeconds: number;

  constructor(
    private readonly store: Pick<AccessStore, 'getKeyByHash' | 'getPartner'>,
    private readonly options: KeyAuthorizerOptions,
  ) {
    this.ttlSeconds = options.ttlSeconds;
    this.known = new LruMap(options.maxEntries ?? 10_000);
    this.unknown = new LruMap(options.maxUnknownEntries ?? 10_000);
  }

  /** `unavailable` is told of a database failure a retry may cure, which becomes the verdict SERVICE_UNAVAILABLE. */
  async verify(
    authorization: string | undefined,
    nowMs: number = Date.now(),
    unavailable?: (err: unknown) => void,
  ): Promise<AuthVerdict> {
    const key = bearerToken(authorization);
    // Malformed keys and bad checksums are refused without a database read.
    if (!key || !isWellFormedApiKey(key)) return { outcome: 'UNAUTHORIZED' };
    const keyHash = hashApiKey(key);

    let entry: CacheEntry;
    try {
      entry = await this.load(keyHash, nowMs);
    } catch (err) {
      if (!this.options.isUnavailable(err)) throw err;
      unavailable?.(err);
      return { outcome: 'SERVICE_UNAVAILABLE' };
    }
    return verdictFor(entry, nowMs);
  }

  private fresh(entry: CacheEntry | undefined, nowMs: number): entry is CacheEntry {
    return entry !== undefined && this.ttlSeconds > 0 && nowMs - entry.loadedAtMs < this.ttlSeconds * 1000;
  }

  private async load(keyHash: string, nowMs: number): Promise<CacheEntry> {
    const hit = this.known.get(keyHash) ?? this.unknown.get(keyHash);
    if (this.fresh(hit, nowMs)) return hit;

    const key = await this.store.getKeyByHash(keyHash);
    // A revoked key is refused whatever its partner's status: no second read.
    const partner = key?.status === 'active' ? await this.store.getPartner(key.partner_id) : undefined;
    const entry: CacheEntry = { key, partner, loadedAtMs: nowMs };
    if (this.ttlSeconds > 0) {
      // Unknown keys are cached too (a random key never becomes valid later), but apart from the known ones.
      if (key) {
        this.unknown.delete(keyHash);
        this.known.set(keyHash, entry);
      } else {
        this.known.delete(keyHash);
        this.unknown.set(keyHash, entry);
      }
    }
    return entry;
  }
}

/** Expiry is checked against the request time, so a cached key still expires on the second. */
function verdictFor({ key, partner }: CacheEntry, nowMs: number): AuthVerdict {
  if (!key || key.status !== 'active') return { outcome: 'UNAUTHORIZED' };
  if (keyExpired(key, nowMs)) return { outcome: 'UNAUTHORIZED' };
  if (!partner || partner.status !== 'active') return { outcome: 'ACCOUNT_INACTIVE' };
  return {
    outcome: 'allow',
    partner_id: key.partner_id,
    key_id: key.key_id,
    scopes: key.scopes,
    ...(key.rate_limit ? { rate_limit: key.rate_limit } : {}),
    // Only where it matters: a limited key that counts on another key's counters (a rotation's new key).
    ...(key.rate_limit && key.rate_counter && key.rate_counter !== key.key_id
      ? { rate_counter: key.rate_counter }
      : {}),
  };
}
