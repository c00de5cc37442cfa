// GET and PUT /api/v1/workspaces/{workspace_id}/policy (docs/partners.md, Workspace policy).
import type { RouteDependencies } from '../dependencies';
import { actorForKey } from '../domain/audit';
import type { StoredPolicy } from '../domain/policy';
import { readPolicy, replacePolicy } from '../application/policy';
import { type ApiEvent, type Check, type RouteHandler, apiHandler } from '../http/api-handler';
import { ApiError, validInput } from '../http/errors';
import { POLICY_MAX_BYTES, validatePolicy } from '../http/policy-schema';

const etag = (policy: Pick<StoredPolicy, 'version'>) => `"${policy.version}"`;

/**
 * `If-Match: "3"` (quotes optional, a weak `W/` prefix tolerated); undefined when absent or `*` (HTTP's "any current
 * version": a workspace's policy always has one, 0 before its first PUT), NaN when unreadable.
 */
function parseIfMatch(header: string | undefined): number | undefined {
  if (header === undefined || header.trim() === '*') return undefined;
  const m = /^\s*(?:W\/)?"?(\d{1,15})"?\s*$/.exec(header);
  return m ? Number(m[1]) : Number.NaN;
}

/** The workspace in the path; the pipeline's workspace check has allowed it. */
const workspaceOf = (event: ApiEvent): string => event.pathParameters?.workspace_id ?? '';

export function getPolicyRoute(deps: RouteDependencies<'workspaceStore' | 'workspaces'>): RouteHandler {
  return apiHandler(deps, ['key', 'scope', 'rate-limit', { workspace: 'path' }], async ({ event }) => {
    const policy = await readPolicy(deps, workspaceOf(event));
    return { statusCode: 200, body: policy, headers: { ETag: etag(policy) } };
  });
}

// The workspace is in the path: its 403 comes before the body's 413, 415 and 400.
const PUT_CHECKS: Check[] = [
  'key',
  'scope',
  'rate-limit',
  { workspace: 'path' },
  { jsonBody: { maxBytes: POLICY_MAX_BYTES } },
];

export function putPolicyRoute(deps: RouteDependencies<'workspaceStore' | 'workspaces'>): RouteHandler {
  return apiHandler(deps, PUT_CHECKS, async ({ event, principal, forbiddenKeys, logInfo }) => {
    const workspaceId = workspaceOf(event);
    const ifMatch = parseIfMatch(event.headers['if-match']);
    const { policy } = validInput(
      validatePolicy(event.body),
      Number.isNaN(ifMatch) ? { field: 'If-Match', message: 'must be a policy version, e.g. "3"' } : undefined,
      forbiddenKeys,
      event.body,
    );
    const result = await replacePolicy(deps, workspaceId, policy, ifMatch, new Date(), {
      actor: actorForKey(principal.key_id),
      partner_id: principal.partner_id,
    });
    // The current version as its ETag: the client that lost the race knows what to read, and whether it changed since.
    if (result.kind === 'precondition_failed')
      throw new ApiError('PRECONDITION_FAILED', undefined, undefined, { ETag: etag(result) });
    logInfo('policy stored', { workspace_id: workspaceId, version: result.policy.version });
    return { statusCode: 200, body: result.policy, headers: { ETag: etag(result.policy) } };
  });
}
