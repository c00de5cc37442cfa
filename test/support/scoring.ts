// The engine's scoring as its unit tests call it: signals written without a workspace or a receipt time.
import { scoreSignal } from '../../lambdas/domain/engine';
import type { Signal } from '../../lambdas/domain/signal';

export type ScoredSignal = Omit<Signal, 'workspace_id' | 'received_at'>;

/** scoreSignal at `now`, each signal in workspace `workspace_id`, received at `received_at`. */
export const scorerAt =
  (now: Date, defaults: Pick<Signal, 'workspace_id' | 'received_at'>) =>
  (signal: ScoredSignal): ReturnType<typeof scoreSignal> =>
    scoreSignal({ ...defaults, ...signal }, now);

/** The reason codes of an assessment, in order. */
export const reasonCodes = (assessment: { reasons: { code: string }[] }): string[] =>
  assessment.reasons.map((r) => r.code);
