// The priority a workspace learned from its own history (issue 31; docs/decision-engine.md, "Warm: a workspace's own
// priorities"). For a signal like what the workspace was taught (predict.ts's out-of-distribution check, its bar a
// little lower for the priority), each taught priority's chance starts from how often the workspace gave it (its
// `docs`: a prior, not a tie-break), and the words move it by a tempered naive Bayes score (a naive Bayes share of 0.99
// is right far less often), more so the more it was taught. The layer (workspace-layer.ts) overrides the global
// priority only where the learned priority's chance is higher than the global one's, and states the chance of the
// priority decided as the decision's confidence: P(the taught priority is right). With few examples the prior is thin
// and the confidence says so (at most n / (n + 1) for a priority taught n times). Deterministic.
import type { Priority } from '../decision';
import type { WorkspaceModel } from './model';
import { labelScores } from './predict';
import type { Sketch } from './sketch';

// Chosen on the development alert and bug sources' warm split (bin/eval/warm-sources.ts; docs/decision-engine.md,
// "Warm: a workspace's own priorities"), by the log loss of the taught priority over all 23 sources.
/** Nats of evidence per nat of the plain naive Bayes text log-likelihood, with plenty of teaching. */
export const PRIORITY_TEMPER = 0.05;
/** Taught signals at which the text gets half its say: fewer, and the label frequencies decide more. */
export const PRIORITY_TEACHING_HALF = 300;
/**
 * The out-of-distribution bar is this much lower (nats per feature) for the priority than for a category: a report
 * from the same tracker shares fewer words with its priority's reports than a query with its intent's.
 */
export const PRIORITY_GATE_LOWER = 0.2;

const RANK: Record<Priority, number> = { low: 0, medium: 1, high: 2, critical: 3 };
const isPriority = (label: string): label is Priority => Object.hasOwn(RANK, label);

export interface LearnedPriority {
  /** The most likely taught priority. */
  label: Priority;
  /** Chance of each taught priority (0 for one never taught). */
  chances: Record<Priority, number>;
  /** Expected rank (low 0 ... critical 3): orders signals inside a band. */
  rank: number;
  /** Decisions taught with the chosen priority, and with any priority. */
  docs: number;
  total: number;
}

/** The workspace's priority for a signal like what it was taught; undefined for one unlike it or with none taught. */
export function learnedPriority(
  model: WorkspaceModel,
  sketch: Sketch,
  temper: number = PRIORITY_TEMPER,
): LearnedPriority | undefined {
  const scores = labelScores(model, 'priority', sketch, PRIORITY_GATE_LOWER)?.filter(
    (s) => isPriority(s.label) && s.docs > 0,
  );
  if (scores === undefined || scores.length === 0) return undefined;
  let total = 0;
  for (const s of scores) total += s.docs;
  // The prior: each priority's share of what was taught; the text's say grows with the teaching.
  const say = (temper * total) / (total + PRIORITY_TEACHING_HALF);
  let top = -Infinity;
  for (const s of scores) top = Math.max(top, s.text);
  const z = scores.map((s) => say * (s.text - top) + Math.log((s.docs + 0.5) / (total + 0.5 * scores.length)));
  const zTop = Math.max(...z);
  let sum = 0;
  for (const v of z) sum += Math.exp(v - zTop);
  const chances: Record<Priority, number> = { low: 0, medium: 0, high: 0, critical: 0 };
  let best = 0;
  let rank = 0;
  scores.forEach((s, i) => {
    const p = Math.exp(z[i] - zTop) / sum;
    chances[s.label as Priority] = p;
    rank += p * RANK[s.label as Priority];
    if (z[i] > z[best] || (z[i] === z[best] && s.label < scores[best].label)) best = i;
  });
  return { label: scores[best].label as Priority, chances, rank, docs: scores[best].docs, total };
}

/** P(the taught priority is right): its chance, at most n / (n + 1) for a priority taught n times. */
export function learnedPriorityConfidence(p: LearnedPriority, priority: Priority): number {
  const docs = p.label === priority ? p.docs : Math.round(p.chances[priority] * p.total);
  const c = Math.min(p.chances[priority], docs / (docs + 1));
  return Math.round(Math.max(0.05, Math.min(0.99, c)) * 100) / 100;
}

/**
 * Where in the band of `priority` (its [lo, hi] score range) a learned priority puts the signal: by its expected rank,
 * so signals the workspace reads as more serious score higher inside the same band.
 */
export function scoreInBand(p: LearnedPriority, priority: Priority, [lo, hi]: [number, number]): number {
  const frac = Math.max(0, Math.min(1, p.rank - RANK[priority] + 0.5));
  return Math.round(lo + frac * (hi - lo));
}
