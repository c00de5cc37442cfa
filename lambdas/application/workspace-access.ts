// The one question every route asks before it touches a workspace: may this key use it? The authorizer never sees
// the body, so a workspace named there (or found on a stored decision) is checked here, against the grant store.
// Cost: one consistent read per (key, workspace) pair per AUTH_CACHE_TTL_SECONDS in a container (the exact grant, and
// the first time also the key's prefix set, in the same round trip); a warm pair costs nothing. Both answers are
// cached, so an ungrant, like a grant, takes effect within the TTL: an answer derived from a cached prefix set keeps
// that set's load time, so it never outlives it. An id no grant can match is refused before any read or cache
// insert, and the caches are bounded by bytes as well as entries (worst case about 2 x DEFAULT_CACHE_BYTES).
import type { Principal } from '../domain/principal';
import { holdsApiKey } from '../domain/api-key';
import { grantCovers, isWorkspaceId } from '../domain/grants';
import { LruMap } from '../domain/lru';
import type { GrantStore } from '../domain/ports';

export interface WorkspaceAccess {
  allows(principal: Principal, workspaceId: string): Promise<boolean>;
}

/** Bytes each of the two caches may hold (estimated): 8 MiB, about 40,000 pairs of the longest ids. */
const DEFAULT_CACHE_BYTES = 8 * 1024 * 1024;
/** Estimated bytes of a cache entry besides its strings (Map slot, the entry objects). */
const ENTRY_OVERHEAD_BYTES = 96;
/** Estimated bytes of a string: two per character, as V8 may store it. */
const stringBytes = (s: string) => 2 * s.length + 16;

interface GrantAccessOptions {
  ttlSeconds: number;
  /** (key, workspace) answers kept; the least recently used go first. */
  maxPairs?: number;
  /** Keys whose prefix sets are kept. */
  maxKeys?: number;
  /** Estimated bytes each cache (pairs, prefix sets) may hold; the least recently used go first. */
  maxBytes?: number;
  clock?: () => number;
}

interface Cached<T> {
  value: T;
  /** When the oldest read this answer rests on was made. */
  loadedAtMs: number;
}

export class GrantAccess implements WorkspaceAccess {
  private readonly pairs: LruMap<string, Cached<boolean>>;
  private readonly prefixes: LruMap<string, Cached<string[]>>;
  private readonly ttlMs: number;
  private readonly clock: () => number;

  constructor(
    private readonly grants: Pick<GrantStore, 'checkGrant'>,
    options: GrantAccessOptions,
  ) {
    this.ttlMs = options.ttlSeconds * 1000;
    const maxBytes = options.maxBytes ?? DEFAULT_CACHE_BYTES;
    this.pairs = new LruMap(options.maxPairs ?? 50_000, {
      maxBytes,
      sizeOf: (key) => stringBytes(key) + ENTRY_OVERHEAD_BYTES,
    });
    this.prefixes = new LruMap(options.maxKeys ?? 10_000, {
      maxBytes,
      sizeOf: (key, set) =>
        stringBytes(key) + ENTRY_OVERHEAD_BYTES + set.value.reduce((sum, p) => sum + stringBytes(p) + 8, 0),
    });
    this.clock = options.clock ?? Date.now;
  }

  /** What the caches hold, for tests and diagnostics. */
  cacheStats(): { pairs: number; prefixSets: number; bytes: number } {
    return { pairs: this.pairs.size, prefixSets: this.prefixes.size, bytes: this.pairs.bytes + this.prefixes.bytes };
  }

  private fresh<T>(entry: Cached<T> | undefined, nowMs: number): entry is Cached<T> {
    return entry !== undefined && this.ttlMs > 0 && nowMs - entry.loadedAtMs < this.ttlMs;
  }

  async allows(principal: Principal, workspaceId: string): Promise<boolean> {
    // docs/operations.md, "Worst-case work per request": no grant can match such an id; refused before any read
    // (DynamoDB would refuse a key over 2 KB with a 500) and never cached (ids under a prefix grant could otherwise be
    // any length). Nor an id holding an API key, which a prefix grant could match: the audit log, the logs and the
    // stored decisions name the workspace, and never hold a key (docs/partners.md, "Security").
    if (!isWorkspaceId(workspaceId) || holdsApiKey(workspaceId)) return false;
    const nowMs = this.clock();
    const pairKey = `${principal.key_id}\n${workspaceId}`;
    const pair = this.pairs.get(pairKey);
    if (this.fresh(pair, nowMs)) return pair.value;

    const known = this.prefixes.get(principal.key_id);
    const knownPrefixes = this.fresh(known, nowMs) ? known : undefined;
    // A prefix already known to cover the workspace needs no read at all; the answer is as old as the prefix set.
    if (knownPrefixes?.value.some((p) => grantCovers(p, workspaceId)))
      return this.remember(pairKey, true, knownPrefixes.loadedAtMs);

    const found = await this.grants.checkGrant(principal.key_id, workspaceId, knownPrefixes?.value);
    if (found.prefixes && this.ttlMs > 0)
      this.prefixes.set(principal.key_id, { value: found.prefixes, loadedAtMs: nowMs });
    if (found.exact) return this.remember(pairKey, true, nowMs);
    if (found.prefixes)
      return this.remember(
        pairKey,
        found.prefixes.some((p) => grantCovers(p, workspaceId)),
        nowMs,
      );
    // No exact grant, and the cached prefix set does not cover it: a refusal as old as that set.
    return this.remember(pairKey, false, knownPrefixes?.loadedAtMs ?? nowMs);
  }

  private remember(pairKey: string, allowed: boolean, loadedAtMs: number): boolean {
    if (this.ttlMs > 0) this.pairs.set(pairKey, { value: allowed, loadedAtMs });
    return allowed;
  }
}
