// How likely a careful reviewer keeps the global engine's decision (docs/partners.md, "The decision"): one logistic
// regression over a few plain facts of the decision, fitted by bin/train-confidence.ts on the training side of
// bin/data-splits.ts, where "kept" means what `npm run eval` measures (spam archived exactly when it is spam; ordinary
// mail kept; a bug report's priority band fitting its tracker priority). It is the one module for the global decision's
// confidence; a label a workspace learned takes its confidence from lambdas/domain/learning/confidence.ts instead. A
// ranked decision (an alert or a ticket without its author's severity) is kept when the author's label fits its band: a
// small ordinal model per kind, over the rules' points and the severity model's, gives the chance of each label, and
// the labels that fit the band add up to how likely it is kept (an alert's confidence). A ticket the engine ranked
// states what a ticket from a tracker the engine never saw gets on average (`ranked_task`): whether its band fits is
// that tracker's habit, which no fact of the decision carries (docs/decision-engine-confidence.md, "Confidence of a
// ranked ticket"). Thin evidence (a few words or an unread language, no strong reason) is capped below any decision
// with evidence of its own.
import { type Category, type Reason, statedConfidence } from '../decision';
import type { Source } from '../signal';

export interface ConfidenceInput {
  source: Source;
  category: Category;
  archived: boolean;
  /** Evidence of the chosen category and of the runner-up (sum of |weights|, strongest full, others half). */
  best: number;
  second: number;
  /** The spam model's probability, or null when it did not run. */
  spamProbability: number | null;
  /** A doubtful spam vote was set aside. */
  modelDoubted?: boolean;
  score: number;
  /** The decision's archive category was reviewed rather than archived (an invariant held it back). */
  heldBack?: boolean;
  reasons: readonly Reason[];
  /** Words read from subject and body. */
  words: number;
  /** metadata.severity or metadata.priority named a severity: the author's label, not a ranking. */
  authorSeverity?: boolean;
  /** The text is in no language the engine reads (`language` is `und`): its word lists saw nothing in it. */
  unread?: boolean;
}

const BAND_EDGES = [35, 60, 80];
const clamp = (x: number, lo: number, hi: number) => (x < lo ? lo : x > hi ? hi : x);
export const CONFIDENCE_FEATURES = [
  'bias',
  'email',
  'support_message',
  'task',
  'internal',
  'crm_event',
  'archived',
  'held_back',
  'spam_certainty',
  'spam_ran',
  'margin',
  'general',
  'band_distance',
  'reasons',
  'strongest',
  'few_words',
  'log_words',
  'severity_model',
  'doubted_p_spam',
  'internal_critical',
  'internal_high',
  'internal_medium',
  'internal_low',
  'task_critical',
  'task_high',
  'task_medium',
  'task_low',
  'task_severity_signed',
  'task_ordinal',
  'task_model_critical',
  'task_model_high',
  'task_model_medium',
  'task_model_low',
] as const;
// Alerts and tickets: which band the score fell in (a middle band is kept for more labels than an edge), and for a
// ticket the way the severity model moved it (signed: a ticket it reads as serious lands in a band fewer priorities fit).
const bandOf = (score: number) => (score >= 80 ? 0 : score >= 60 ? 1 : score >= 35 ? 2 : 3);

/** Alerts rank 1 (info) to 3 (critical), tickets 1 (trivial) to 5 (critical). */
export type RankedKind = 'internal' | 'task';
export const RANK_LEVELS: Record<RankedKind, number> = { internal: 3, task: 5 };
/**
 * The labels that fit each band (critical, high, medium, low), as a careful reviewer reads them (issue 22, item 5):
 * an alert's critical -> critical/high, warning -> high/medium, info -> medium/low; a ticket's top two priorities ->
 * high/critical, the middle one -> medium, the bottom two -> medium/low.
 */
const FITTING: Record<RankedKind, readonly (readonly number[])[]> = {
  internal: [[3], [3, 2], [2, 1], [1]],
  task: [
    [5, 4],
    [5, 4],
    [3, 2, 1],
    [2, 1],
  ],
};

/** Cumulative-logit model of the author's label: P(label <= k) = sigmoid(thresholds[k-1] - eta). */
export interface OrdinalModel {
  /** Weights of the rules' points and of the severity model's points, per ORDINAL_UNIT points. */
  rules: number;
  model: number;
  thresholds: number[];
}
const ORDINAL_UNIT = 50;

/** The rules' points (every reason but the severity model's) and the severity model's points. */
export function rankedPoints(reasons: readonly Reason[]): { rules: number; model: number } {
  let rules = 0;
  let model = 0;
  for (const r of reasons)
    if (r.code === 'SEVERITY_MODEL') model += r.weight;
    else rules += r.weight;
  return { rules: rules / ORDINAL_UNIT, model: model / ORDINAL_UNIT };
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** P(label = 1..K) under `m` for a decision's points. */
export function labelChances(m: OrdinalModel, points: { rules: number; model: number }): number[] {
  const eta = m.rules * points.rules + m.model * points.model;
  const out: number[] = [];
  let below = 0;
  for (const t of m.thresholds) {
    const c = sigmoid(t - eta);
    out.push(Math.max(c - below, 0));
    below = Math.max(c, below);
  }
  out.push(1 - below);
  return out;
}

/** The chance that the author's label fits the band the score fell in. */
export function bandFits(kind: RankedKind, m: OrdinalModel, score: number, reasons: readonly Reason[]): number {
  const chances = labelChances(m, rankedPoints(reasons));
  let p = 0;
  for (const level of FITTING[kind][bandOf(score)]) p += chances[level - 1];
  return p;
}

/** An alert or a ticket ranked by the engine (no author's severity, not an archive category, not a recovery). */
export const rankedKind = (c: ConfidenceInput): RankedKind | null =>
  (c.source === 'internal' || c.source === 'task') &&
  c.authorSeverity !== true &&
  c.heldBack !== true &&
  !c.archived &&
  !c.reasons.some((r) => r.code === 'ALERT_RESOLVED')
    ? c.source
    : null;

const logit = (p: number) => {
  const q = clamp(p, 0.01, 0.99);
  return Math.log(q / (1 - q));
};

export function confidenceFeatures(c: ConfidenceInput, ordinal: Readonly<Record<RankedKind, OrdinalModel>>): number[] {
  let strongest = 0;
  let severity = 0; // signed points of SEVERITY_MODEL
  for (const r of c.reasons) {
    strongest = Math.max(strongest, Math.abs(r.weight));
    if (r.code === 'SEVERITY_MODEL') severity = r.weight;
  }
  let band = 100;
  for (const e of BAND_EDGES) band = Math.min(band, Math.abs(c.score - e + 0.5));
  const p = c.spamProbability;
  const s = c.source;
  // The score's band (0 critical .. 3 low), one-hot for alerts and tickets (CONFIDENCE_FEATURES' *_critical .. *_low).
  const b = bandOf(c.score);
  const alert = s === 'internal';
  const task = s === 'task';
  const taskSeverity = task ? severity / 60 : 0;
  // One literal in CONFIDENCE_FEATURES' order: it runs on every decision, and spreads of mapped arrays there cost
  // about 3 KB of garbage per call (docs/performance.md, "Version 4, the engine's warm speed, again").
  return [
    1,
    s === 'email' ? 1 : 0,
    s === 'support_message' ? 1 : 0,
    task ? 1 : 0,
    alert ? 1 : 0,
    s === 'crm_event' ? 1 : 0,
    c.archived ? 1 : 0,
    c.heldBack === true ? 1 : 0,
    p === null ? 0 : Math.abs(2 * p - 1),
    p === null ? 0 : 1,
    c.category === 'general' ? 0 : 1 - Math.exp(-(c.best - c.second) / 20),
    c.category === 'general' ? 1 : 0,
    Math.min(band / 10, 1),
    Math.min(c.reasons.length, 6) / 6,
    Math.min(strongest / 50, 1),
    c.words < 6 ? 1 : 0,
    Math.log1p(c.words) / 8,
    Math.abs(severity) / 40,
    // A doubted vote weighs by how likely spam the model read the text (a vote at 0.3 is wrong far less often than one
    // at 0.75, docs/decision-engine-confidence.md "Confidence: reproducing the model"), not as one flag.
    c.modelDoubted === true && p !== null ? p : 0,
    alert && b === 0 ? 1 : 0,
    alert && b === 1 ? 1 : 0,
    alert && b === 2 ? 1 : 0,
    alert && b === 3 ? 1 : 0,
    task && b === 0 ? 1 : 0,
    task && b === 1 ? 1 : 0,
    task && b === 2 ? 1 : 0,
    task && b === 3 ? 1 : 0,
    taskSeverity,
    rankedKind(c) === 'task' ? logit(bandFits('task', ordinal.task, c.score, c.reasons)) : 0,
    b === 0 ? taskSeverity : 0,
    b === 1 ? taskSeverity : 0,
    b === 2 ? taskSeverity : 0,
    b === 3 ? taskSeverity : 0,
  ];
}

/** What the trainer fits: the logistic's weights, one ordinal model per ranked kind, and a ranked ticket's chance. */
export interface ConfidenceModel {
  weights: number[];
  ordinal: Record<RankedKind, OrdinalModel>;
  /**
   * How often a ranked ticket's band fits its tracker's priority, averaged over the development trackers (each weighs
   * the same): the confidence of every ticket the engine ranks, so an unseen tracker gets what unseen trackers get.
   */
  ranked_task: number;
}
interface ConfidenceModelFile extends ConfidenceModel {
  features: string[];
  trained_on: string;
}
let model: ConfidenceModel | null = null;

/** The model in use (the shipped file unless replaced): the eval refits parts of it per source held out. */
export function currentConfidenceModel(): ConfidenceModel {
  if (model === null) loadShipped();
  return model!;
}

/** Replaces the model (the trainer and the eval measure a candidate this way); `null` reloads the shipped file. */
export function useConfidenceModel(m: ConfidenceModel | null): void {
  model = m;
}

/**
 * Confidence of a few words, or of text in no language the engine reads, with no strong reason (a vague one-liner, a
 * message in Russian): below any decision with evidence of its own.
 */
const THIN_EVIDENCE_CAP = 0.8;
const THIN_REASON = 20;

function loadShipped(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- read on first use, so a cold start that never needs it does not parse it
  const m = require('./confidence-model.json') as ConfidenceModelFile;
  if (m.features.join() !== CONFIDENCE_FEATURES.join() || typeof m.ranked_task !== 'number')
    throw new Error('confidence-model.json: its features or fields differ from the code: retrain');
  model = { weights: m.weights, ordinal: m.ordinal, ranked_task: m.ranked_task };
}

export function confidenceOf(input: ConfidenceInput): number {
  const { ranked_task, ordinal, weights } = currentConfidenceModel();
  let c: number;
  const ranked = rankedKind(input);
  if (ranked === 'internal') c = bandFits('internal', ordinal.internal, input.score, input.reasons);
  else if (ranked === 'task') c = ranked_task;
  else {
    const f = confidenceFeatures(input, ordinal);
    let z = 0;
    for (let i = 0; i < f.length; i++) z += weights[i] * f[i];
    c = sigmoid(z);
  }
  if ((input.words < 6 || input.unread === true) && input.reasons.every((r) => Math.abs(r.weight) < THIN_REASON))
    c = Math.min(c, THIN_EVIDENCE_CAP);
  return statedConfidence(c);
}
