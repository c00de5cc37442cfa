// GET and PUT /api/v1/workspaces/{workspace_id}/policy (contract section 8).
import type { Dependencies } from '../dependencies';
import { AuditEventError, actorForKey } from '../domain/audit';
import type { StoredPolicy } from '../domain/policy';
import type { Principal } from '../authorizer/authorize';
import { type ApiEvent, type RouteHandler, apiHandler } from '../http/api-handler';
import { ApiError } from '../http/errors';
import { WORKSPACE_ID_PATTERN } from '../analyze/signal-schema';
import { POLICY_MAX_BYTES, validatePolicy } from './policy-schema';

const etag = (policy: StoredPolicy) => `"${policy.version}"`;

/** `If-Match: "3"` (quotes optional, a weak `W/` prefix tolerated); undefined when absent, NaN when unreadable. */
export function parseIfMatch(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  const m = /^\s*(?:W\/)?"?(\d{1,15})"?\s*$/.exec(header);
  return m ? Number(m[1]) : Number.NaN;
}

async function allowedWorkspace(deps: Dependencies, event: ApiEvent, principal: Principal): Promise<string> {
  const workspaceId = event.pathParameters?.workspace_id ?? '';
  // A malformed id can have no grant: the same 403 as any workspace the key may not use.
  if (!WORKSPACE_ID_PATTERN.test(workspaceId) || !(await deps.workspaceAccess.allows(principal, workspaceId))) {
    throw new ApiError('WORKSPACE_NOT_ALLOWED');
  }
  return workspaceId;
}

export function getPolicyRoute(deps: Dependencies): RouteHandler {
  return apiHandler(
    async (req) => {
      const policy = await deps.workspaceStore.getPolicy(await allowedWorkspace(deps, req.event, req.principal));
      return { statusCode: 200, body: policy, headers: { ETag: etag(policy) } };
    },
    { auth: true, jsonBody: false },
    { telemetry: deps.telemetry, rateLimiter: deps.rateLimiter },
  );
}

export function putPolicyRoute(deps: Dependencies): RouteHandler {
  return apiHandler(
    async (req) => {
      const workspaceId = req.event.pathParameters?.workspace_id ?? '';
      const validation = validatePolicy(req.event.body);
      const ifMatch = parseIfMatch(req.event.headers['if-match']);
      if (!validation.ok || req.forbiddenKeys.length || Number.isNaN(ifMatch)) {
        throw new ApiError('VALIDATION_ERROR', undefined, [
          ...req.forbiddenKeys.map((field) => ({ field, message: 'is not a field of a policy' })),
          ...(validation.ok ? [] : validation.details),
          ...(Number.isNaN(ifMatch) ? [{ field: 'If-Match', message: 'must be a policy version, e.g. "3"' }] : []),
        ]);
      }
      const result = await deps.workspaceStore
        .putPolicy(workspaceId, validation.policy, ifMatch, new Date().toISOString(), { actor: actorForKey(req.principal.key_id) })
        .catch((err: unknown) => {
          // The audit log refuses a policy holding an API key (in a keyword, say): so does the route, as bad input.
          if (err instanceof AuditEventError) throw new ApiError('VALIDATION_ERROR', undefined, [{ field: 'policy', message: 'must not hold an API key' }]);
          throw err;
        });
      if (result.kind === 'precondition_failed') throw new ApiError('PRECONDITION_FAILED');
      deps.workspaces.invalidate(workspaceId);
      deps.telemetry.logger.info('policy stored', { workspace_id: workspaceId, version: result.policy.version });
      return { statusCode: 200, body: result.policy, headers: { ETag: etag(result.policy) } };
    },
    {
      auth: true,
      jsonBody: true,
      maxBodyBytes: POLICY_MAX_BYTES,
      // The workspace is in the path: 403 comes before the body's 413, 415 and 400 (contract section 12).
      beforeBody: async (event, principal) => {
        await allowedWorkspace(deps, event, principal);
      },
    },
    { telemetry: deps.telemetry, rateLimiter: deps.rateLimiter },
  );
}
