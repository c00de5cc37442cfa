// POST /api/v1/signals/analyze
import type { Dependencies } from '../dependencies';
import { type RouteHandler, apiHandler } from '../http/api-handler';
import { ApiError } from '../http/errors';
import { analyzeSignal, idempotencyRequest } from './analyze-signal';
import { validateIdempotencyKey, validateSignal } from './signal-schema';

export function analyzeRoute({ decisionStore, workspaceAccess, workspaces, telemetry, rateLimiter }: Dependencies): RouteHandler {
  return apiHandler(
    async ({ event, principal, forbiddenKeys }) => {
      const nowMs = Date.now();
      const body = event.body as Record<string, unknown> | null;
      // The refusal order (docs/partners.md, Errors): a workspace the key has no grant for, before any other validation.
      const workspaceId = body && typeof body === 'object' ? body.workspace_id : undefined;
      if (typeof workspaceId === 'string' && !(await workspaceAccess.allows(principal, workspaceId))) {
        throw new ApiError('WORKSPACE_NOT_ALLOWED');
      }

      const idempotencyKey = event.headers['idempotency-key'];
      const validation = validateSignal(body, nowMs);
      const keyProblem = validateIdempotencyKey(idempotencyKey);
      if (!validation.ok || keyProblem || forbiddenKeys.length) {
        throw new ApiError('VALIDATION_ERROR', undefined, [
          ...forbiddenKeys.map((field) => ({ field, message: 'this key is not allowed' })),
          ...(validation.ok ? [] : validation.details),
          ...(keyProblem ? [keyProblem] : []),
        ]);
      }

      const outcome = await analyzeSignal(validation.signal, principal, decisionStore, {
        nowMs,
        workspace: await workspaces.get(validation.signal.workspace_id),
        idempotency: idempotencyKey !== undefined ? idempotencyRequest(idempotencyKey, body) : undefined,
      });
      if (outcome.kind === 'conflict') throw new ApiError('IDEMPOTENCY_CONFLICT');
      const { decision } = outcome;
      const replayed = outcome.kind === 'replayed';
      telemetry.logger.info(replayed ? 'decision replayed' : 'decision stored', {
        decision_id: decision.decision_id,
        partner_id: principal.partner_id,
        priority: decision.priority,
      });
      if (!replayed) telemetry.count('decisions', decision.priority);
      return { statusCode: 200, body: decision, headers: replayed ? { 'Idempotent-Replayed': 'true' } : undefined };
    },
    { auth: true, jsonBody: true },
    { telemetry, rateLimiter },
  );
}
