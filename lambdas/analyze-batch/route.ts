// POST /api/v1/signals/analyze-batch
import type { RouteDependencies } from '../dependencies';
import { type Check, MAX_BODY_BYTES, type RouteHandler, apiHandler } from '../http/api-handler';
import { ApiError, unavailable } from '../http/errors';
import { listBodyCheck, takeListBody } from '../http/list-body';
import { idempotencyRequest } from '../application/analyze-signal';
import { validateSignal } from '../http/signal-schema';
import { analyzeBatch } from '../application/analyze-batch';
import { BATCH_BODY } from './batch-envelope';

// Each signal names its own workspace: refused per item by the use case, after the rate limit per signal.
const CHECKS: Check[] = ['key', 'scope', listBodyCheck(BATCH_BODY)];

/** An item analyze would refuse alone with 413 is this item's own problem (docs/partners.md, "Analyzing in batches"). */
const ALONE_TOO_LARGE = {
  ok: false as const,
  details: [{ field: '(body)', message: 'is larger than 256 KiB as JSON, the limit of a signal analyzed alone' }],
};
const tooLargeAlone = (raw: unknown) => Buffer.byteLength(JSON.stringify(raw)) > MAX_BODY_BYTES;

export function analyzeBatchRoute(deps: RouteDependencies<'decisionBatch' | 'workspaces'>): RouteHandler {
  const { decisionBatch, workspaceAccess, workspaces, telemetry } = deps;
  return apiHandler(deps, CHECKS, async (request) => {
    const { principal } = request;
    // The batch's time is its receipt: its signals' default `received_at`, and the time a replay rebuilds a lost
    // decision with (the idempotency record keeps it as the batch's creation time).
    const nowMs = request.receivedAtMs;
    // One request of the key's limit per signal, before any signal is checked.
    const body = await takeListBody(BATCH_BODY, request);
    const signals = body.items;
    const outcome = await analyzeBatch(
      signals,
      principal,
      {
        validateSignal: (raw, receivedAtMs, index) => {
          // Measured once valid: a valid signal's nesting is bounded, so serializing it cannot overflow the stack.
          const checked = validateSignal(raw, receivedAtMs);
          return body.checkItem(index, checked.ok && tooLargeAlone(raw) ? ALONE_TOO_LARGE : checked);
        },
        workspaceAccess,
        workspaces,
        store: decisionBatch,
      },
      {
        nowMs,
        idempotency:
          body.idempotencyKey !== undefined ? idempotencyRequest(body.idempotencyKey, body.request) : undefined,
      },
    );
    if (outcome.kind === 'conflict') throw new ApiError('IDEMPOTENCY_CONFLICT');
    // The first attempt may still be storing its decisions (docs/partners.md, analyze-batch): the client waits.
    if (outcome.kind === 'in_flight') throw unavailable('batch_in_flight');
    const replayed = outcome.kind === 'replayed';
    // Refused items by code (WORKSPACE_NOT_ALLOWED: 2): on-call's answer to "why did items 3 and 7 fail?".
    const itemErrors: Record<string, number> = {};
    for (const item of outcome.data)
      if ('error' in item) itemErrors[item.error.code] = (itemErrors[item.error.code] ?? 0) + 1;
    request.logInfo(replayed ? 'batch replayed' : 'batch stored', {
      signals: signals.length,
      decision_ids: outcome.data.flatMap((item) => ('decision' in item ? [item.decision.decision_id] : [])),
      ...(Object.keys(itemErrors).length > 0 ? { item_errors: itemErrors } : {}),
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
