// A workspace's learning entries as a container applies them (docs/learning.md, "Storage layout"). Every change to
// what a workspace learned is one entry keyed by the time its writer sent it and an id derived from what it records
// (a feedback's decision and feedback number, an import's own id): a feedback's counts moved, an import's summed
// counts, a policy change, a reset. A container reads the entries after its last read minus OVERLAP_MS (an entry lands
// within OVERLAP_MS / 2 of its time or not at all) and skips those it has applied already, by key.
import {
  countName,
  type LabelChange,
  type LabelDelta,
  type LearnedField,
  type WorkspaceModel,
  applyChanges,
  applyDeltas,
} from './model';
import { type Sketch, decodeSketch, encodeSketch } from './sketch';
import { ByteReader, COUNT_KINDS, countCode, putCode, putVarint } from './count-codec';

/** How far back a container reads again each check: twice the longest an entry may take to land after its time. */
export const OVERLAP_MS = 10_000;

export interface Entry {
  /** The entry's sort key: unique, and the same however often its write is sent. */
  key: string;
  /** Its time (ms, the writer's clock when it sent the entry). */
  at: number;
  /** The model generation it belongs to (a reset's entry: the new one). */
  generation: number;
  kind: 'feedback' | 'import' | 'policy' | 'reset';
  /** A feedback's decision sketch and the labels its counts moved out of (-1) and into (+1). */
  sketch?: Sketch;
  changes: LabelChange[];
  /** An import's counts, summed per label. */
  deltas?: LabelDelta[];
}

/** Where a container stands in its workspace's entries. */
export interface EntryCursor {
  /** When its last read of the entries was sent (its own clock). */
  readAt: number;
  /** Entries applied with a time after readAt - OVERLAP_MS (the next read returns them again), by key. */
  seen: Map<string, number>;
  /** This container's own feedback whose removals wait until the read that returns it (see applyOwn). */
  ownRemovals: Map<string, LabelChange[]>;
  /** The fold mark when loaded (entries up to it are in the label items) and the entries seen after it. */
  folded: number;
  unfolded: number;
  oldestUnfolded?: number;
  /** A policy entry was seen (marked seen with the others) and the policy not read since: the next check reads it. */
  policyUnread?: boolean;
}

export const entryCursor = (readAt: number, folded: number): EntryCursor => ({
  readAt,
  seen: new Map(),
  ownRemovals: new Map(),
  folded,
  unfolded: 0,
});

/** Whether an entry moves counts. */
const movesCounts = (e: Entry) => (e.sketch !== undefined && e.changes.length > 0) || !!e.deltas?.length;

/** Applies an entry's counts to a cached model (its index kept in step). */
function applyEntry(model: WorkspaceModel, entry: Entry): void {
  if (entry.sketch && entry.changes.length) applyChanges(model, entry.sketch, entry.changes);
  if (entry.deltas?.length) applyDeltas(model, entry.deltas);
}

function note(cursor: EntryCursor, entry: Entry): void {
  cursor.seen.set(entry.key, entry.at);
  if (entry.at > cursor.folded && movesCounts(entry)) {
    cursor.unfolded++;
    cursor.oldestUnfolded = Math.min(cursor.oldestUnfolded ?? entry.at, entry.at);
  }
}

/**
 * This container's own feedback or import, applied at once. What a feedback takes out of a label waits for the read
 * that returns the entry: the decision's earlier feedback may have been given through another container whose entry
 * this one has not read yet, and no count is taken from a label before it was added. Answers whether something waits
 * (the caller makes that read the next request's: WorkspaceCache.checkSoon).
 */
export function applyOwn(model: WorkspaceModel, cursor: EntryCursor, entry: Entry): boolean {
  if (cursor.seen.has(entry.key)) return false;
  const removals = entry.changes.filter((c) => c.sign < 0);
  applyEntry(model, { ...entry, changes: entry.changes.filter((c) => c.sign > 0) });
  if (removals.length) cursor.ownRemovals.set(entry.key, removals);
  note(cursor, entry);
  return removals.length > 0;
}

/**
 * Applies a read's entries (in key order: time order) of the cached generation, skipping those applied already.
 * Answers whether the workspace must be loaded again (a reset, or an entry of a generation it does not know) and
 * whether the policy changed.
 */
export function takeEntries(
  model: WorkspaceModel,
  cursor: EntryCursor,
  generation: number,
  entries: readonly Entry[],
  readAt: number,
): { reload: boolean; policy: boolean; applied: number } {
  let policy = false;
  let applied = 0;
  for (const entry of entries) {
    if (entry.generation > generation) return { reload: true, policy, applied };
    const removals = cursor.ownRemovals.get(entry.key);
    if (removals) {
      cursor.ownRemovals.delete(entry.key);
      applyEntry(model, { ...entry, changes: removals });
      applied++;
    }
    if (cursor.seen.has(entry.key)) continue;
    note(cursor, entry);
    if (entry.kind === 'policy') policy = true;
    if (entry.generation !== generation || !movesCounts(entry)) continue;
    applyEntry(model, entry);
    applied++;
  }
  forgetOld(cursor, readAt);
  return { reload: false, policy, applied };
}

/** A load's entries (applied by the load itself) marked seen, so the next check skips them. */
export function seeAll(cursor: EntryCursor, entries: readonly Entry[], readAt: number): void {
  for (const entry of entries) note(cursor, entry);
  forgetOld(cursor, readAt);
}

/** The next read starts at readAt - OVERLAP_MS: what it cannot return again need not be remembered. */
function forgetOld(cursor: EntryCursor, readAt: number): void {
  cursor.readAt = readAt;
  for (const [key, at] of cursor.seen) if (at <= readAt - OVERLAP_MS) cursor.seen.delete(key);
}

/** A label's id, `<field>:<label>`, back into its field and label. */
export const labelOf = (id: string) => ({
  field: id.slice(0, id.indexOf(':')) as LearnedField,
  label: id.slice(id.indexOf(':') + 1),
});

/** What an entry records, as its item holds it (decoded by entryBody). */
export type EntryBody = Pick<Entry, 'sketch' | 'deltas'> & { changes?: readonly LabelChange[] };

/**
 * An entry's attributes: a feedback's sketch `s` and changes `ch` (`+<field>:<label>` or `-<field>:<label>`); an
 * import's deltas (docs/learning.md, "Importing history and forgetting it") as the labels `dl` (`<field>:<label>`)
 * and one binary `dx` of, per label in that order, docs, total and the number of counts as varints, then each count as
 * 2 bytes (kind in the top 2 bits, bucket below 2^14) and a varint. About 3 bytes a count: a part of 100 short examples
 * stays within a few KB whatever order its labels come in (100 long ones, all four fields labelled, distinct labels:
 * about 135 KB). Counts are positive.
 */
export function entryAttributes({ sketch, changes, deltas }: EntryBody): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (sketch && changes?.length) {
    out.s = encodeSketch(sketch);
    out.ch = changes.map((c) => `${c.sign > 0 ? '+' : '-'}${c.field}:${c.label}`);
  }
  if (!deltas?.length) return out;
  const bytes: number[] = [];
  for (const d of deltas) {
    putVarint(bytes, d.docs);
    putVarint(bytes, d.total);
    putVarint(bytes, d.counts.size);
    for (const [name, n] of d.counts) {
      putCode(bytes, countCode(name));
      putVarint(bytes, n);
    }
  }
  return { ...out, dl: deltas.map((d) => `${d.field}:${d.label}`), dx: Uint8Array.from(bytes) };
}

/** An entry's attributes back into what it records (see entryAttributes). */
export const entryBody = (item: Record<string, unknown>): Pick<Entry, 'sketch' | 'changes' | 'deltas'> => ({
  sketch: item.s instanceof Uint8Array ? decodeSketch(item.s) : undefined,
  changes: decodeChanges(item.ch),
  ...(item.dx instanceof Uint8Array && Array.isArray(item.dl)
    ? { deltas: decodeDeltas(item.dl as string[], item.dx) }
    : {}),
});

/** A feedback entry's changes (version 3's journal entries store them the same way). */
export function decodeChanges(stored: unknown): LabelChange[] {
  if (!Array.isArray(stored)) return [];
  return stored.map((s: string) => ({ sign: s[0] === '-' ? -1 : 1, ...labelOf(s.slice(1)) }));
}

/** An import's deltas (version 3's journal entries store them the same way). */
export function decodeDeltas(labels: readonly string[], bytes: Uint8Array): LabelDelta[] {
  const reader = new ByteReader(bytes);
  return labels.map((id) => {
    const delta: LabelDelta = { ...labelOf(id), docs: reader.varint(), total: reader.varint(), counts: new Map() };
    const size = reader.varint();
    for (let i = 0; i < size; i++) {
      const code = reader.code();
      delta.counts.set(countName(COUNT_KINDS[code >>> 14] as 't' | 's' | 'd', code & 0x3fff), reader.varint());
    }
    return delta;
  });
}
