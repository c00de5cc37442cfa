// POST /api/v1/workspaces/{workspace_id}/examples (docs/partners.md, "Importing your history, and forgetting it"): the
// refusals in CHECKS, then the envelope's VALIDATION_ERROR, 429 (one request of the limit per example) and each
// example's own errors.
import { actorForKey } from '../domain/audit';
import { replayAllowedFor } from '../application/replay-access';
import type { RouteDependencies } from '../dependencies';
import { idempotencyRequest } from '../application/analyze-signal';
import { legacyRequestHash, sameRequest } from '../domain/idempotency';
import { ITEM_PREFIX } from '../contract/tables';
import { type Check, type RouteHandler, apiHandler } from '../http/api-handler';
import { ApiError } from '../http/errors';
import { listBodyCheck, takeListBody } from '../http/list-body';
import { importExamples } from './import-examples';
import { importAudit } from '../application/import-examples';
import { IMPORT_BODY } from '../http/import-envelope';

// The workspace is in the path: its 403 before anything about the body.
const CHECKS: Check[] = ['key', 'scope', { workspace: 'path' }, listBodyCheck(IMPORT_BODY)];

export function importExamplesRoute(deps: RouteDependencies<'modelWrites' | 'workspaces'>): RouteHandler {
  const { workspaces, workspaceAccess, modelWrites: store } = deps;
  return apiHandler(deps, CHECKS, async (request) => {
    const { event, principal } = request;
    const nowMs = Date.now();
    const workspaceId = event.pathParameters?.workspace_id ?? '';
    // One request of the key's limit per example, before any example is checked.
    const body = await takeListBody(IMPORT_BODY, request);
    const { items: examples, idempotencyKey } = body;

    // docs/partners.md, "Importing your history, and forgetting it": the path's workspace is part of the request the
    // key covers, so the same key on another workspace is 409 IDEMPOTENCY_CONFLICT, like another body.
    // A version 3 record holds the body's plain SHA-256 alone (docs/deploy.md): it replays for its own workspace only.
    const idem =
      idempotencyKey === undefined
        ? undefined
        : {
            ...idempotencyRequest(idempotencyKey, { workspace_id: workspaceId, body: body.request }),
            legacyRequestHash: legacyRequestHash(body.request),
          };
    const outcome = await importExamples(
      workspaceId,
      examples,
      { workspaces, store },
      {
        nowMs,
        checkItem: body.checkItem,
        itemDetails: body.itemDetails,
        idempotency: idem && {
          pk: `${ITEM_PREFIX.idempotency}${principal.partner_id}#${idem.keyHash}`,
          requestHash: idem.requestHash,
          sameRequest: (stored) => sameRequest(idem, stored),
        },
        audit: importAudit(
          actorForKey(principal.key_id),
          { workspace_id: workspaceId, partner_id: principal.partner_id },
          () => new Date(nowMs),
        ),
      },
    );
    const replayed = outcome.kind === 'replayed';
    if (outcome.kind === 'conflict' || (replayed && outcome.answer.workspace_id !== workspaceId))
      throw new ApiError('IDEMPOTENCY_CONFLICT');
    if (replayed && !(await replayAllowedFor(workspaceAccess, principal, outcome.answer.workspace_id)))
      throw new ApiError('WORKSPACE_NOT_ALLOWED');
    request.logInfo(replayed ? 'import replayed' : 'import learned', {
      workspace_id: workspaceId,
      examples: examples.length,
      learned: outcome.answer.learned,
    });
    return { statusCode: 200, body: outcome.answer, headers: replayed ? { 'Idempotent-Replayed': 'true' } : undefined };
  });
}
