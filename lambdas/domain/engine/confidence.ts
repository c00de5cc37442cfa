// How sure the engine is of its category and priority, from 0 to 1 with two decimals. Inputs: the margin between
// the chosen category's evidence and the runner-up's, how much evidence there is at all, and, when the spam model
// voted, how far its probability is from a coin toss. The mapping was set on the dev split (bin/data-splits.ts);
// `npm run eval` prints its reliability on the test split.
import type { Category, Reason } from '../decision';

export interface ConfidenceInput {
  reasons: readonly Reason[];
  category: Category;
  /** Evidence of the chosen category and of the runner-up (sum of |weights|, strongest full, others half). */
  best: number;
  second: number;
  /** The spam model's probability, or null when it did not run. */
  spamProbability: number | null;
}

const clamp = (x: number, lo: number, hi: number) => (x < lo ? lo : x > hi ? hi : x);

export function confidenceOf(input: ConfidenceInput): number {
  const { reasons, category, best, second, spamProbability } = input;
  let c: number;
  if (category === 'spam' && spamProbability !== null) {
    c = spamProbability;
  } else if (reasons.length === 0 || category === 'general') {
    // Nothing to go on: the default route is often right for plain mail, but we cannot tell.
    c = 0.55;
  } else {
    const margin = best - second;
    c = 0.5 + 0.45 * (1 - Math.exp(-margin / 25));
  }
  // The spam model undecided (0.2..0.8) means the text sits between spam and ordinary mail: conflicting evidence.
  if (spamProbability !== null && spamProbability > 0.2 && spamProbability < 0.8) c = Math.min(c, 0.6);
  return Math.round(clamp(c, 0.05, 0.99) * 100) / 100;
}
