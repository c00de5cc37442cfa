// A reason while the scoring phases still weigh it.
import type { Category } from '../decision';
import type { ReasonCode } from './reason-codes';

export interface Draft {
  code: ReasonCode;
  weight: number;
  message: string;
  /** Category evidence this reason carries (for TAG_TOPIC, the tag's category). */
  category?: Category;
  problem?: boolean;
  /** Outweighed by bulk evidence: still listed, but no category evidence. */
  discounted?: boolean;
  /** The author's label (metadata.severity or .priority): it ranks the signal, but names no category on its own. */
  authorLabel?: boolean;
}
