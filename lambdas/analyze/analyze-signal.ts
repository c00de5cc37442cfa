// The analyze use case: score a validated signal, build the decision, store it once (or replay an idempotent one).
// It speaks in domain terms; the route maps its outcomes to HTTP.
import { createHash } from 'node:crypto';
import { buildDecision, NO_POLICY, type Decision, type DecisionPolicy } from '../domain/decision';
import { newDecisionId } from '../domain/ids';
import type { DecisionOwner, DecisionStore, IdempotencyRequest } from '../domain/ports';
import { scoreSignal } from '../domain/engine';
import type { Signal } from '../domain/signal';

export type AnalyzeOutcome =
  | { kind: 'created'; decision: Decision }
  | { kind: 'replayed'; decision: Decision }
  /** The Idempotency-Key was used before with another body. */
  | { kind: 'conflict' };

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** JSON with object keys sorted, so the same body with other key order or spacing is the same request. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.keys(value)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
  return `{${entries.join(',')}}`;
}

export function idempotencyRequest(idempotencyKey: string, body: unknown): IdempotencyRequest {
  return { keyHash: sha256(idempotencyKey), requestHash: sha256(canonicalJson(body)) };
}

/** Scores one signal and builds its decision under a workspace's policy: no I/O, one call per signal. */
export function decideSignal(signal: Signal, decisionId: string, nowMs: number, policy: DecisionPolicy = NO_POLICY): Decision {
  return buildDecision(
    {
      decision_id: decisionId,
      workspace_id: signal.workspace_id,
      source: signal.source,
      received_at: signal.received_at,
      created_at: new Date(nowMs).toISOString(),
    },
    scoreSignal(signal, new Date(nowMs)),
    policy,
  );
}

export async function analyzeSignal(
  signal: Signal,
  owner: DecisionOwner,
  store: DecisionStore,
  options: { nowMs: number; idempotency?: IdempotencyRequest; policy?: DecisionPolicy },
): Promise<AnalyzeOutcome> {
  const decision = decideSignal(signal, newDecisionId(options.nowMs), options.nowMs, options.policy);
  return store.save(decision, owner, options.idempotency);
}
