// The analyze use case: score a validated signal, build the decision, store it once (or replay an idempotent one).
// It speaks in domain terms; the route maps its outcomes to HTTP.
import { createHash } from 'node:crypto';
import { buildDecision, type Decision } from '../domain/decision';
import { newDecisionId } from '../domain/ids';
import { sketchSignal, encodeSketch } from '../domain/learning/sketch';
import type { CachedWorkspace } from '../domain/learning/workspace-cache';
import { applyWorkspace, withWorkspaceFields } from '../domain/learning/workspace-layer';
import type { DecisionOwner, DecisionStore, IdempotencyRequest } from '../domain/ports';
import { scoreSignal } from '../domain/scorer';
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

export async function analyzeSignal(
  signal: Signal,
  owner: DecisionOwner,
  store: DecisionStore,
  options: { nowMs: number; idempotency?: IdempotencyRequest; workspace?: CachedWorkspace },
): Promise<AnalyzeOutcome> {
  const global = scoreSignal(signal, new Date(options.nowMs));
  // The workspace layer: its policy and what it learned, applied after the global engine (pure).
  const ws = options.workspace;
  const sketch = ws ? sketchSignal(ws.key, signal) : undefined;
  const layered = ws ? applyWorkspace(global, signal, ws.policy, ws.state.model, sketch) : undefined;
  const assessment = (layered ?? global) as typeof global;
  const built = buildDecision(
    {
      decision_id: newDecisionId(options.nowMs),
      workspace_id: signal.workspace_id,
      source: signal.source,
      received_at: signal.received_at,
      created_at: new Date(options.nowMs).toISOString(),
    },
    assessment,
  );
  const decision = withWorkspaceFields(built, ws?.policy);
  return store.save(decision, owner, options.idempotency, sketch ? { sketch: encodeSketch(sketch) } : {});
}
