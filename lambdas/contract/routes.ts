// The one route table. The CDK stack creates an HTTP API route and a Lambda per entry; local mode dispatches to the
// service's handler of the same id through the same matching. Pure data and matching: no CDK or AWS SDK imports.

export const API_BASE_PATH = '/api/v1';

export type RouteId = 'Analyze' | 'GetDecision' | 'GetPolicy' | 'PutPolicy' | 'Feedback';

/** Key scopes (contract section 11): each route needs exactly one. */
export type Scope = 'analyze' | 'read' | 'feedback' | 'policy';
export const SCOPES: readonly Scope[] = ['analyze', 'read', 'feedback', 'policy'];

export interface RouteDefinition {
  /** Logical id: names the Lambda in the stack and the handler in the service object. */
  id: RouteId;
  method: 'GET' | 'POST' | 'PUT';
  /** HTTP API path with `{param}` placeholders. */
  path: string;
  /** Lambda entry module, relative to the repository root; it exports `handler`. */
  entry: string;
  /** The key scope the route needs. */
  scope: Scope;
  /** Table access the route's Lambda gets (least privilege). */
  decisions: 'read' | 'write';
}

export const ROUTES: readonly RouteDefinition[] = [
  {
    id: 'Analyze',
    method: 'POST',
    path: `${API_BASE_PATH}/signals/analyze`,
    entry: 'lambdas/analyze/handler.ts',
    scope: 'analyze',
    decisions: 'write',
  },
  {
    id: 'GetDecision',
    method: 'GET',
    path: `${API_BASE_PATH}/decisions/{decision_id}`,
    entry: 'lambdas/get-decision/handler.ts',
    scope: 'read',
    decisions: 'read',
  },
  {
    id: 'GetPolicy',
    method: 'GET',
    path: `${API_BASE_PATH}/workspaces/{workspace_id}/policy`,
    entry: 'lambdas/policy/get/handler.ts',
    // Contract section 8: reading a policy needs `read`; replacing it needs `policy`.
    scope: 'read',
    decisions: 'read',
  },
  {
    id: 'PutPolicy',
    method: 'PUT',
    path: `${API_BASE_PATH}/workspaces/{workspace_id}/policy`,
    entry: 'lambdas/policy/put/handler.ts',
    scope: 'policy',
    decisions: 'write',
  },
  {
    id: 'Feedback',
    method: 'POST',
    path: `${API_BASE_PATH}/decisions/{decision_id}/feedback`,
    entry: 'lambdas/feedback/handler.ts',
    scope: 'feedback',
    decisions: 'write',
  },
];

/** Every route above sits behind the authorizer; the fallback (`$default`) answers 404/405 with no key needed. */
export const AUTHORIZER_ENTRY = 'lambdas/authorizer/handler.ts';
export const FALLBACK_ENTRY = 'lambdas/fallback/handler.ts';

export type RouteMatch =
  | { kind: 'route'; route: RouteDefinition; pathParameters: Record<string, string> }
  | { kind: 'method_not_allowed'; allow: string[] }
  | { kind: 'not_found' };

const compiled = ROUTES.map((route) => {
  const names: string[] = [];
  const source = route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_m, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { route, names, pattern: new RegExp(`^${source}$`) };
});

/** Matches like API Gateway: exact path segments, `{param}` matches one non-empty segment. */
export function matchRoute(method: string, path: string): RouteMatch {
  const allow: string[] = [];
  for (const { route, names, pattern } of compiled) {
    const m = pattern.exec(path);
    if (!m) continue;
    if (route.method === method.toUpperCase()) {
      const pathParameters: Record<string, string> = {};
      names.forEach((name, i) => {
        pathParameters[name] = safeDecode(m[i + 1]);
      });
      return { kind: 'route', route, pathParameters };
    }
    allow.push(route.method);
  }
  return allow.length ? { kind: 'method_not_allowed', allow } : { kind: 'not_found' };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
