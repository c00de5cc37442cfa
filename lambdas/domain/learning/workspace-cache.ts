// Per-container cache of each workspace's policy and learned model, like the key cache: a workspace seen within
// WORKSPACE_CACHE_TTL_SECONDS costs no read. Bounded LRU: at most MAX_WORKSPACES entries and MAX_CACHED_COUNTS
// learned entries in all: a workspace weighs its counts plus its index's postings (one per count). banking77's 77
// categories taught 8,003 corrections hold about 57,000 counts (2.5 MB) and as many postings (0.7 MB), so a
// container's memory stays bounded (about 60 MB at the bound) whatever its workspaces learned. Concurrent misses for
// one workspace share one load.
import { LruMap } from '../lru';
import type { WorkspaceState } from '../ports';
import { type CompiledPolicy, compilePolicy } from '../policy';
import { modelIndex } from './prediction-index';
import { type SketchKey, sketchKeyOf } from './sketch';

export const MAX_WORKSPACES = 1_000;
export const MAX_CACHED_COUNTS = 2_000_000;

export interface CachedWorkspace {
  state: WorkspaceState;
  policy: CompiledPolicy;
  key: SketchKey;
}

interface Entry {
  value: CachedWorkspace;
  loadedAtMs: number;
  weight: number;
}

/** What a cached workspace weighs: its learned counts, and its index's postings (one per count). */
export const weightOf = (state: WorkspaceState) =>
  1 +
  state.model.labels.reduce((sum, l) => sum + l.text.size + l.senders.size + l.domains.size, 0) +
  modelIndex(state.model).postings;

/**
 * A loaded workspace as the cache holds it: policy compiled, hash key parsed, model indexed (a model refreshed in place
 * from the journal keeps its index, kept in step by applyChanges).
 */
export function cachedWorkspace(state: WorkspaceState): CachedWorkspace {
  modelIndex(state.model);
  return { state, policy: compilePolicy(state.policy), key: sketchKeyOf(state.sketchKey) };
}

export class WorkspaceCache {
  /** A workspace heavier than the whole bound counts as the bound: it is still kept, alone. */
  private readonly entries = new LruMap<string, Entry>(MAX_WORKSPACES, {
    maxBytes: MAX_CACHED_COUNTS,
    sizeOf: (_id, entry) => Math.min(entry.weight, MAX_CACHED_COUNTS),
  });
  private readonly loading = new Map<string, Promise<CachedWorkspace>>();
  /** Workspaces made due by checkSoon: their next request checks, even one that comes while a check is running. */
  private readonly due = new Set<string>();

  constructor(
    private readonly load: (workspaceId: string) => Promise<WorkspaceState>,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
    /**
     * What changed since a cached state was loaded (undefined: nothing). With it, an entry past its TTL costs one
     * small read when nothing changed, and otherwise a read of only what changed, never a whole-model load.
     */
    private readonly refresh?: (workspaceId: string, cached: WorkspaceState) => Promise<WorkspaceState | undefined>,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  async get(workspaceId: string): Promise<CachedWorkspace> {
    // Most recently used goes last (a stale one too: it is refreshed now).
    const entry = this.entries.get(workspaceId);
    if (entry && !this.due.has(workspaceId) && this.now() - entry.loadedAtMs < this.ttlMs) return entry.value;
    // A check made due while one runs waits for it, then runs its own (two at once would refresh one state twice).
    const pending = this.loading.get(workspaceId);
    if (pending) return this.due.has(workspaceId) ? pending.then(() => this.get(workspaceId)) : pending;
    // This read starts after every change made due so far: it answers for them.
    this.due.delete(workspaceId);
    const loadedAtMs = this.now();
    const refreshed = entry && this.refresh ? this.refresh(workspaceId, entry.value.state) : this.load(workspaceId);
    const promise = refreshed
      .then((state) => {
        if (state === undefined) {
          // Nothing changed: the same entry, fresh again.
          this.entries.set(workspaceId, { ...entry!, loadedAtMs });
          return entry!.value;
        }
        const value = cachedWorkspace(state);
        if (this.ttlMs > 0) this.entries.set(workspaceId, { value, loadedAtMs, weight: weightOf(state) });
        return value;
      })
      .finally(() => this.loading.delete(workspaceId));
    this.loading.set(workspaceId, promise);
    return promise;
  }

  /** The cached entry, fresh or not, without loading: for changes this container made itself. */
  peek(workspaceId: string): CachedWorkspace | undefined {
    return this.entries.peek(workspaceId)?.value;
  }

  /**
   * Makes a cached workspace due for its check: the next request reads what changed (a small read) instead of waiting
   * out the TTL. For a change this container applied only in part (applyOwn defers a relabel's removals to that read).
   */
  checkSoon(workspaceId: string): void {
    if (this.entries.peek(workspaceId)) this.due.add(workspaceId);
  }

  /** Forgets a workspace (after this container changed its policy or model), so the next request reads it fresh. */
  invalidate(workspaceId: string): void {
    this.due.delete(workspaceId);
    this.entries.delete(workspaceId);
  }
}
