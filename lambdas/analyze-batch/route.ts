// POST /api/v1/signals/analyze-batch
import type { Dependencies } from '../dependencies';
import { type Check, type RouteHandler, apiHandler } from '../http/api-handler';
import { ApiError, validInput } from '../http/errors';
import { idempotencyRequest } from '../application/analyze-signal';
import { validateIdempotencyKey, validateSignal } from '../http/signal-schema';
import { analyzeBatch } from '../application/analyze-batch';
import { BATCH_LIMITS, validateEnvelope } from './batch-envelope';

// Each signal names its own workspace: refused per item by the use case, after the rate limit per signal.
const CHECKS: Check[] = ['key', 'scope', { jsonBody: { maxBytes: BATCH_LIMITS.bodyBytes } }];

export function analyzeBatchRoute(deps: Dependencies): RouteHandler {
  const { decisionBatch, workspaceAccess, workspaces, telemetry } = deps;
  return apiHandler(deps, CHECKS, async ({ event, principal, forbiddenKeys, consumeRateLimit }) => {
    const nowMs = Date.now();
    const idempotencyKey = event.headers['idempotency-key'];
    const { items: signals } = validInput(
      validateEnvelope(event.body),
      validateIdempotencyKey(idempotencyKey),
      forbiddenKeys,
    );

    // docs/partners.md, Scopes and rate limits: a batch takes one request of the key's limit per signal, after its envelope is valid and
    // before any per-item check; a refusal stores nothing.
    await consumeRateLimit(signals.length);

    const outcome = await analyzeBatch(
      signals,
      principal,
      { validateSignal, workspaceAccess, workspaces, store: decisionBatch },
      {
        nowMs,
        idempotency: idempotencyKey !== undefined ? idempotencyRequest(idempotencyKey, event.body) : undefined,
      },
    );
    if (outcome.kind === 'conflict') throw new ApiError('IDEMPOTENCY_CONFLICT');
    const replayed = outcome.kind === 'replayed';
    telemetry.logger.info(replayed ? 'batch replayed' : 'batch stored', {
      partner_id: principal.partner_id,
      signals: signals.length,
      decision_ids: outcome.data.flatMap((item) => ('decision' in item ? [item.decision.decision_id] : [])),
    });
    if (!replayed)
      for (const item of outcome.data) if ('decision' in item) telemetry.count('decisions', item.decision.priority);
    return {
      statusCode: 200,
      body: { object: 'list', data: outcome.data },
      headers: replayed ? { 'Idempotent-Replayed': 'true' } : undefined,
    };
  });
}
