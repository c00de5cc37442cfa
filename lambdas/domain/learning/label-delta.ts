// What teaching many sketches at once adds to each label's counts: one delta per (field, label), summed over every
// example that names it. An import of 100 examples then costs one update per label item it touches, not one per
// example (contract section 13). Pure: the store turns a delta into ADD updates, the cache into counts.
import type { FeedbackFields } from '../ports';
import { type LearnedField, LEARNED_FIELDS } from './model';
import type { Sketch } from './sketch';

export interface LabelDelta {
  field: LearnedField;
  label: string;
  /** Examples counted with this label. */
  docs: number;
  /** Sum of their text counts. */
  total: number;
  /** Count attribute (`t<bucket>`, `s<bucket>`, `d<bucket>`, bucket in base 36) to what it adds. */
  counts: Map<string, number>;
}

const add = (counts: Map<string, number>, name: string) => counts.set(name, (counts.get(name) ?? 0) + 1);

/** Sums each example's sketch into the labels it teaches; deltas in a fixed order (field, then label). */
export function labelDeltas(examples: readonly { sketch: Sketch; labels: FeedbackFields }[]): LabelDelta[] {
  const byId = new Map<string, LabelDelta>();
  for (const { sketch, labels } of examples) {
    for (const field of LEARNED_FIELDS) {
      const label = labels[field];
      if (label === undefined) continue;
      const id = `${field}:${label}`;
      let delta = byId.get(id);
      if (!delta) {
        delta = { field, label, docs: 0, total: 0, counts: new Map() };
        byId.set(id, delta);
      }
      delta.docs++;
      delta.total += sketch.t.length;
      for (const b of sketch.t) add(delta.counts, `t${b.toString(36)}`);
      if (sketch.s !== undefined) add(delta.counts, `s${sketch.s.toString(36)}`);
      if (sketch.d !== undefined) add(delta.counts, `d${sketch.d.toString(36)}`);
    }
  }
  return [...byId.values()].sort((a, b) =>
    a.field === b.field
      ? a.label < b.label
        ? -1
        : a.label > b.label
          ? 1
          : 0
      : LEARNED_FIELDS.indexOf(a.field) - LEARNED_FIELDS.indexOf(b.field),
  );
}
