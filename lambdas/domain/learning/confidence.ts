// How sure a decision is when what the workspace learned decided its category (a learned priority states its own
// chance: learned-priority.ts). The global engine's confidence (lambdas/domain/engine/confidence.ts) knows nothing of
// a workspace's teaching, so a learned label takes its confidence from the learned prediction:
//   - the label's share of the learned labels' probability, tempered (naive Bayes shares are overconfident: a
//     share of 0.99 is right far less often than 99 times in 100), and
//   - how many corrections taught the label (more corrections, surer), and at most n / (n + 1) for a label taught n
//     times, so thin teaching gives low confidence: 0.5 after one correction, 0.83 after five, whatever the share.
// Fitted by logistic regression on the fixed held-out split of banking77-train.csv (every 5th line; models taught 10
// per category and the whole pool), see docs/learning.md. The gate's margin was tried as a third input and added
// nothing there. `npm run eval:learning` prints the reliability table over HTTP. Sketch format 2 (character 4-grams)
// makes shares surer, so its constants were refitted on a split of the teaching pool (docs/learning.md, "What was
// tried for few-shot accuracy": format 1's constants came out within 0.1 of the first fit there).
import { statedConfidence } from '../decision';
import type { Prediction } from './predict';

/** Intercept, weight of the share's log-odds (the share clamped to 0.001..0.999 first), weight of ln(corrections + 1). */
const CONSTANTS = {
  1: { intercept: -2.03, share: 0.52, corrections: 0.39 },
  2: { intercept: -2.32, share: 0.46, corrections: 0.39 },
} as const;
const SHARE_CLAMP = 0.001;

const clamp = (x: number, lo: number, hi: number) => (x < lo ? lo : x > hi ? hi : x);

/** 0 to 1, two decimals: how often a learned prediction like this one is right. */
export function learnedConfidence(p: Pick<Prediction, 'probability' | 'docs' | 'format'>): number {
  const c = CONSTANTS[p.format ?? 1];
  const share = clamp(p.probability, SHARE_CLAMP, 1 - SHARE_CLAMP);
  const z = c.intercept + c.share * Math.log(share / (1 - share)) + c.corrections * Math.log(p.docs + 1);
  const calibrated = 1 / (1 + Math.exp(-z));
  const thin = p.docs / (p.docs + 1);
  return statedConfidence(Math.min(calibrated, thin));
}
