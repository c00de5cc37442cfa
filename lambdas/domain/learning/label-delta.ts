// What teaching many sketches at once adds to each label's counts: one delta per (field, label), summed over every
// example that names it. An import of 100 examples then costs one update per label item it touches, not one per
// example (docs/partners.md, "Importing your history, and forgetting it"). Pure: a fold adds a delta to a label item's
// binary, the cache into counts (model.ts's addDelta); entries.ts stores an import's deltas.
import type { FeedbackFields } from '../ports';
import { type LabelChange, type LabelDelta, LEARNED_FIELDS, countName, learnedChanges } from './model';
import type { Sketch } from './sketch';

const add = (counts: Map<string, number>, name: string, by: number) => {
  const next = (counts.get(name) ?? 0) + by;
  if (next === 0) counts.delete(name);
  else counts.set(name, next);
};

/** A sketch counted into (sign 1) or out of (-1) a label, as a delta. */
function changeDelta({ field, label, sign }: LabelChange, sketch: Sketch): LabelDelta {
  const counts = new Map<string, number>();
  for (const b of sketch.t) add(counts, countName('t', b), sign);
  if (sketch.s !== undefined) add(counts, countName('s', sketch.s), sign);
  if (sketch.d !== undefined) add(counts, countName('d', sketch.d), sign);
  return { field, label, docs: sign, total: sign * sketch.t.length, counts };
}

/**
 * What a window of journal entries adds to each label, signed (a corrected decision moves out of one label and into
 * another), deltas that sum to nothing left out unless `touched` keeps them (a fold marks every label its window
 * touches); in a fixed order (field, then label), so every fold of the window writes the same parts.
 */
export function journalDeltas(
  entries: readonly { sketch?: Sketch; changes: readonly LabelChange[]; deltas?: readonly LabelDelta[] }[],
  { touched = false } = {},
): LabelDelta[] {
  const byId = new Map<string, LabelDelta>();
  for (const { sketch, changes, deltas } of entries) {
    // A feedback's entry: its sketch moved between labels; an import's: its examples already summed per label.
    for (const d of [...(sketch ? changes.map((c) => changeDelta(c, sketch)) : []), ...(deltas ?? [])]) {
      const id = `${d.field}:${d.label}`;
      const into = byId.get(id) ?? byId.set(id, { ...d, docs: 0, total: 0, counts: new Map() }).get(id)!;
      into.docs += d.docs;
      into.total += d.total;
      for (const [name, n] of d.counts) add(into.counts, name, n);
    }
  }
  const order = (d: LabelDelta) => `${LEARNED_FIELDS.indexOf(d.field)}:${d.label}`;
  return [...byId.values()]
    .filter((d) => touched || d.docs !== 0 || d.total !== 0 || d.counts.size > 0)
    .sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
}

/** Sums each example's sketch into the labels it teaches (as feedback would); deltas in a fixed order. */
export const labelDeltas = (examples: readonly { sketch: Sketch; labels: FeedbackFields }[]): LabelDelta[] =>
  journalDeltas(examples.map(({ sketch, labels }) => ({ sketch, changes: learnedChanges({}, labels) })));
