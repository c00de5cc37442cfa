// The writer's tone, from the reasons the text already gave: no second pass over the text. Which codes show which
// tone is each code's `tone` trait in reason-codes.ts.
import type { Reason } from '../decision';
import { codesWhere } from './reason-codes';

type Sentiment = 'negative' | 'neutral' | 'positive';

const NEGATIVE: ReadonlySet<string> = codesWhere((i) => i.tone === 'negative');
const POSITIVE: ReadonlySet<string> = codesWhere((i) => i.tone === 'positive');
/** Text from machines or bulk senders has no writer's tone. */
const NO_TONE: ReadonlySet<string> = codesWhere((i) => i.tone === 'none');

export function sentimentOf(reasons: readonly Reason[]): Sentiment {
  let negative = 0;
  let positive = 0;
  for (const r of reasons) {
    const code: string = r.code;
    if (NO_TONE.has(code)) return 'neutral';
    if (NEGATIVE.has(code)) negative += Math.abs(r.weight);
    else if (POSITIVE.has(code)) positive += Math.abs(r.weight);
  }
  if (negative > positive) return 'negative';
  if (positive > negative) return 'positive';
  return 'neutral';
}
