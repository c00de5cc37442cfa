// POST /api/v1/signals/analyze
import { sharedDecisionStore } from '../stores/shared-stores';
import { apiHandler } from '../http/api-handler';
import { ApiError } from '../http/errors';
import { countWithDimension, logger } from '../observability';
import { analyzeSignal, idempotencyRequest } from './analyze-signal';
import { validateIdempotencyKey, validateSignal } from './signal-schema';

export const handler = apiHandler(
  async ({ event, principal, requestId }) => {
    const nowMs = Date.now();
    const body = event.body as Record<string, unknown> | null;
    // Row 6 of the refusal order: a workspace the key has no grant for, before any other validation.
    const workspaceId = body && typeof body === 'object' ? body.workspace_id : undefined;
    if (typeof workspaceId === 'string' && !principal.workspaces.includes(workspaceId)) {
      throw new ApiError('WORKSPACE_NOT_ALLOWED');
    }

    const idempotencyKey = event.headers['idempotency-key'];
    const validation = validateSignal(body, nowMs);
    const keyProblem = validateIdempotencyKey(idempotencyKey);
    if (!validation.ok || keyProblem) {
      throw new ApiError('VALIDATION_ERROR', undefined, [
        ...(validation.ok ? [] : validation.details),
        ...(keyProblem ? [keyProblem] : []),
      ]);
    }

    const { decision, replayed } = await analyzeSignal(validation.signal, principal, sharedDecisionStore(), {
      nowMs,
      idempotency: idempotencyKey !== undefined ? idempotencyRequest(idempotencyKey, body) : undefined,
    });
    logger.info(replayed ? 'decision replayed' : 'decision stored', {
      request_id: requestId,
      decision_id: decision.decision_id,
      partner_id: principal.partner_id,
      priority: decision.priority,
    });
    if (!replayed) countWithDimension('Decisions', 'priority', decision.priority);
    return { statusCode: 200, body: decision, headers: replayed ? { 'Idempotent-Replayed': 'true' } : undefined };
  },
  { auth: true, jsonBody: true },
);
