// Prediction's index of a workspace's learned counts (predict.ts walks it): per field, from each bucket to the labels
// that hold it, in flat posting tables, so a prediction walks only the postings of the signal's buckets instead of
// every label times every bucket. Built once per load (the cache does), then kept in step by model.ts's applyChanges,
// which tells it each count it moves. It only reads the counts a container holds in memory, never a learning item
// (docs/learning.md, "How much code it takes").
import {
  type CountsIndex,
  LEARNED_FIELDS,
  type LabelCounts,
  type LearnedField,
  type WorkspaceModel,
  currentIndex,
} from './model';
import { PostingTable } from './posting-table';
import type { Sketch } from './sketch';

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

const KINDS = ['text', 'senders', 'domains'] as const;

export class ModelIndex implements CountsIndex {
  version: number;
  labelCount: number;
  readonly fields = {} as Record<LearnedField, FieldIndex>;
  /** Pairs held in all: exactly one per learned count. */
  postings = 0;

  /** The model's index: one (position, count) pair per learned count, each table filled at its final size. */
  constructor(model: WorkspaceModel) {
    this.version = model.version;
    this.labelCount = model.labels.length;
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
            if (c > 0) this.postings++;
          }
        });
        return PostingTable.of(buckets, positions, counts, n);
      });
      this.fields[field] = { labels, text, senders, domains };
    }
  }

  /** A sketch counted into (sign 1) or out of (-1) a label of the model (a label new to it joins its field). */
  count(counts: LabelCounts, sketch: Sketch, sign: 1 | -1): void {
    const fi = this.fields[counts.field];
    fi.derived = undefined;
    let li = fi.labels.indexOf(counts);
    if (li < 0) {
      li = fi.labels.push(counts) - 1;
      this.labelCount++;
    }
    for (const b of sketch.t) this.postings += fi.text.add(b, li, sign);
    if (sketch.s !== undefined) this.postings += fi.senders.add(sketch.s, li, sign);
    if (sketch.d !== undefined) this.postings += fi.domains.add(sketch.d, li, sign);
  }
}

/** Builds the model's index (once per load) and returns it. */
export function indexModel(model: WorkspaceModel): ModelIndex {
  const index = new ModelIndex(model);
  model.index = index;
  return index;
}

/** The model's index, rebuilt if the counts were changed other than through applyChanges. */
export function modelIndex(model: WorkspaceModel): ModelIndex {
  const index = currentIndex(model);
  return index instanceof ModelIndex ? index : indexModel(model);
}
