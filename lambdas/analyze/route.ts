// POST /api/v1/signals/analyze
import type { RouteDependencies } from '../dependencies';
import { replayAllowedFor } from '../application/replay-access';
import { type Check, type RouteHandler, apiHandler } from '../http/api-handler';
import { ApiError, validInput } from '../http/errors';
import { analyzeSignal, idempotencyRequest } from '../application/analyze-signal';
import { validateIdempotencyKey, validateSignal } from '../http/signal-schema';

const CHECKS: Check[] = ['key', 'scope', 'rate-limit', { jsonBody: {} }, { workspace: 'body' }];

export function analyzeRoute(deps: RouteDependencies<'decisionStore' | 'workspaces'>): RouteHandler {
  const { decisionStore, workspaces, workspaceAccess, telemetry } = deps;
  return apiHandler(deps, CHECKS, async ({ event, principal, forbiddenKeys, receivedAtMs, logInfo }) => {
    // The decision's time is the request's receipt, as its default `received_at` (docs/partners.md, "The signal").
    const nowMs = receivedAtMs;
    const body = event.body;
    const idempotencyKey = event.headers['idempotency-key'];
    const { signal } = validInput(
      validateSignal(body, nowMs),
      validateIdempotencyKey(idempotencyKey),
      forbiddenKeys,
      body,
    );
    const outcome = await analyzeSignal(signal, principal, decisionStore, {
      nowMs,
      workspace: await workspaces.get(signal.workspace_id),
      idempotency: idempotencyKey !== undefined ? idempotencyRequest(idempotencyKey, body) : undefined,
    });
    if (outcome.kind === 'conflict') throw new ApiError('IDEMPOTENCY_CONFLICT');
    const { decision } = outcome;
    const replayed = outcome.kind === 'replayed';
    if (replayed && !(await replayAllowedFor(workspaceAccess, principal, decision.workspace_id)))
      throw new ApiError('WORKSPACE_NOT_ALLOWED');
    telemetry.tracer.annotate('decision_id', decision.decision_id);
    logInfo(replayed ? 'decision replayed' : 'decision stored', {
      decision_id: decision.decision_id,
      priority: decision.priority,
    });
    if (!replayed) telemetry.count('decisions', decision.priority);
    return { statusCode: 200, body: decision, headers: replayed ? { 'Idempotent-Replayed': 'true' } : undefined };
  });
}
