// The writer's tone, from the reasons the text already gave: no second pass over the text.
import type { Reason } from '../decision';

export type Sentiment = 'negative' | 'neutral' | 'positive';

const NEGATIVE: ReadonlySet<string> = new Set([
  'FRUSTRATION',
  'LEGAL_THREAT',
  'CHURN_LANGUAGE',
  'REFUND_DEMAND',
  'REPEATED_CONTACT',
  'SHOUTING',
  'PAYMENT_FAILURE',
  'OUTAGE_LANGUAGE',
]);
const POSITIVE: ReadonlySet<string> = new Set(['GRATITUDE_CLOSURE', 'POSITIVE_FEEDBACK']);
/** Text from machines or bulk senders has no writer's tone. */
const NO_TONE: ReadonlySet<string> = new Set([
  'SPAM_MODEL',
  'NEWSLETTER_LANGUAGE',
  'AUTOMATED_NOTIFICATION',
  'AUTO_REPLY',
  'INTERNAL_ALERT',
]);

export function sentimentOf(reasons: readonly Reason[]): Sentiment {
  let negative = 0;
  let positive = 0;
  for (const r of reasons) {
    if (NO_TONE.has(r.code)) return 'neutral';
    if (NEGATIVE.has(r.code)) negative += Math.abs(r.weight);
    else if (POSITIVE.has(r.code)) positive += Math.abs(r.weight);
  }
  if (negative > positive) return 'negative';
  if (positive > negative) return 'positive';
  return 'neutral';
}
