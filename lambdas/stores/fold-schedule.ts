// When the feedback journal is folded (lambdas/stores/journal-fold.ts; docs/learning.md, "Corrections at the price of
// a write"): the window due, from the workspace head as read.
import type { Head } from './workspace-head';

/**
 * Entries a fold sums (workspace bench, whole banking77 pool: feedback taught in a shuffled order costs 1.95x its
 * floor; 2.05x with 512).
 */
export const FOLD_WINDOW = 1_024;
/** A window is folded once this many later entries exist, so its own entries are surely written. */
export const FOLD_LAG = 32;
/**
 * Imported examples (in import entries of up to 100 each) after which the journal is folded up to the head, whatever
 * the number of entries: a first load then reads at most about this many imported examples' counts beside the
 * feedback entries (up to about 1.4 MB: ten import entries of 100 long examples, all four fields labelled, about 135 KB
 * each), and the folds' whole-item writes are spread over as many examples.
 */
export const IMPORT_FOLD_WEIGHT = 1_024;
/**
 * A quiet workspace folds what it has once its oldest unfolded entry is this old, at its next feedback or at a
 * container's next check of its head (analyze): an entry expires with its decision, and at least a day after it was
 * written.
 */
export const FOLD_AGE_MS = 60 * 60 * 1000;
/** A fold in flight this long is taken over (its runner crashed). */
export const FOLD_TAKEOVER_MS = 10_000;
/**
 * A fold that found an entry of its window missing (its feedback between the head and the entry, or crashed) is tried
 * again this long after, then after as long as the gap has lasted (1, 2, 4 ... s), not at every feedback meanwhile:
 * each try reads the window again.
 */
export const FOLD_GAP_RETRY_MS = 1_000;

/**
 * Whether the head (as read) calls for a fold: a window full, entries a while unfolded, or a fold left in flight; not
 * before `gapRetryAt` when a fold found an entry missing.
 */
export function foldDue(
  head: Head,
  nowMs: number,
  options: FoldOptions = { window: FOLD_WINDOW, lag: FOLD_LAG },
): boolean {
  if (head.folding !== undefined) return nowMs - (head.foldingAt ?? 0) >= FOLD_TAKEOVER_MS;
  if (nowMs < gapRetryAt(head)) return false;
  return foldEnd(head, nowMs, options) !== undefined;
}

/** When a fold held up by a missing entry is tried again (0: none is). */
export function gapRetryAt(head: Head): number {
  if (head.gapSeq === undefined || head.gapSeq <= head.folded) return 0;
  const checked = head.gapCheckedAt ?? 0;
  return checked + Math.max(FOLD_GAP_RETRY_MS, checked - (head.gapAt ?? checked));
}

/**
 * The end of the window due (none in flight): a full window FOLD_LAG entries behind the head; or everything up to
 * the head once the imports not folded weigh IMPORT_FOLD_WEIGHT examples (the import that crossed it folds right after
 * its entry is written; an entry still in flight below it makes the fold give its claim back, see `plan`), or once
 * the oldest unfolded entry is FOLD_AGE_MS old.
 */
export function foldEnd(head: Head, nowMs: number, options: FoldOptions): number | undefined {
  if (head.seq - head.folded >= options.window + options.lag) return head.folded + options.window;
  if (head.seq <= head.folded) return undefined;
  if (head.importWeight >= (options.importWeight ?? IMPORT_FOLD_WEIGHT)) return head.seq;
  if (nowMs - (head.unfoldedSince ?? nowMs) >= FOLD_AGE_MS) return head.seq;
  return undefined;
}

/** The window and lag (tests fold small windows). */
export interface FoldOptions {
  window: number;
  lag: number;
  /** A label's delta above this many counts rewrites its item whole (default TERMS_PER_UPDATE). */
  termsPerUpdate?: number;
  /** Imported examples not folded after which the journal is folded up to the head (default IMPORT_FOLD_WEIGHT). */
  importWeight?: number;
}
