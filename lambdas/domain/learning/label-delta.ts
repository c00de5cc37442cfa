// What teaching many sketches at once adds to each label's counts: one delta per (field, label), summed over every
// example that names it. An import of 100 examples then costs one update per label item it touches, not one per
// example (contract section 13). Pure: the store turns a delta into ADD updates, the cache into counts.
import type { FeedbackFields } from '../ports';
import { type LabelChange, type LabelCounts, type LearnedField, LEARNED_FIELDS } from './model';
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

const add = (counts: Map<string, number>, name: string, by = 1) => {
  const next = (counts.get(name) ?? 0) + by;
  if (next === 0) counts.delete(name);
  else counts.set(name, next);
};

/** Adds one journal change (a sketch counted into or out of a label) to per-label deltas keyed `<field>:<label>`. */
export function addChangeDelta(deltas: Map<string, LabelDelta>, change: LabelChange, sketch: Sketch): void {
  const id = `${change.field}:${change.label}`;
  let delta = deltas.get(id);
  if (!delta) {
    delta = { field: change.field, label: change.label, docs: 0, total: 0, counts: new Map() };
    deltas.set(id, delta);
  }
  delta.docs += change.sign;
  delta.total += change.sign * sketch.t.length;
  for (const b of sketch.t) add(delta.counts, `t${b.toString(36)}`, change.sign);
  if (sketch.s !== undefined) add(delta.counts, `s${sketch.s.toString(36)}`, change.sign);
  if (sketch.d !== undefined) add(delta.counts, `d${sketch.d.toString(36)}`, change.sign);
}

/**
 * What a window of journal entries adds to each label, signed (a corrected decision moves out of one label and into
 * another), deltas that sum to nothing left out; in a fixed order, so every fold of the window writes the same parts.
 */
export function journalDeltas(entries: readonly { sketch?: Sketch; changes: readonly LabelChange[] }[]): LabelDelta[] {
  const byId = new Map<string, LabelDelta>();
  for (const e of entries) if (e.sketch) for (const c of e.changes) addChangeDelta(byId, c, e.sketch);
  return sortDeltas([...byId.values()].filter((d) => d.docs !== 0 || d.total !== 0 || d.counts.size > 0));
}

/** Adds a delta to a label's counts (a label item read again gets what the journal added since). */
export function addDeltaToCounts(counts: LabelCounts, delta: LabelDelta): void {
  counts.docs = Math.max(0, counts.docs + delta.docs);
  counts.total = Math.max(0, counts.total + delta.total);
  for (const [name, n] of delta.counts) {
    const kind = name[0];
    const map = kind === 't' ? counts.text : kind === 's' ? counts.senders : counts.domains;
    const bucket = parseInt(name.slice(1), 36);
    const next = (map.get(bucket) ?? 0) + n;
    if (next > 0) map.set(bucket, next);
    else map.delete(bucket);
  }
}

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
  return sortDeltas([...byId.values()]);
}

function sortDeltas(deltas: LabelDelta[]): LabelDelta[] {
  return deltas.sort((a, b) =>
    a.field === b.field
      ? a.label < b.label
        ? -1
        : a.label > b.label
          ? 1
          : 0
      : LEARNED_FIELDS.indexOf(a.field) - LEARNED_FIELDS.indexOf(b.field),
  );
}
