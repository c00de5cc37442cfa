// The guards that hold an archive decision back (docs/decision-engine.md, "Invariants"; what each changes:
// docs/decision-engine-spam.md, "Archive by an error budget"), named so the eval can measure each:
// bin/eval/invariant-table.ts scores the development sources with one guard switched off at a time and counts the spam
// and the ordinary messages whose action changes. The service never switches a guard off; the switch exists for that
// measurement only, and scoring stays deterministic.
export const ARCHIVE_GUARDS = [
  /** Invariant 1: archive only where no-human mail exists (archivableCategory). */
  'channel',
  /**
   * Invariant 2: a support message is archived from its own cuts (the model file's archive_at: support_message, and
   * short_message for 6-19 known words), not e-mail's.
   */
  'web_form_cut',
  /** Invariant 3: a person asking for something is not archived unless the model is confident. */
  'person_asking',
  /** Invariant 4: a stated serious problem is not archived unless the model is confident of a long text. */
  'serious_problem',
  /** Invariant 5: spam and bulk mail never reach critical. */
  'never_escalated',
  /** The model does not vote with fewer than 6 known words. */
  'min_evidence',
  /** A long text the model reads as ordinary mail (p <= 0.03) is reviewed, whatever its list footer says. */
  'ordinary_mail',
  /** A vote short of the cut is a doubt beside other evidence, never an archive on its own. */
  'short_text_doubt',
] as const;
type ArchiveGuard = (typeof ARCHIVE_GUARDS)[number];

const off = new Set<ArchiveGuard>();

/** Whether `guard` holds (always, outside the eval's measurement). */
export const guardOn = (guard: ArchiveGuard): boolean => off.size === 0 || !off.has(guard);

/** Runs `score` with `guard` switched off (the eval's measurement only), and switches it back on. */
export function withoutGuard<T>(guard: ArchiveGuard, score: () => T): T {
  off.add(guard);
  try {
    return score();
  } finally {
    off.delete(guard);
  }
}
