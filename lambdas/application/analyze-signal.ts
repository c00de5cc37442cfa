// The analyze use case: score a validated signal, build the decision, store it once (or replay an idempotent one).
// It speaks in domain terms; the route maps its outcomes to HTTP.
import { buildDecision, NO_POLICY, type Decision, type DecisionPolicy } from '../domain/decision';
import { newDecisionId } from '../domain/ids';
import { idempotencyRequest } from '../domain/idempotency';
import { canonicalJson } from '../domain/json-walk';
import { type Sketch, encodeSketch, signalText, sketchSignal } from '../domain/learning/sketch';
import type { CachedWorkspace } from '../domain/learning/workspace-cache';
import { applyWorkspace } from '../domain/learning/workspace-layer';
import type { DecisionExtras, DecisionOwner, DecisionStore, IdempotencyRequest, SaveResult } from '../domain/ports';
import { scoreSignal } from '../domain/engine';
import type { Signal } from '../domain/signal';

// Walked without recursion: the batch route hashes its whole body before judging the items.
export { canonicalJson, idempotencyRequest };

/** A decision and the sketch learning keeps with it (only for a workspace that has been loaded). */
function decide(
  signal: Signal,
  decisionId: string,
  nowMs: number,
  ws?: CachedWorkspace,
): { decision: Decision; sketch?: Sketch } {
  const global = scoreSignal(signal, new Date(nowMs));
  // The workspace layer: its policy and what it learned, applied after the global engine (pure).
  const text = ws ? signalText(signal) : '';
  const sketch = ws ? sketchSignal(ws.key, signal, text) : undefined;
  const assessment = ws ? applyWorkspace(global, signal, ws.policy, ws.state.model, sketch, text) : global;
  const policy: DecisionPolicy = ws
    ? { policy_version: ws.policy.version, response_minutes: ws.policy.responseMinutes }
    : NO_POLICY;
  const decision = buildDecision(
    {
      decision_id: decisionId,
      workspace_id: signal.workspace_id,
      source: signal.source,
      received_at: signal.received_at,
      created_at: new Date(nowMs).toISOString(),
    },
    assessment,
    policy,
  );
  return { decision, sketch };
}

/**
 * The decision and what is stored beside it (the learning sketch), for routes that store many at once: no I/O, one
 * call per signal, the same decide() single analyze uses, so a batch stores exactly what analyzing alone would.
 */
export function decideForStore(
  signal: Signal,
  decisionId: string,
  nowMs: number,
  workspace?: CachedWorkspace,
): { decision: Decision; extra: DecisionExtras } {
  const { decision, sketch } = decide(signal, decisionId, nowMs, workspace);
  return { decision, extra: sketch ? { sketch: encodeSketch(sketch) } : {} };
}

export async function analyzeSignal(
  signal: Signal,
  owner: DecisionOwner,
  store: DecisionStore,
  options: { nowMs: number; idempotency?: IdempotencyRequest; workspace?: CachedWorkspace },
): Promise<SaveResult> {
  const { decision, sketch } = decide(signal, newDecisionId(options.nowMs), options.nowMs, options.workspace);
  return store.save(decision, owner, options.idempotency, sketch ? { sketch: encodeSketch(sketch) } : {});
}
