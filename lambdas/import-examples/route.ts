// POST /api/v1/workspaces/{workspace_id}/examples (contract section 13). Order: 401 → 403 ACCOUNT_INACTIVE → 403
// INSUFFICIENT_SCOPE (the chain) → 403 WORKSPACE_NOT_ALLOWED (the path) → 413 → 415 → INVALID_JSON → the envelope's
// VALIDATION_ERROR → 429 (one request of the limit per example) → each example's own errors.
import { actorForKey } from '../domain/audit';
import type { Dependencies } from '../dependencies';
import { idempotencyRequest } from '../analyze/analyze-signal';
import { validateIdempotencyKey } from '../analyze/signal-schema';
import { ITEM_PREFIX } from '../contract/tables';
import { type RouteHandler, apiHandler } from '../http/api-handler';
import { ApiError } from '../http/errors';
import { auditEventPut } from '../stores/audit-log';
import { DynamoModelWriteStore } from '../stores/model-write-store';
import { requireWorkspaceInPath } from './workspace-path';
import { importExamples } from './import-examples';
import { IMPORT_BODY_LIMIT, validateImportEnvelope } from './import-envelope';

export function importExamplesRoute(deps: Dependencies): RouteHandler {
  const { workspaces, telemetry, rateLimiter, settings, client } = deps;
  const store = new DynamoModelWriteStore(client, settings.decisionsTableName);
  return apiHandler(
    async ({ event, principal, forbiddenKeys, consumeRateLimit }) => {
      const nowMs = Date.now();
      const workspaceId = event.pathParameters?.workspace_id ?? '';
      const idempotencyKey = event.headers['idempotency-key'];
      const envelope = validateImportEnvelope(event.body);
      const keyProblem = validateIdempotencyKey(idempotencyKey);
      if (!envelope.ok || keyProblem || forbiddenKeys.length) {
        throw new ApiError('VALIDATION_ERROR', undefined, [
          ...forbiddenKeys.map((field) => ({ field, message: 'this key is not allowed' })),
          ...(envelope.ok ? [] : envelope.details),
          ...(keyProblem ? [keyProblem] : []),
        ]);
      }
      // Contract section 13: one request of the key's limit per example, after the envelope, before any example.
      await consumeRateLimit(envelope.examples.length);

      const idem = idempotencyKey === undefined ? undefined : idempotencyRequest(idempotencyKey, event.body);
      const outcome = await importExamples(workspaceId, envelope.examples, { workspaces, store }, {
        nowMs,
        idempotency: idem && { pk: `${ITEM_PREFIX.idempotency}${principal.partner_id}#${idem.keyHash}`, requestHash: idem.requestHash },
        audit: (counts) =>
          auditEventPut(
            settings.decisionsTableName,
            {
              actor: actorForKey(principal.key_id),
              action: 'model.import',
              target: { workspace_id: workspaceId, partner_id: principal.partner_id },
              before: null,
              after: counts,
            },
            new Date(nowMs),
          ),
      });
      if (outcome.kind === 'conflict') throw new ApiError('IDEMPOTENCY_CONFLICT');
      const replayed = outcome.kind === 'replayed';
      telemetry.logger.info(replayed ? 'import replayed' : 'import learned', {
        workspace_id: workspaceId,
        examples: envelope.examples.length,
        learned: outcome.answer.learned,
      });
      return { statusCode: 200, body: outcome.answer, headers: replayed ? { 'Idempotent-Replayed': 'true' } : undefined };
    },
    {
      auth: true,
      jsonBody: true,
      bodyLimit: IMPORT_BODY_LIMIT,
      rateLimit: 'by-route',
      beforeBody: async (event, principal) => {
        await requireWorkspaceInPath(deps, event, principal);
      },
    },
    { telemetry, rateLimiter },
  );
}
