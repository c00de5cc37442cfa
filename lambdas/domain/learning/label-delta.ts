// What teaching many sketches at once adds to each label's counts: one delta per (field, label), summed over every
// example that names it. An import of 100 examples then costs one update per label item it touches, not one per
// example (docs/partners.md, "Importing your history, and forgetting it"). Pure: the store turns a delta into ADD
// updates, the cache into counts.
import type { FeedbackFields } from '../ports';
import { type LabelChange, type LabelCounts, type LearnedField, LEARNED_FIELDS, learnedChanges } from './model';
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

/** The delta of one label in per-label deltas keyed `<field>:<label>`, made empty on first use. */
function deltaOf(deltas: Map<string, LabelDelta>, field: LabelDelta['field'], label: string): LabelDelta {
  const id = `${field}:${label}`;
  let delta = deltas.get(id);
  if (!delta) {
    delta = { field, label, docs: 0, total: 0, counts: new Map() };
    deltas.set(id, delta);
  }
  return delta;
}

/** Adds one journal change (a sketch counted into or out of a label) to per-label deltas keyed `<field>:<label>`. */
export function addChangeDelta(deltas: Map<string, LabelDelta>, change: LabelChange, sketch: Sketch): void {
  const delta = deltaOf(deltas, change.field, change.label);
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
export function journalDeltas(
  entries: readonly { sketch?: Sketch; changes: readonly LabelChange[]; deltas?: readonly LabelDelta[] }[],
): LabelDelta[] {
  const byId = new Map<string, LabelDelta>();
  for (const e of entries) {
    if (e.sketch) for (const c of e.changes) addChangeDelta(byId, c, e.sketch);
    // An import's entry: its examples already summed per label.
    if (e.deltas) mergeDeltas(byId, e.deltas);
  }
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

/** Sums each example's sketch into the labels it teaches (as feedback would); deltas in a fixed order. */
export const labelDeltas = (examples: readonly { sketch: Sketch; labels: FeedbackFields }[]): LabelDelta[] =>
  journalDeltas(examples.map(({ sketch, labels }) => ({ sketch, changes: learnedChanges({}, labels) })));

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

/** Merges `from` into per-label deltas keyed `<field>:<label>` (an import's journal entry into a container's overlay). */
export function mergeDeltas(into: Map<string, LabelDelta>, from: readonly LabelDelta[]): void {
  for (const d of from) {
    const delta = deltaOf(into, d.field, d.label);
    delta.docs += d.docs;
    delta.total += d.total;
    for (const [name, n] of d.counts) add(delta.counts, name, n);
  }
}

const KINDS = 'tsd';

function putVarint(out: number[], n: number): void {
  let v = n;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
}

/**
 * An import's deltas as a journal entry stores them (docs/learning.md, "Importing history and forgetting it"): the
 * labels (`<field>:<label>`) as a list, and one binary of, per label in that order, docs, total and the number of
 * counts as varints, then each count as 2 bytes (kind in the top 2 bits, bucket below 2^14) and a varint. About 3
 * bytes a count: a part of 100 short examples stays within a few KB whatever order its labels come in (100 long ones,
 * all four fields labelled, distinct labels: about 135 KB). Counts are positive.
 */
export function encodeDeltas(deltas: readonly LabelDelta[]): { labels: string[]; bytes: Uint8Array } {
  const out: number[] = [];
  for (const d of deltas) {
    putVarint(out, d.docs);
    putVarint(out, d.total);
    putVarint(out, d.counts.size);
    for (const [name, n] of d.counts) {
      const code = (KINDS.indexOf(name[0]) << 14) | parseInt(name.slice(1), 36);
      out.push(code >>> 8, code & 0xff);
      putVarint(out, n);
    }
  }
  return { labels: deltas.map((d) => `${d.field}:${d.label}`), bytes: Uint8Array.from(out) };
}

export function decodeDeltas(labels: readonly string[], bytes: Uint8Array): LabelDelta[] {
  let at = 0;
  const varint = () => {
    let n = 0;
    let scale = 1;
    for (;;) {
      const b = bytes[at++];
      n += (b & 0x7f) * scale;
      if (b < 0x80) return n;
      scale *= 0x80;
    }
  };
  return labels.map((id) => {
    const colon = id.indexOf(':');
    const delta: LabelDelta = {
      field: id.slice(0, colon) as LearnedField,
      label: id.slice(colon + 1),
      docs: varint(),
      total: varint(),
      counts: new Map(),
    };
    const size = varint();
    for (let i = 0; i < size; i++) {
      const code = (bytes[at] << 8) | bytes[at + 1];
      at += 2;
      delta.counts.set(`${KINDS[code >>> 14]}${(code & 0x3fff).toString(36)}`, varint());
    }
    return delta;
  });
}
