// How sure the engine is of its decision, 0 to 1 with two decimals: the product of
//   - how sure it is that the signal needs a human at all (archive or not): the spam model's calibrated probability,
//     for the reading it chose; 0.97 when the model did not run (internal signals, vouched senders); at least 0.9
//     when the rules decided against the model: an archive by bulk or notification wording, or a short text whose
//     own evidence (an outage, a sales enquiry) set the model's doubtful spam vote aside;
//   - how sure it is of the category (and with it the queue and priority): from the margin between the chosen
//     category's evidence and the runner-up's. Thin evidence (no reason, or one weak one) and conflicting evidence
//     (a runner-up almost as strong) keep this factor near its floor.
// The constants were set on the dev split (bin/data-splits.ts); `npm run eval` prints the reliability on the test
// split. The labels there judge the archive call only, so the category factor is the part they cannot confirm.
import type { Category } from '../decision';

export interface ConfidenceInput {
  category: Category;
  archived: boolean;
  /** Evidence of the chosen category and of the runner-up (sum of |weights|, strongest full, others half). */
  best: number;
  second: number;
  /** The spam model's probability, or null when it did not run. */
  spamProbability: number | null;
  /** A short text's own evidence set the model's doubtful spam vote aside. */
  modelDoubted?: boolean;
}

/** The category factor with no margin at all, and how fast the margin lifts it to 1. */
const CATEGORY_FLOOR = 0.9;
const MARGIN_SCALE = 20;
const WITHOUT_MODEL = 0.97;
/** The floor of the first factor when the rules decided against the model's reading. */
const RULES_OVER_MODEL = 0.9;

const clamp = (x: number, lo: number, hi: number) => (x < lo ? lo : x > hi ? hi : x);

export function confidenceOf(input: ConfidenceInput): number {
  const { category, archived, best, second, spamProbability, modelDoubted } = input;
  let needsHuman: number;
  const p = spamProbability;
  if (p === null) needsHuman = WITHOUT_MODEL;
  else if (category === 'spam') needsHuman = p;
  else if (archived) needsHuman = Math.max(p, RULES_OVER_MODEL);
  else needsHuman = modelDoubted === true ? Math.max(1 - p, RULES_OVER_MODEL) : 1 - p;
  const margin = category === 'general' ? 0 : best - second;
  const categoryFactor = CATEGORY_FLOOR + (1 - CATEGORY_FLOOR) * (1 - Math.exp(-margin / MARGIN_SCALE));
  return Math.round(clamp(needsHuman * categoryFactor, 0.05, 0.99) * 100) / 100;
}
