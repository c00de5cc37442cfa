// How likely a careful reviewer keeps the global engine's decision (contract section 4): one logistic regression over
// a few plain facts of the decision, fitted by bin/train-confidence.ts on the training side of bin/data-splits.ts,
// where "kept" means what `npm run eval` measures (spam archived exactly when it is spam; ordinary mail kept; a bug
// report's priority band fitting its tracker priority). It is the one module for the global decision's confidence;
// a label a workspace learned takes its confidence from lambdas/domain/learning/confidence.ts instead.
// Thin evidence (a few words, no strong reason) is capped below any decision with evidence of its own.
import type { Category, Reason } from '../decision';
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
}

const SOURCES: readonly Source[] = ['email', 'support_message', 'task', 'internal', 'crm_event'];
const BAND_EDGES = [35, 60, 80];
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
  'model_doubted',
  'internal_critical',
  'internal_high',
  'internal_medium',
  'internal_low',
  'task_critical',
  'task_high',
  'task_medium',
  'task_low',
  'task_severity_signed',
] as const;
// Alerts and tickets: which band the score fell in (a middle band is kept for more labels than an edge), and for a
// ticket the way the severity model moved it (signed: a ticket it reads as serious lands in a band fewer priorities fit).
const BANDS = ['critical', 'high', 'medium', 'low'] as const;
const bandOf = (score: number) => (score >= 80 ? 0 : score >= 60 ? 1 : score >= 35 ? 2 : 3);

export function confidenceFeatures(c: ConfidenceInput): number[] {
  let strongest = 0;
  let severity = 0; // signed points of SEVERITY_MODEL
  for (const r of c.reasons) {
    strongest = Math.max(strongest, Math.abs(r.weight));
    if (r.code === 'SEVERITY_MODEL') severity = r.weight;
  }
  let band = 100;
  for (const e of BAND_EDGES) band = Math.min(band, Math.abs(c.score - e + 0.5));
  const p = c.spamProbability;
  return [
    1,
    ...SOURCES.map((s) => (s === c.source ? 1 : 0)),
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
    c.modelDoubted === true ? 1 : 0,
    ...BANDS.map((_, i) => (c.source === 'internal' && bandOf(c.score) === i ? 1 : 0)),
    ...BANDS.map((_, i) => (c.source === 'task' && bandOf(c.score) === i ? 1 : 0)),
    c.source === 'task' ? severity / 60 : 0,
  ];
}

interface ConfidenceModelFile {
  features: string[];
  weights: number[];
  trained_on: string;
}
let weights: number[] | null = null;

/** Replaces the weights (the trainer measures a candidate this way); `null` reloads the shipped file. */
export function useConfidenceWeights(w: number[] | null): void {
  weights = w;
}

/** Confidence of a few words with no strong reason (a vague one-liner): below any decision with evidence of its own. */
const THIN_EVIDENCE_CAP = 0.8;
const THIN_REASON = 20;
const clamp = (x: number, lo: number, hi: number) => (x < lo ? lo : x > hi ? hi : x);

export function confidenceOf(input: ConfidenceInput): number {
  if (weights === null) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- read on first use, so a cold start that never needs it does not parse it
    const m = require('./confidence-model.json') as ConfidenceModelFile;
    if (m.features.join() !== CONFIDENCE_FEATURES.join())
      throw new Error('confidence-model.json: its features differ from the code: retrain');
    weights = m.weights;
  }
  const f = confidenceFeatures(input);
  let z = 0;
  for (let i = 0; i < f.length; i++) z += weights[i] * f[i];
  let c = 1 / (1 + Math.exp(-z));
  if (input.words < 6 && input.reasons.every((r) => Math.abs(r.weight) < THIN_REASON))
    c = Math.min(c, THIN_EVIDENCE_CAP);
  return Math.round(clamp(c, 0.05, 0.99) * 100) / 100;
}
