// Prediction from a workspace's learned model: naive Bayes over the text buckets, each bucket weighted by how few
// labels share it, plus evidence for the sender and its domain, gated against the global engine: a learned label is
// used only when its evidence clearly beats "nothing learned applies". It walks only the postings of the signal's
// buckets in the model's index (prediction-index.ts).
import type { LearnedField, WorkspaceModel } from './model';
import { type FieldFigures, type FieldIndex, modelIndex } from './prediction-index';
import type { PostingTable } from './posting-table';
import type { Sketch, SketchFormat } from './sketch';
import { MAX_SKETCH_FEATURES, TEXT_BUCKETS } from './sketch';

// Chosen on the fixed held-out split of banking77-train.csv (every 5th line), see docs/learning.md.
/** Additive smoothing of the text counts. */
export const ALPHA = 0.1;
/** Exponent of the bucket weight log(K+1 / labels sharing it+1) / log(K+1): damps words every label has. */
const SHARING_EXPONENT = 0.5;
/** Evidence (nats per sqrt(feature)) a learned label needs before it replaces the global answer. */
const LEARNED_MARGIN = 2;
/**
 * Text evidence (nats per feature) the best label needs, whatever the sender: the out-of-distribution check. Per sketch
 * format: character 4-grams (format 2) are shared by more unrelated text than words are, so the bar is higher.
 */
const MIN_TEXT_EVIDENCE_PER_FEATURE = 0.6;
const MIN_TEXT_EVIDENCE_PER_FEATURE_FORMAT_2 = 0.7;
/** Nats per corroborating correction for the same sender, and for the same domain (capped at 5 corrections). */
const SENDER_NATS = 3;
const DOMAIN_NATS = 1.5;
const EVIDENCE_CAP = 5;

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
  /** The gate's figure: text evidence (nats per sqrt(feature)) plus sender and domain nats; at least LEARNED_MARGIN. */
  evidence: number;
  /** The sketch format it was scored in (absent: 1); confidence is calibrated per format. */
  format?: SketchFormat;
}

// Scratch for predictField, grown to the largest field seen: per label, its text and weighted log-likelihoods,
// sender and domain counts and score; per sketch bucket, the offset of its block in the posting table and its weight.
let perLabel = 0;
let TEXT = new Float64Array(0);
let WEIGHTED = new Float64Array(0);
let SENDER = new Float64Array(0);
let DOMAIN = new Float64Array(0);
let SCORE = new Float64Array(0);
let BLOCK = new Int32Array(MAX_SKETCH_FEATURES);
let WEIGHT = new Float64Array(MAX_SKETCH_FEATURES);
/** gain(c) = log(c + alpha) - log(alpha) for the small counts most postings hold. */
const LOG_ALPHA = Math.log(ALPHA);
const GAIN = Float64Array.from({ length: 4_096 }, (_, c) => Math.log(c + ALPHA) - LOG_ALPHA);
function figuresOf(fi: FieldIndex): FieldFigures {
  if (fi.derived) return fi.derived;
  const labels = fi.labels;
  const live = new Uint8Array(labels.length);
  let k = 0;
  let docsAll = 0;
  labels.forEach((l, li) => {
    if (l.docs <= 0) return;
    live[li] = 1;
    k++;
    docsAll += l.docs;
  });
  // The same expressions as the plain loop (test/support/reference-learning.ts), so the same doubles.
  const logV = Math.log(TEXT_BUCKETS);
  const logAlpha = Math.log(ALPHA);
  const absent = new Float64Array(labels.length);
  const prior = new Float64Array(labels.length);
  labels.forEach((l, li) => {
    if (!live[li]) return;
    absent[li] = logAlpha - Math.log(l.total + ALPHA * TEXT_BUCKETS) + logV;
    prior[li] = Math.log((l.docs + 1) / (docsAll + k));
  });
  // Weight of a bucket shared by s of K labels: log(K+1 / s+1) / log(K+1), to the exponent.
  const weightOf = new Float64Array(k + 1);
  const logK = Math.log(k + 1);
  for (let sh = 0; sh <= k; sh++) weightOf[sh] = Math.pow(Math.log((k + 1) / (sh + 1)) / logK, SHARING_EXPONENT);
  fi.derived = { k, docsAll, live, absent, prior, weightOf };
  return fi.derived;
}

/** Copies the (label position, count) pairs of a bucket's live labels into a per-label array. */
function spread(table: PostingTable, bucket: number, live: Uint8Array, into: Float64Array): void {
  const at = table.find(bucket);
  if (at < 0) return;
  const d = table.data;
  const end = at + 2 + 2 * d[at];
  for (let j = at + 2; j < end; j += 2) if (live[d[j]] === 1) into[d[j]] = d[j + 1];
}

function ensureScratch(labels: number, n: number): void {
  if (labels > perLabel) {
    perLabel = Math.max(labels, perLabel * 2, 64);
    TEXT = new Float64Array(perLabel);
    WEIGHTED = new Float64Array(perLabel);
    SENDER = new Float64Array(perLabel);
    DOMAIN = new Float64Array(perLabel);
    SCORE = new Float64Array(perLabel);
  }
  if (n > WEIGHT.length) WEIGHT = new Float64Array(n);
  if (n > BLOCK.length) BLOCK = new Int32Array(n);
}

/** What scoreLabels leaves in the scratch arrays: per label SCORE (log prior + weighted text), TEXT, SENDER, DOMAIN. */
interface Scored {
  labels: FieldIndex['labels'];
  live: Uint8Array;
  count: number;
  /** Features of the sketch. */
  n: number;
  /** The best label's position (ties to the label that sorts first), and its gate figure. */
  best: number;
  bestEvidence: number;
}

/**
 * Scores every live label of `field` for the sketch into the scratch arrays. Walks the index: for each sketch bucket,
 * the labels that hold it; labels without the bucket get the same "absent" term, which starts each label's sum. The
 * sums run in the same order as the plain loop over labels and buckets (test/support/reference-learning.ts), so label
 * and probability are the same to the last bit.
 */
function scoreLabels(model: WorkspaceModel, field: LearnedField, sketch: Sketch): Scored | undefined {
  const fi = modelIndex(model).fields[field];
  const labels = fi.labels;
  const count = labels.length;
  if (count === 0) return undefined;
  const { k, live, absent, prior, weightOf } = figuresOf(fi);
  if (k === 0) return undefined;
  const t = sketch.t;
  const n = t.length;
  ensureScratch(count, n);

  // How many (live) labels share each bucket, and with it the bucket's weight.
  const table = fi.text;
  const D = table.data;
  let weightSum = 0;
  for (let i = 0; i < n; i++) {
    const at = table.find(t[i]);
    BLOCK[i] = at;
    let sharing = 0;
    if (at >= 0) for (let j = at + 2, end = at + 2 + 2 * D[at]; j < end; j += 2) sharing += live[D[j]];
    WEIGHT[i] = weightOf[sharing];
    weightSum += WEIGHT[i];
  }
  for (let li = 0; li < count; li++) {
    if (live[li] === 0) continue;
    TEXT[li] = n * absent[li];
    WEIGHTED[li] = weightSum * absent[li];
    SENDER[li] = 0;
    DOMAIN[li] = 0;
  }
  for (let i = 0; i < n; i++) {
    const at = BLOCK[i];
    if (at < 0) continue;
    const w = WEIGHT[i];
    for (let j = at + 2, end = at + 2 + 2 * D[at]; j < end; j += 2) {
      const li = D[j];
      if (live[li] === 0) continue;
      const c = D[j + 1];
      const gain = c < GAIN.length ? GAIN[c] : Math.log(c + ALPHA) - LOG_ALPHA;
      TEXT[li] += gain;
      WEIGHTED[li] += w * gain;
    }
  }
  if (sketch.s !== undefined) spread(fi.senders, sketch.s, live, SENDER);
  if (sketch.d !== undefined) spread(fi.domains, sketch.d, live, DOMAIN);
  const lengthNorm = Math.max(1, Math.sqrt(n));

  let best = -1;
  let bestEvidence = 0;
  for (let li = 0; li < count; li++) {
    if (live[li] === 0) continue;
    // Log-likelihood ratio against a uniform "not this workspace's teaching" background: unweighted for the gate,
    // weighted by how distinctive each bucket is for choosing among the labels.
    // Capped as evidence; the counts themselves stay for the reason's message ("8 corrections for this sender").
    const s = Math.min(EVIDENCE_CAP, SENDER[li]);
    const d = Math.min(EVIDENCE_CAP, DOMAIN[li]);
    const evidence = TEXT[li] / lengthNorm + SENDER_NATS * s + DOMAIN_NATS * d;
    const score = WEIGHTED[li] + prior[li] + 4 * (SENDER_NATS * s + DOMAIN_NATS * d);
    SCORE[li] = score;
    if (best < 0 || score > SCORE[best] || (score === SCORE[best] && labels[li].label < labels[best].label)) {
      best = li;
      bestEvidence = evidence;
    }
  }
  return best < 0 ? undefined : { labels, live, count, n, best, bestEvidence };
}

/**
 * Out of distribution (docs/partners.md, "Importing your history, and forgetting it"): the signal's words must be like
 * what the label was taught, whoever sent it. The best label's text log-likelihood ratio per feature against the
 * uniform background: held-out queries of taught intents mostly score 1.2 to 4.9, other corpora -0.3 to 0.5
 * (docs/learning.md).
 */
function likeTaught(scored: Scored, sketch: Sketch): boolean {
  const minText = sketch.f === 2 ? MIN_TEXT_EVIDENCE_PER_FEATURE_FORMAT_2 : MIN_TEXT_EVIDENCE_PER_FEATURE;
  return TEXT[scored.best] / Math.max(1, scored.n) >= minText;
}

/**
 * A bar for "like the history" that reads the text evidence of ANY taught label (nats per feature, format 2; format 1
 * the same 0.1 lower as likeTaught's) and moves with the signal's length and the history's size: per decade of
 * features over 30 (a long signal's average is steadier), and per decade of taught signals over 100 (never lower: a
 * large history makes any text of its language look a little like it). Used by the learned priority.
 */
export interface HistoryBar {
  bar: number;
  perLengthDecade: number;
  perSizeDecade: number;
  /**
   * With it, the highest taught label's text evidence per feature minus generic text's (background.ts) must be at
   * least this (negative: a little less like the history than like generic text still passes). Format 2 only.
   */
  background?: number;
}

function likeHistory(scored: Scored, sketch: Sketch, b: HistoryBar, background?: () => number): boolean {
  let top = -Infinity;
  let docs = 0;
  for (let li = 0; li < scored.count; li++)
    if (scored.live[li] === 1) {
      top = Math.max(top, TEXT[li]);
      docs += scored.labels[li].docs;
    }
  const n = Math.max(1, scored.n);
  const format = sketch.f === 2 ? 0 : MIN_TEXT_EVIDENCE_PER_FEATURE_FORMAT_2 - MIN_TEXT_EVIDENCE_PER_FEATURE;
  const size = Math.max(0, Math.log10(docs / 100));
  if (top / n < b.bar - format + b.perLengthDecade * Math.log10(n / 30) + b.perSizeDecade * size) return false;
  if (b.background === undefined) return true;
  if (sketch.f !== 2 || background === undefined)
    throw new Error('a background bar needs a format 2 sketch and its background');
  return top / n - background() >= b.background;
}

/** One label's share of the learned labels' probability and what taught it, from the last scoreLabels. */
export interface LabelShare {
  label: string;
  /** The label's text log-likelihood, each bucket weighted by how few labels share it. */
  score: number;
  /** The label's plain text log-likelihood (every bucket alike). */
  text: number;
  /** Text log-likelihood ratio per feature against the uniform background. */
  textPerFeature: number;
  docs: number;
}

/**
 * Every live label of `field` with its naive Bayes scores, when the signal is like what the workspace was taught by
 * `bar` (likeHistory); with `bar` null, whatever the signal (bin/fit-warm-gate.ts measures the tests on these).
 * Undefined otherwise. Read by the learned priority (learned-priority.ts), which starts from the label frequencies
 * and tempers the text's say.
 */
export function labelScores(
  model: WorkspaceModel,
  field: LearnedField,
  sketch: Sketch,
  bar: HistoryBar | null,
  /** Generic text's evidence per feature for the signal (background.ts), read only if the bar has one. */
  background?: () => number,
): LabelShare[] | undefined {
  const scored = scoreLabels(model, field, sketch);
  if (scored === undefined || (bar !== null && !likeHistory(scored, sketch, bar, background))) return undefined;
  const out: LabelShare[] = [];
  for (let li = 0; li < scored.count; li++)
    if (scored.live[li] === 1)
      out.push({
        label: scored.labels[li].label,
        score: WEIGHTED[li],
        text: TEXT[li],
        textPerFeature: TEXT[li] / Math.max(1, scored.n),
        docs: scored.labels[li].docs,
      });
  return out;
}

/**
 * The learned label for one field, or undefined when nothing learned beats the global engine. Deterministic for a
 * given model and sketch (ties go to the label that sorts first).
 */
export function predictField(model: WorkspaceModel, field: LearnedField, sketch: Sketch): Prediction | undefined {
  const scored = scoreLabels(model, field, sketch);
  if (scored === undefined) return undefined;
  const { labels, live, count, best, bestEvidence } = scored;
  if (bestEvidence < LEARNED_MARGIN) return undefined;
  if (!likeTaught(scored, sketch)) return undefined;
  const top = SCORE[best];
  let sum = 0;
  for (let li = 0; li < count; li++) if (live[li] === 1) sum += Math.exp(SCORE[li] - top);
  const chosen = labels[best];
  const s = SENDER[best];
  const d = DOMAIN[best];
  return {
    field,
    label: chosen.label,
    senderCount: s,
    domainCount: d,
    docs: chosen.docs,
    probability: 1 / sum,
    basis: s > 0 ? 'sender' : d > 0 ? 'domain' : 'text',
    evidence: bestEvidence,
    ...(sketch.f === 2 ? { format: sketch.f } : {}),
  };
}
