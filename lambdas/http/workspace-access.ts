// The one question every route asks before it touches a workspace: may this key use it? The authorizer never sees
// the body, so a workspace named there (or found on a stored decision) is checked here, against the grant store.
// Cost: one consistent read per (key, workspace) pair per AUTH_CACHE_TTL_SECONDS in a container (the exact grant, and
// the first time also the key's prefix set, in the same round trip); a warm pair costs nothing. Both answers are
// cached, so an ungrant, like a grant, takes effect within the TTL.
import type { Principal } from '../authorizer/authorize';
import { grantCovers } from '../domain/grants';
import { LruMap } from '../domain/lru';
import type { GrantStore } from '../domain/ports';

export interface WorkspaceAccess {
  allows(principal: Principal, workspaceId: string): Promise<boolean>;
}

export interface GrantAccessOptions {
  ttlSeconds: number;
  /** (key, workspace) answers kept; the least recently used go first. */
  maxPairs?: number;
  /** Keys whose prefix sets are kept. */
  maxKeys?: number;
  clock?: () => number;
}

interface Cached<T> {
  value: T;
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
    this.pairs = new LruMap(options.maxPairs ?? 50_000);
    this.prefixes = new LruMap(options.maxKeys ?? 10_000);
    this.clock = options.clock ?? Date.now;
  }

  private fresh<T>(entry: Cached<T> | undefined, nowMs: number): entry is Cached<T> {
    return entry !== undefined && this.ttlMs > 0 && nowMs - entry.loadedAtMs < this.ttlMs;
  }

  async allows(principal: Principal, workspaceId: string): Promise<boolean> {
    const nowMs = this.clock();
    const pairKey = `${principal.key_id}\n${workspaceId}`;
    const pair = this.pairs.get(pairKey);
    if (this.fresh(pair, nowMs)) return pair.value;

    const known = this.prefixes.get(principal.key_id);
    const knownPrefixes = this.fresh(known, nowMs) ? known.value : undefined;
    // A prefix already known to cover the workspace needs no read at all.
    if (knownPrefixes?.some((p) => grantCovers(p, workspaceId))) return this.remember(pairKey, true, nowMs);

    const found = await this.grants.checkGrant(principal.key_id, workspaceId, knownPrefixes);
    const prefixes = found.prefixes ?? knownPrefixes ?? [];
    if (found.prefixes && this.ttlMs > 0) this.prefixes.set(principal.key_id, { value: found.prefixes, loadedAtMs: nowMs });
    return this.remember(pairKey, found.exact || prefixes.some((p) => grantCovers(p, workspaceId)), nowMs);
  }

  private remember(pairKey: string, allowed: boolean, nowMs: number): boolean {
    if (this.ttlMs > 0) this.pairs.set(pairKey, { value: allowed, loadedAtMs: nowMs });
    return allowed;
  }
}
