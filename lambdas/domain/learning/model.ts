// A workspace's learned model, as a container holds it: for each label it was taught (a category, queue, priority or
// action), how many decisions carried it and how often each sketch bucket, sender and domain appeared with it.
// Prediction (predict.ts) is naive Bayes over these counts, gated against the global engine.
// A cached model carries an index from bucket to the labels that hold it (per field, in flat posting tables), so a
// prediction walks only the postings of the signal's buckets instead of every label times every bucket; applyChanges
// keeps it in step.
import { PostingTable } from './posting-table';
import type { Sketch } from './sketch';

/** The labels a workspace learns at most per field; an example naming more is refused, feedback is not learned. */
export const MAX_LABELS = 600;

export const LEARNED_FIELDS = ['category', 'queue', 'priority', 'recommended_action'] as const;
export type LearnedField = (typeof LEARNED_FIELDS)[number];

export interface LabelCounts {
  field: LearnedField;
  label: string;
  /** Decisions counted with this label. */
  docs: number;
  /** Sum of the text counts (the naive Bayes denominator). */
  total: number;
  text: Map<number, number>;
  senders: Map<number, number>;
  domains: Map<number, number>;
}

/** What a window of entries or an import adds to one label (label-delta.ts sums them). */
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

export interface WorkspaceModel {
  /** Increases with every feedback that changed what was learned; 0 when nothing was. */
  version: number;
  labels: LabelCounts[];
  /** Bucket -> labels, per field: built by indexModel (the cache does on load), kept in step by applyChanges. */
  index?: ModelIndex;
}

/**
 * One field's labels, and for each bucket the labels that counted it: a flat list of (label position, count) pairs.
 * The positions index `labels`, which only grows (a label whose docs fall to 0 stays, and is skipped).
 */
export interface FieldIndex {
  labels: LabelCounts[];
  text: PostingTable;
  senders: PostingTable;
  domains: PostingTable;
  /** Per-label figures that change only with the counts: made by the first prediction after a change. */
  derived?: FieldFigures;
}

/** What a prediction needs of a field's labels apart from the signal: recomputed only after the counts change. */
export interface FieldFigures {
  /** Labels with docs > 0 (K), and their docs in all. */
  k: number;
  docsAll: number;
  /** Per label position: 1 when its docs > 0. */
  live: Uint8Array;
  /** Per label: the log-likelihood ratio of a bucket it does not hold, and its log prior. */
  absent: Float64Array;
  prior: Float64Array;
  /** Weight of a bucket shared by s of the K labels (index s). */
  weightOf: Float64Array;
}

export interface ModelIndex {
  /** The model version and label count it reflects; anything else means the counts changed behind its back. */
  version: number;
  labelCount: number;
  fields: Record<LearnedField, FieldIndex>;
  /** Pairs held in all: exactly one per learned count (the cache weighs a workspace by counts plus postings). */
  postings: number;
}

export function emptyModel(): WorkspaceModel {
  return { version: 0, labels: [] };
}

export function labelCounts(field: LearnedField, label: string): LabelCounts {
  return { field, label, docs: 0, total: 0, text: new Map(), senders: new Map(), domains: new Map() };
}

const bump = (map: Map<number, number>, key: number, by: number) => {
  const next = (map.get(key) ?? 0) + by;
  if (next > 0) map.set(key, next);
  else map.delete(key);
};

/** Counts one sketch into (sign 1) or out of (sign -1) a label; the model store applies the same change to DynamoDB. */
export function countSketch(counts: LabelCounts, sketch: Sketch, sign: 1 | -1): void {
  counts.docs = Math.max(0, counts.docs + sign);
  counts.total = Math.max(0, counts.total + sign * sketch.t.length);
  for (const b of sketch.t) bump(counts.text, b, sign);
  if (sketch.s !== undefined) bump(counts.senders, sketch.s, sign);
  if (sketch.d !== undefined) bump(counts.domains, sketch.d, sign);
}

export interface LabelChange {
  field: LearnedField;
  label: string;
  sign: 1 | -1;
}

/** What moving a decision from the labels it counted (`before`) to `after` changes: the store and the cache apply it. */
export function learnedChanges(
  before: Partial<Record<LearnedField, string>>,
  after: Partial<Record<LearnedField, string>>,
): LabelChange[] {
  const changes: LabelChange[] = [];
  for (const field of LEARNED_FIELDS) {
    if (before[field] === after[field]) continue;
    if (before[field]) changes.push({ field, label: before[field], sign: -1 });
    if (after[field]) changes.push({ field, label: after[field], sign: 1 });
  }
  return changes;
}

const KINDS = ['text', 'senders', 'domains'] as const;

/** Builds the model's index (once per load); returns it. Size: one (position, count) pair per learned count. */
export function indexModel(model: WorkspaceModel): ModelIndex {
  const fields = {} as Record<LearnedField, FieldIndex>;
  let postings = 0;
  for (const field of LEARNED_FIELDS) {
    const labels = model.labels.filter((l) => l.field === field);
    const [text, senders, domains] = KINDS.map((kind) => {
      let n = 0;
      for (const l of labels) n += l[kind].size;
      const buckets = new Int32Array(n);
      const positions = new Int32Array(n);
      const counts = new Int32Array(n);
      let k = 0;
      labels.forEach((l, li) => {
        for (const [b, c] of l[kind]) {
          buckets[k] = b;
          positions[k] = li;
          counts[k++] = c;
          if (c > 0) postings++;
        }
      });
      return PostingTable.of(buckets, positions, counts, n);
    });
    fields[field] = { labels, text, senders, domains };
  }
  model.index = { version: model.version, labelCount: model.labels.length, fields, postings };
  return model.index;
}

const freshIndex = (model: WorkspaceModel): ModelIndex | undefined =>
  model.index && model.index.version === model.version && model.index.labelCount === model.labels.length
    ? model.index
    : undefined;

/** The model's index, rebuilt if the counts were changed other than through applyChanges. */
export function modelIndex(model: WorkspaceModel): ModelIndex {
  return freshIndex(model) ?? indexModel(model);
}

/** Applies changes to a model in memory (the container that took the feedback decides with it at once), index included. */
export function applyChanges(model: WorkspaceModel, sketch: Sketch, changes: readonly LabelChange[]): void {
  if (changes.length === 0) return;
  const index = freshIndex(model);
  if (!index) model.index = undefined;
  for (const c of changes) {
    let counts = model.labels.find((l) => l.field === c.field && l.label === c.label);
    if (!counts) {
      if (c.sign < 0) continue;
      counts = labelCounts(c.field, c.label);
      model.labels.push(counts);
      if (index) {
        index.fields[c.field].labels.push(counts);
        index.labelCount++;
      }
    }
    countSketch(counts, sketch, c.sign);
    if (index) {
      const fi = index.fields[c.field];
      fi.derived = undefined;
      const li = fi.labels.indexOf(counts);
      for (const b of sketch.t) index.postings += fi.text.add(b, li, c.sign);
      if (sketch.s !== undefined) index.postings += fi.senders.add(sketch.s, li, c.sign);
      if (sketch.d !== undefined) index.postings += fi.domains.add(sketch.d, li, c.sign);
    }
  }
  model.version++;
  if (index) index.version = model.version;
}

/** Adds a delta to a label's counts (a count never goes below 0). */
export function addDelta(counts: LabelCounts, delta: LabelDelta): void {
  counts.docs = Math.max(0, counts.docs + delta.docs);
  counts.total = Math.max(0, counts.total + delta.total);
  for (const [name, n] of delta.counts) {
    const kind = name[0];
    bump(kind === 't' ? counts.text : kind === 's' ? counts.senders : counts.domains, parseInt(name.slice(1), 36), n);
  }
}

/**
 * Adds label deltas (an import's, or a load's unfolded entries summed) to a model in memory, making the labels they
 * name; the index is rebuilt on the next prediction.
 */
export function applyDeltas(model: WorkspaceModel, deltas: readonly LabelDelta[]): void {
  if (deltas.length === 0) return;
  const byLabel = new Map(model.labels.map((l) => [`${l.field}:${l.label}`, l]));
  for (const delta of deltas) {
    const id = `${delta.field}:${delta.label}`;
    if (!byLabel.has(id)) model.labels.push(byLabel.set(id, labelCounts(delta.field, delta.label)).get(id)!);
    addDelta(byLabel.get(id)!, delta);
  }
  model.version++;
  model.index = undefined;
}
