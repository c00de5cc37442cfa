// A workspace's learned model, as a container holds it: for each label it was taught (a category, queue, priority or
// action), how many decisions carried it and how often each sketch bucket, sender and domain appeared with it.
// Prediction (predict.ts) is naive Bayes over these counts, gated against the global engine.
// A cached model carries prediction's index of these counts (prediction-index.ts); applyChanges keeps it in step.
import type { Sketch } from './sketch';

/** The labels a workspace learns at most per field; an example or a feedback naming more is refused. */
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

/**
 * A count's attribute name: its kind (`t` text, `s` sender, `d` domain), then its bucket in base 36. Sender bucket 20
 * would be `sk`, the learning table's sort key, which no write may set as a count: it is `s0k`, read back as 20 like
 * any base-36 number with a leading zero.
 */
export function countName(kind: 't' | 's' | 'd', bucket: number): string {
  const name = `${kind}${bucket.toString(36)}`;
  return name === 'sk' ? 's0k' : name;
}

/** A label's counts by attribute name (countName), as a LabelDelta holds them. */
export function namedCounts(counts: LabelCounts): Map<string, number> {
  const named = new Map<string, number>();
  for (const [b, n] of counts.text) named.set(countName('t', b), n);
  for (const [b, n] of counts.senders) named.set(countName('s', b), n);
  for (const [b, n] of counts.domains) named.set(countName('d', b), n);
  return named;
}

/** What a window of entries or an import adds to one label (label-delta.ts sums them). */
export interface LabelDelta {
  field: LearnedField;
  label: string;
  /** Examples counted with this label. */
  docs: number;
  /** Sum of their text counts. */
  total: number;
  /** Count attribute (countName) to what it adds. */
  counts: Map<string, number>;
}

export interface WorkspaceModel {
  /** Increases with every feedback that changed what was learned; 0 when nothing was. */
  version: number;
  labels: LabelCounts[];
  /** Prediction's index of the counts (prediction-index.ts): built on load, kept in step by applyChanges. */
  index?: CountsIndex;
}

/** What keeps in step with a model's counts: prediction's index (prediction-index.ts), told of every count moved. */
export interface CountsIndex {
  /** The model version and label count it reflects; anything else means the counts changed behind its back. */
  version: number;
  labelCount: number;
  count(counts: LabelCounts, sketch: Sketch, sign: 1 | -1): void;
}

/** The model's index, if it reflects the counts as they are. */
export const currentIndex = (model: WorkspaceModel): CountsIndex | undefined =>
  model.index?.version === model.version && model.index.labelCount === model.labels.length ? model.index : undefined;

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

/** Applies changes to a model in memory (the container that took the feedback decides with it at once), index included. */
export function applyChanges(model: WorkspaceModel, sketch: Sketch, changes: readonly LabelChange[]): void {
  if (changes.length === 0) return;
  const index = (model.index = currentIndex(model));
  for (const c of changes) {
    let counts = model.labels.find((l) => l.field === c.field && l.label === c.label);
    if (!counts) {
      if (c.sign < 0) continue;
      counts = labelCounts(c.field, c.label);
      model.labels.push(counts);
    }
    countSketch(counts, sketch, c.sign);
    index?.count(counts, sketch, c.sign);
  }
  model.version = examplesHeld(model);
  if (index) index.version = model.version;
}

/** Adds a delta to a label's counts (a count never goes below 0). */
function addDelta(counts: LabelCounts, delta: LabelDelta): void {
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
  model.version = examplesHeld(model);
  model.index = undefined;
}

/**
 * A model's version (`+ws.<n>` in model_version): the examples it holds, as a load computes it, so every container
 * holding the same counts states the same version, whether it loaded them or took the change itself.
 */
export const examplesHeld = (model: WorkspaceModel): number => model.labels.reduce((sum, l) => sum + l.docs, 0);
