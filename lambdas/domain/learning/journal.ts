// A workspace's feedback journal, as a container applies it (docs/learning.md, "Corrections at the price of a write").
// Each feedback that moves counts writes one small entry numbered by the workspace head's `seq`: the decision's sketch
// (bucket numbers only) and the labels it moved from and to. A container applies the entries it has not applied yet,
// in `seq` order, to its cached model with the incremental path (applyChanges). An entry below the head's `seq` that
// is not there yet is a feedback still in flight: the entries after it wait for it, and it is given up after
// JOURNAL_GAP_GIVE_UP_MS (the same loss a crash in the middle of a feedback causes).
import { type LabelDelta, addChangeDelta, mergeDeltas } from './label-delta';
import { type LabelChange, type WorkspaceModel, applyChanges, applyDeltas } from './model';
import type { Sketch } from './sketch';

/** How long a container waits for a missing entry below the head's `seq` before it gives the entry up. */
export const JOURNAL_GAP_GIVE_UP_MS = 60_000;

export interface JournalEntry {
  seq: number;
  sketch?: Sketch;
  /** The labels the decision's counts moved out of (-1) and into (+1); empty when nothing moved in this generation. */
  changes: LabelChange[];
  /** An import's entry: what its examples add to each label (summed per label; only additions). */
  deltas?: LabelDelta[];
  /** An import's entry: how many examples it holds (what the head's import weight counts). */
  examples?: number;
}

/** Whether an entry moves any count. */
const moves = (entry: JournalEntry) =>
  (entry.sketch !== undefined && entry.changes.length > 0) || (entry.deltas?.length ?? 0) > 0;

/** Where a container stands in its workspace's journal. */
export interface JournalCursor {
  /** Every entry up to here is applied (or given up). */
  applied: number;
  /** Entries after `applied` already applied (this container's own feedback). */
  extra: Set<number>;
  /** Entries read but waiting behind a missing one. */
  pending: Map<number, JournalEntry>;
  /** When each missing entry was first found missing (ms). */
  missingSince: Map<number, number>;
  /**
   * What the applied entries added to each label (`<field>:<label>`) since the label items were read: a label item
   * read again (after an import) gets them added back.
   */
  overlay: Map<string, LabelDelta>;
}

export function journalCursor(applied: number): JournalCursor {
  return { applied, extra: new Set(), pending: new Map(), missingSince: new Map(), overlay: new Map() };
}

/** The entries a container should read to reach `seq`: after `applied`, neither applied nor already read. */
export function entriesToRead(cursor: JournalCursor, seq: number): number[] {
  const out: number[] = [];
  for (let s = cursor.applied + 1; s <= seq; s++) if (!cursor.extra.has(s) && !cursor.pending.has(s)) out.push(s);
  return out;
}

function applyOne(model: WorkspaceModel, cursor: JournalCursor, entry: JournalEntry): void {
  if (entry.deltas?.length) {
    // An import: the index is rebuilt at the next decision (applyDeltas), as when the container took the import.
    applyDeltas(model, entry.deltas);
    mergeDeltas(cursor.overlay, entry.deltas);
  }
  if (!entry.sketch || entry.changes.length === 0) return;
  applyChanges(model, entry.sketch, entry.changes);
  for (const c of entry.changes) addChangeDelta(cursor.overlay, c, entry.sketch);
}

/**
 * This container's own feedback (journal entry `entry.seq`), applied to its model at once. A container behind the
 * journal may not hold yet the counts a move takes out (the decision's earlier feedback, taken by another container):
 * then only what it adds is applied at once, and what it takes out waits for its place in the journal, so no count
 * is taken from a label before it was added.
 */
export function applyOwn(model: WorkspaceModel, cursor: JournalCursor, entry: JournalEntry): void {
  if (entry.seq <= cursor.applied || cursor.extra.has(entry.seq) || cursor.pending.has(entry.seq)) return;
  const upToDate = cursor.applied === entry.seq - 1;
  const now = upToDate ? entry : { ...entry, changes: entry.changes.filter((c) => c.sign > 0) };
  applyOne(model, cursor, now);
  const later = entry.changes.filter((c) => !now.changes.includes(c));
  if (later.length) cursor.pending.set(entry.seq, { ...entry, changes: later, deltas: undefined });
  else cursor.extra.add(entry.seq);
  advance(model, cursor, cursor.applied, Number.POSITIVE_INFINITY);
}

/**
 * Applies what was read (`read`: entries by seq, found or not) in `seq` order up to `seq`; stops at a missing entry
 * until it has been missing JOURNAL_GAP_GIVE_UP_MS. Answers how many entries changed the model.
 */
export function applyJournal(
  model: WorkspaceModel,
  cursor: JournalCursor,
  seq: number,
  read: Map<number, JournalEntry | undefined>,
  nowMs: number,
): number {
  for (const [s, entry] of read) if (entry && s > cursor.applied) cursor.pending.set(s, entry);
  return advance(model, cursor, seq, nowMs);
}

function advance(model: WorkspaceModel, cursor: JournalCursor, seq: number, nowMs: number): number {
  let applied = 0;
  for (;;) {
    const next = cursor.applied + 1;
    if (cursor.extra.delete(next)) {
      cursor.applied = next;
      continue;
    }
    const entry = cursor.pending.get(next);
    if (entry) {
      cursor.pending.delete(next);
      cursor.missingSince.delete(next);
      applyOne(model, cursor, entry);
      if (moves(entry)) applied++;
      cursor.applied = next;
      continue;
    }
    if (next > seq || !Number.isFinite(nowMs)) break;
    const since = cursor.missingSince.get(next) ?? nowMs;
    cursor.missingSince.set(next, since);
    if (nowMs - since < JOURNAL_GAP_GIVE_UP_MS) break;
    // Given up: a feedback that crashed between the head and its entry.
    cursor.missingSince.delete(next);
    cursor.applied = next;
  }
  return applied;
}

/** A journal entry's changes as stored: `+<field>:<label>` or `-<field>:<label>`. */
export const encodeChanges = (changes: readonly LabelChange[]): string[] =>
  changes.map((c) => `${c.sign > 0 ? '+' : '-'}${c.field}:${c.label}`);

export function decodeChanges(stored: unknown): LabelChange[] {
  if (!Array.isArray(stored)) return [];
  return stored.map((s: string) => {
    const colon = s.indexOf(':');
    return {
      sign: s[0] === '-' ? -1 : 1,
      field: s.slice(1, colon) as LabelChange['field'],
      label: s.slice(colon + 1),
    };
  });
}
