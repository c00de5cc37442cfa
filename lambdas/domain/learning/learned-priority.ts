// The priority a workspace learned from its own history (issue 31; docs/decision-engine-warm.md, "Warm: a workspace's
// own priorities"). For a signal like what the workspace was taught (predict.ts's out-of-distribution check, read on
// any taught priority: PRIORITY_LIKE_HISTORY), each taught priority's chance starts from how often the workspace gave
// it (its `docs`: a prior, not a tie-break), and the words move it by a tempered naive Bayes score (a naive Bayes share
// of 0.99 is right far less often), more so the more it was taught. The decision backs off to the workspace's most
// common priority unless another priority's chance beats it by a margin: a constant answer is what a workspace would
// get without learning, so the words must clearly earn a different one. The layer (workspace-layer.ts) then replaces
// the global priority with the decided one, and states the chance of the priority decided as the decision's confidence:
// P(the taught priority is right). When it backed off, that chance is the most common priority's, below the
// favourite's, and with few examples the prior is thin and the confidence says so (at most n / (n + 1) for a priority
// taught n times). Deterministic.
import { type Priority, statedConfidence } from '../decision';
import type { WorkspaceModel } from './model';
import { type HistoryBar, type LabelShare, labelScores } from './predict';
import { modelIndex } from './prediction-index';
import type { Sketch } from './sketch';
import { backgroundPerFeature } from './background';

/** How far the words may move a workspace's own priority frequencies: fitted constants (bin/fit-warm-priority.ts). */
export interface PriorityFit {
  /** Nats of evidence per nat of the plain naive Bayes text log-likelihood, with plenty of teaching. */
  temper: number;
  /** Taught signals at which the text gets half its say: fewer, and the label frequencies decide more. */
  teachingHalf: number;
  /**
   * Nats by which another priority's log chance must beat the most common priority's to be decided instead, with
   * little teaching; the margin halves at `marginHalf` taught signals (the more taught, the surer the words).
   */
  margin: number;
  marginHalf: number;
}

// Fitted by bin/fit-warm-priority.ts on the TAUGHT halves only of the 23 development sources (each split again in two,
// one half teaching the other and back), never on a tested half: temper and half-say by the log loss of the taught
// priority, then the margin by fewest sources below their constant answer. docs/decision-engine-warm.md has the grid
// and the leave-one-source-out check. Refitted under PRIORITY_LIKE_HISTORY: the same constants.
export const PRIORITY_FIT: PriorityFit = { temper: 0.03, teachingHalf: 100, margin: 0.8, marginHalf: 3000 };
/**
 * When a signal is like the history (predict.ts, HistoryBar): the text evidence of any taught priority, not only of the
 * best-scored one (a tracker's report shares fewer words with its own priority's reports than a query with its
 * intent's), against a bar higher for large histories, and no more than 0.3 nats per feature below generic text's
 * evidence (background.ts): words every text has no longer carry ordinary mail and messages over the bar. Chosen by
 * bin/fit-warm-gate.ts --background on the inner splits of the taught halves, among tests that let through no more
 * unlike text (generic and business text of the other kind) than the one before: docs/decision-engine-warm.md, "Warm".
 */
export const PRIORITY_LIKE_HISTORY: HistoryBar = {
  bar: 0.4,
  perLengthDecade: 0,
  perSizeDecade: 0.2,
  background: -0.3,
};
/** A workspace sketching in format 1 (made before format 2) has no background: the test before it, as it was. */
const PRIORITY_LIKE_HISTORY_FORMAT_1: HistoryBar = { bar: 0.65, perLengthDecade: -0.5, perSizeDecade: 0.2 };

const RANK: Record<Priority, number> = { low: 0, medium: 1, high: 2, critical: 3 };
const isPriority = (label: string): label is Priority => Object.hasOwn(RANK, label);

export interface LearnedPriority {
  /** The priority decided: the most common taught one unless another beats it by the margin. */
  label: Priority;
  /** The workspace's most common taught priority (ties to the one that sorts first). */
  common: Priority;
  /** Chance of each taught priority (0 for one never taught). */
  chances: Record<Priority, number>;
  /** Expected rank (low 0 ... critical 3): orders signals inside a band. */
  rank: number;
  /** Decisions taught with the decided priority, and with any priority. */
  docs: number;
  total: number;
}

/** The decision from the taught priorities' naive Bayes scores (labelScores), pure. */
export function decidePriority(
  scores: readonly Pick<LabelShare, 'label' | 'text' | 'docs'>[],
  fit: PriorityFit = PRIORITY_FIT,
): LearnedPriority | undefined {
  const live = scores.filter((s) => isPriority(s.label) && s.docs > 0);
  if (live.length === 0) return undefined;
  let total = 0;
  let top = -Infinity;
  let common = 0;
  live.forEach((s, i) => {
    total += s.docs;
    top = Math.max(top, s.text);
    const c = live[common];
    if (s.docs > c.docs || (s.docs === c.docs && s.label < c.label)) common = i;
  });
  // The prior: each priority's share of what was taught; the text's say grows with the teaching.
  const say = (fit.temper * total) / (total + fit.teachingHalf);
  const z = live.map((s) => say * (s.text - top) + Math.log((s.docs + 0.5) / (total + 0.5 * live.length)));
  const zTop = Math.max(...z);
  let sum = 0;
  for (const v of z) sum += Math.exp(v - zTop);
  const chances: Record<Priority, number> = { low: 0, medium: 0, high: 0, critical: 0 };
  let best = common;
  let rank = 0;
  live.forEach((s, i) => {
    const p = Math.exp(z[i] - zTop) / sum;
    chances[s.label as Priority] = p;
    rank += p * RANK[s.label as Priority];
    if (z[i] > z[best] || (z[i] === z[best] && s.label < live[best].label)) best = i;
  });
  const margin = fit.margin / (1 + total / fit.marginHalf);
  const chosen = z[best] - z[common] > margin ? best : common;
  return {
    label: live[chosen].label as Priority,
    common: live[common].label as Priority,
    chances,
    rank,
    docs: live[chosen].docs,
    total,
  };
}

/** The workspace's priority for a signal like what it was taught; undefined for one unlike it or with none taught. */
export function learnedPriority(
  model: WorkspaceModel,
  sketch: Sketch,
  signal: { subject?: string; body?: string },
  /** signalText(signal), where the caller has it already. */
  text?: string,
  fit: PriorityFit = PRIORITY_FIT,
): LearnedPriority | undefined {
  const scores =
    sketch.f === 2
      ? labelScores(model, 'priority', sketch, PRIORITY_LIKE_HISTORY, () =>
          backgroundPerFeature({ subject: signal.subject, body: signal.body }, text),
        )
      : labelScores(model, 'priority', sketch, PRIORITY_LIKE_HISTORY_FORMAT_1);
  return scores === undefined ? undefined : decidePriority(scores, fit);
}

/**
 * Whether the learned priority replaces the global one: whenever they differ. The global priority is one more
 * candidate, kept when the rule decides it; keeping it whenever its chance beat the decided one's undid the back-off
 * (a global priority the words slightly favour over the most common one), and lost to the constant answer.
 */
export const overridesGlobal = (p: LearnedPriority, global: Priority): boolean => p.label !== global;

/** P(the taught priority is right): its chance, at most n / (n + 1) for a priority taught n times. */
export function learnedPriorityConfidence(p: LearnedPriority, priority: Priority): number {
  const docs = p.label === priority ? p.docs : Math.round(p.chances[priority] * p.total);
  const c = Math.min(p.chances[priority], docs / (docs + 1));
  return statedConfidence(c);
}

/** How much a workspace's own rate of a priority weighs in the confidence of a signal unlike its history. */
export interface UnlikeRate {
  /** Weight of the rate with plenty of teaching (the global confidence has the rest). */
  weight: number;
  /** Taught signals at which the rate has half that weight: one feedback barely moves the confidence. */
  teachingHalf: number;
}
// Chosen by bin/fit-warm-unlike-confidence.ts on the inner splits of the taught halves (docs/decision-engine-warm.md,
// "Warm").
const UNLIKE_RATE: UnlikeRate = { weight: 1, teachingHalf: 100 };

/**
 * The confidence of a signal unlike the history, in a workspace that taught priorities. It keeps the global priority
 * (docs/partners.md, "Importing your history, and forgetting it"), but whether it is right is the workspace's question:
 * how often it gave that priority ((docs + 0.5) / (taught + 2), smoothed over the four) is weighed in beside the global
 * confidence, the more the more it taught. Undefined where no priority was taught.
 */
export function unlikeConfidence(
  model: WorkspaceModel,
  priority: Priority,
  confidence: number,
  fit: UnlikeRate = UNLIKE_RATE,
): number | undefined {
  let taught = 0;
  let same = 0;
  // The priority labels from prediction's index (the layer has read it already): not a walk over every field's labels.
  for (const l of modelIndex(model).fields.priority.labels)
    if (isPriority(l.label) && l.docs > 0) {
      taught += l.docs;
      if (l.label === priority) same += l.docs;
    }
  if (taught === 0) return undefined;
  const w = (fit.weight * taught) / (taught + fit.teachingHalf);
  const c = (1 - w) * confidence + (w * (same + 0.5)) / (taught + 2);
  return statedConfidence(c);
}

/** Where inside its band a learned priority puts a signal's score: a fitted constant (bin/fit-warm-order.ts). */
export interface BandOrder {
  /** Steepness of the logistic curve that spans the band, per unit of the combined order. */
  slope: number;
  /** Weight of the global engine's score (0..100, as a share of the scale, centred) beside the expected rank. */
  globalWeight: number;
}
// Chosen by bin/fit-warm-order.ts on the inner splits of the taught halves (the best mean rho over the 23 development
// sources): docs/decision-engine-warm.md, "Warm".
export const PRIORITY_ORDER: BandOrder = { slope: 1, globalWeight: 0.5 };

/**
 * Where in its band ([lo, hi]) a learned priority puts the signal: by its expected rank and the global engine's score
 * together, through a logistic curve over the band. Every signal the learned priority speaks on is placed this way,
 * whether or not its band moved, so they all share one order: the signals the workspace reads as more serious score
 * higher, and among signals it reads alike the global engine's order decides. The place is an order, not the global
 * engine's points: a learned low sits near the band's middle whatever the global score.
 */
export function scoreInBand(
  p: LearnedPriority,
  [lo, hi]: [number, number],
  globalScore: number,
  order: BandOrder = PRIORITY_ORDER,
): number {
  const g = Math.max(0, Math.min(100, globalScore)) / 100;
  const z = p.rank - RANK[p.label] + order.globalWeight * (g - 0.5);
  return Math.round(lo + (hi - lo) / (1 + Math.exp(-order.slope * z)));
}
