// Hand-written signals for the decision engine's unit tests (none taken from the evaluation data sets): the fixed
// clock they are scored at, and the helpers test/unit/scorer-{decisions,reasons,wording,sender-and-metadata} share.
import type { Category, Priority, RecommendedAction } from '../../lambdas/domain/decision';
import type { Signal } from '../../lambdas/domain/signal';
import { scoreSignal } from '../../lambdas/domain/engine';
import { reasonCodes, type ScoredSignal } from './scoring';

export const NOW = new Date('2026-11-21T10:00:00Z');
const JUST_NOW = '2026-11-21T09:58:00Z';
export const hoursFromNow = (h: number) => new Date(NOW.getTime() + h * 3_600_000).toISOString();

/** A signal as these tests write it: the workspace is always the same, the receipt time defaults to just now. */
export type Input = ScoredSignal & { received_at?: string };

export function signal(input: Input): Signal {
  return { workspace_id: 'ws_test', received_at: JUST_NOW, ...input };
}

export const score = (input: Input, now = NOW) => scoreSignal(signal(input), now);
export const codes = (input: Input, now = NOW) => reasonCodes(score(input, now));

/** A row of the table of realistic signals (test/support/scorer-table.ts): a name, a signal, its decision. */
export type Row = [name: string, input: Input, priority: Priority, action: RecommendedAction, category: Category];
