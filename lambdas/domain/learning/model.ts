// A workspace's learned model, as a container holds it: for each label it was taught (a category, queue, priority or
// action), how many decisions carried it and how often each sketch bucket, sender and domain appeared with it.
// Prediction is naive Bayes over the text buckets, each bucket weighted by how few labels share it, plus evidence
// for the sender and its domain, gated against the global engine: a learned label is used only when its evidence
// clearly beats "nothing learned applies".
import type { Sketch } from './sketch';
import { TEXT_BUCKETS } from './sketch';

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

export interface WorkspaceModel {
  /** Increases with every feedback that changed what was learned; 0 when nothing was. */
  version: number;
  labels: LabelCounts[];
}

// Chosen on the fixed held-out split of banking77-train.csv (every 5th line), see docs/learning.md.
/** Additive smoothing of the text counts. */
const ALPHA = 0.1;
/** Exponent of the bucket weight log(K+1 / labels sharing it+1) / log(K+1): damps words every label has. */
const SHARING_EXPONENT = 0.5;
/** Evidence (nats per sqrt(feature)) a learned label needs before it replaces the global answer. */
export const LEARNED_MARGIN = 2;
/** Nats per corroborating correction for the same sender, and for the same domain (capped at 5 corrections). */
const SENDER_NATS = 3;
const DOMAIN_NATS = 1.5;
const EVIDENCE_CAP = 5;

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
    if (before[field]) changes.push({ field, label: before[field]!, sign: -1 });
    if (after[field]) changes.push({ field, label: after[field]!, sign: 1 });
  }
  return changes;
}

/** Applies changes to a model in memory (the container that took the feedback decides with it at once). */
export function applyChanges(model: WorkspaceModel, sketch: Sketch, changes: readonly LabelChange[]): void {
  if (changes.length === 0) return;
  for (const c of changes) {
    let counts = model.labels.find((l) => l.field === c.field && l.label === c.label);
    if (!counts) {
      if (c.sign < 0) continue;
      counts = labelCounts(c.field, c.label);
      model.labels.push(counts);
    }
    countSketch(counts, sketch, c.sign);
  }
  model.version++;
}

export interface Prediction {
  field: LearnedField;
  label: string;
  /** Corrections with this label from the same sender, and from the same domain (capped at 5). */
  senderCount: number;
  domainCount: number;
  /** Decisions this label was taught on. */
  docs: number;
  /** Share of the learned labels' probability this one holds (0..1). */
  probability: number;
  /** Which evidence decided: the sender, its domain, or the wording. */
  basis: 'sender' | 'domain' | 'text';
}

/**
 * The learned label for one field, or undefined when nothing learned beats the global engine. Deterministic for a
 * given model and sketch (ties go to the label that sorts first).
 */
export function predictField(model: WorkspaceModel, field: LearnedField, sketch: Sketch): Prediction | undefined {
  const labels = model.labels.filter((l) => l.field === field && l.docs > 0);
  if (labels.length === 0) return undefined;
  const docsAll = labels.reduce((sum, l) => sum + l.docs, 0);
  const logV = Math.log(TEXT_BUCKETS);
  const logAlpha = Math.log(ALPHA);
  const n = sketch.t.length;
  // One pass over (label, bucket): the counts present (most are absent, and an absent bucket's term is the same
  // for every bucket of a label), and how many labels share each bucket.
  const sharing = new Float64Array(n);
  const present: number[][] = labels.map((l) => {
    const hits: number[] = [];
    for (let i = 0; i < n; i++) {
      const c = l.text.get(sketch.t[i]);
      if (c) {
        hits.push(i, c);
        sharing[i]++;
      }
    }
    return hits;
  });
  const logK = Math.log(labels.length + 1);
  const weight = new Float64Array(n);
  let weightSum = 0;
  for (let i = 0; i < n; i++) {
    weight[i] = Math.pow(Math.log((labels.length + 1) / (sharing[i] + 1)) / logK, SHARING_EXPONENT);
    weightSum += weight[i];
  }
  const lengthNorm = Math.max(1, Math.sqrt(n));

  let best: { l: LabelCounts; score: number; evidence: number; s: number; d: number } | undefined;
  const scores: number[] = [];
  labels.forEach((l, li) => {
    // Log-likelihood ratio against a uniform "not this workspace's teaching" background: unweighted for the gate,
    // weighted by how distinctive each bucket is for choosing among the labels.
    const absent = logAlpha - Math.log(l.total + ALPHA * TEXT_BUCKETS) + logV;
    let text = n * absent;
    let weighted = weightSum * absent;
    const hits = present[li];
    for (let h = 0; h < hits.length; h += 2) {
      const gain = Math.log(hits[h + 1] + ALPHA) - logAlpha;
      text += gain;
      weighted += weight[hits[h]] * gain;
    }
    const s = sketch.s !== undefined ? Math.min(EVIDENCE_CAP, l.senders.get(sketch.s) ?? 0) : 0;
    const d = sketch.d !== undefined ? Math.min(EVIDENCE_CAP, l.domains.get(sketch.d) ?? 0) : 0;
    const evidence = text / lengthNorm + SENDER_NATS * s + DOMAIN_NATS * d;
    const score = weighted + Math.log((l.docs + 1) / (docsAll + labels.length)) + 4 * (SENDER_NATS * s + DOMAIN_NATS * d);
    scores.push(score);
    if (!best || score > best.score || (score === best.score && l.label < best.l.label)) best = { l, score, evidence, s, d };
  });
  if (!best) return undefined;
  const chosen: { l: LabelCounts; score: number; evidence: number; s: number; d: number } = best;
  if (chosen.evidence < LEARNED_MARGIN) return undefined;
  const top = chosen.score;
  const probability = 1 / scores.reduce((sum, sc) => sum + Math.exp(sc - top), 0);
  return {
    field,
    label: chosen.l.label,
    senderCount: chosen.s,
    domainCount: chosen.d,
    docs: chosen.l.docs,
    probability,
    basis: chosen.s > 0 ? 'sender' : chosen.d > 0 ? 'domain' : 'text',
  };
}
