// POST /api/v1/signals/analyze-batch
import type { Dependencies } from '../dependencies';
import { type RouteHandler, apiHandler } from '../http/api-handler';
import { ApiError } from '../http/errors';
import { idempotencyRequest } from '../analyze/analyze-signal';
import { validateIdempotencyKey } from '../analyze/signal-schema';
import { analyzeBatch } from './analyze-batch';
import { BATCH_BODY_LIMIT, validateEnvelope } from './batch-envelope';

export function analyzeBatchRoute({ decisionBatch, workspaceAccess, workspaces, telemetry, rateLimiter }: Dependencies): RouteHandler {
  return apiHandler(
    async ({ event, principal, forbiddenKeys, consumeRateLimit }) => {
      const nowMs = Date.now();
      const idempotencyKey = event.headers['idempotency-key'];
      const envelope = validateEnvelope(event.body);
      const keyProblem = validateIdempotencyKey(idempotencyKey);
      if (!envelope.ok || keyProblem || forbiddenKeys.length) {
        throw new ApiError('VALIDATION_ERROR', undefined, [
          ...forbiddenKeys.map((field) => ({ field, message: 'this key is not allowed' })),
          ...(envelope.ok ? [] : envelope.details),
          ...(keyProblem ? [keyProblem] : []),
        ]);
      }

      // Contract section 11: a batch takes one request of the key's limit per signal, after its envelope is valid and
      // before any per-item check; a refusal stores nothing.
      await consumeRateLimit(envelope.signals.length);

      const outcome = await analyzeBatch(envelope.signals, principal, { workspaceAccess, workspaces, store: decisionBatch }, {
        nowMs,
        idempotency: idempotencyKey !== undefined ? idempotencyRequest(idempotencyKey, event.body) : undefined,
      });
      if (outcome.kind === 'conflict') throw new ApiError('IDEMPOTENCY_CONFLICT');
      const replayed = outcome.kind === 'replayed';
      telemetry.logger.info(replayed ? 'batch replayed' : 'batch stored', {
        partner_id: principal.partner_id,
        signals: envelope.signals.length,
        decision_ids: outcome.data.flatMap((item) => ('decision' in item ? [item.decision.decision_id] : [])),
      });
      if (!replayed) for (const item of outcome.data) if ('decision' in item) telemetry.count('decisions', item.decision.priority);
      return {
        statusCode: 200,
        body: { object: 'list', data: outcome.data },
        headers: replayed ? { 'Idempotent-Replayed': 'true' } : undefined,
      };
    },
    { auth: true, jsonBody: true, bodyLimit: BATCH_BODY_LIMIT, rateLimit: 'by-route' },
    { telemetry, rateLimiter },
  );
}
