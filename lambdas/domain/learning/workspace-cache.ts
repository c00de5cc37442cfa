// Per-container cache of each workspace's policy and learned model, like the key cache: a workspace seen within
// WORKSPACE_CACHE_TTL_SECONDS costs no read. Bounded LRU: at most MAX_WORKSPACES entries and MAX_CACHED_BYTES in all,
// each workspace weighed by an estimate of the bytes it holds (weightOf), calibrated by measurement on Node 24: its
// learned counts (Maps in the heap), its prediction index (typed arrays outside the heap, in the container's memory
// all the same), its labels and its policy, parsed and compiled. banking77's 77 categories taught 8,003 corrections
// hold about 57,000 counts (about 3.5 MB by this estimate), so a container's memory stays bounded whatever its
// workspaces learned or set. A change this container makes to a cached model in place (its own import or feedback)
// weighs the entry again (`update`). Concurrent misses for one workspace share one load.
import { LruMap } from '../lru';
import type { WorkspaceState } from '../ports';
import { type CompiledPolicy, compilePolicy } from '../policy';
import { LEARNED_FIELDS, currentIndex } from './model';
import { PostingTable } from './posting-table';
import { ModelIndex, modelIndex } from './prediction-index';
import { type SketchKey, sketchKeyOf } from './sketch';

export const MAX_WORKSPACES = 1_000;
/** What the cached workspaces weigh at most in all (weightOf): a third of the Lambdas' 320 MB old space. */
export const MAX_CACHED_BYTES = 100_000_000;

/**
 * The estimate's parts (bytes). Measured with `--expose-gc` on Node 24 (heap after a full collection, before and
 * after holding 40 workspaces of 37,000 counts each): a count in its label's Map 44.8 to 45.8 bytes, whether loaded
 * or counted in place; a policy parsed and compiled 7.3 (sender lists) to 7.8 (keywords) bytes a character of its
 * JSON (a maximal policy of 63,016 characters: 474 KB); an empty workspace, cached with its index's 12 empty tables,
 * 13.6 KB. The index's tables count their own bytes once built, else PostingTable.bytesFor's (what a load builds).
 */
export const BYTES_PER_COUNT = 48;
export const BYTES_PER_LABEL = 1_024;
export const BYTES_PER_POLICY_CHAR = 8;
export const BYTES_PER_WORKSPACE = 16_384;

export interface CachedWorkspace {
  state: WorkspaceState;
  policy: CompiledPolicy;
  key: SketchKey;
}

interface Entry {
  value: CachedWorkspace;
  loadedAtMs: number;
  weight: number;
  /** policyWeightOf its policy: the part of `weight` a change to the model in place leaves as it is. */
  policyWeight: number;
}

/** What a cached workspace weighs besides its learned model: the workspace itself and its policy. */
const policyWeightOf = (state: WorkspaceState): number =>
  BYTES_PER_WORKSPACE + BYTES_PER_POLICY_CHAR * JSON.stringify(state.policy).length;

/**
 * What a cached workspace weighs: an estimate of the bytes it holds, from the sizes of its counts and its policy, so
 * weighing costs no walk over the counts (its index need not be built: the next prediction builds it).
 */
export const weightOf = (state: WorkspaceState): number => policyWeightOf(state) + modelWeightOf(state);

/** What its learned model weighs: its counts, labels and index tables. */
function modelWeightOf(state: WorkspaceState): number {
  let bytes = 0;
  const current = currentIndex(state.model);
  const index = current instanceof ModelIndex ? current : undefined;
  for (const field of LEARNED_FIELDS) {
    let text = 0;
    let senders = 0;
    let domains = 0;
    for (const l of state.model.labels) {
      if (l.field !== field) continue;
      text += l.text.size;
      senders += l.senders.size;
      domains += l.domains.size;
      bytes += BYTES_PER_LABEL;
    }
    bytes += BYTES_PER_COUNT * (text + senders + domains);
    // The index's tables as they are when built (grown in place by imports and feedback, they hold more than a load
    // would build), else as a load builds them.
    const built = index?.fields[field];
    bytes += built
      ? built.text.bytes + built.senders.bytes + built.domains.bytes
      : PostingTable.bytesFor(text) + PostingTable.bytesFor(senders) + PostingTable.bytesFor(domains);
  }
  return bytes;
}

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
  private readonly entries: LruMap<string, Entry>;
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
    /** The bound on what the cached workspaces weigh in all (tests make it smaller). */
    maxBytes = MAX_CACHED_BYTES,
  ) {
    this.entries = new LruMap<string, Entry>(MAX_WORKSPACES, {
      maxBytes,
      sizeOf: (_id, entry) => Math.min(entry.weight, maxBytes),
    });
  }

  get size(): number {
    return this.entries.size;
  }

  /** What the cached workspaces weigh in all, as the bound counts them (weightOf). */
  get weight(): number {
    return this.entries.bytes;
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
        if (this.ttlMs > 0) {
          const policyWeight = policyWeightOf(state);
          this.entries.set(workspaceId, {
            value,
            loadedAtMs,
            weight: policyWeight + modelWeightOf(state),
            policyWeight,
          });
        }
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
   * Changes a cached workspace in place (this container's own import or feedback, counted into its model at once)
   * and weighs it again, so the bound holds for what it holds now; the oldest are let go if it is over. Answers what
   * the change answers, or undefined when the workspace is not cached.
   */
  update<T>(workspaceId: string, change: (cached: CachedWorkspace) => T): T | undefined {
    const entry = this.entries.peek(workspaceId);
    if (!entry) return undefined;
    const out = change(entry.value);
    // The policy is as it was: only the model is weighed again (the policy's JSON is not serialized each time).
    this.entries.set(workspaceId, { ...entry, weight: entry.policyWeight + modelWeightOf(entry.value.state) });
    return out;
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
