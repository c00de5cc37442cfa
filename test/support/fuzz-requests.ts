// fast-check arbitraries of whole HTTP requests for the fuzz test of every route (test/e2e/fuzz-routes.test.ts):
// a route of lambdas/contract/routes.ts (or an unknown path, or a known path with a wrong method), a path with valid,
// foreign or hostile parameters, hostile headers, and a body near the route's own shape with hostile values anywhere
// (deep nesting, huge strings, any code point, prototype keys, wrong types), or no shape at all.
// A `granted` request carries the full-scope key and names only workspaces that key holds (or one of their decisions),
// so it gets past authorization into validation and the engine; the others are refused on the way there.
// The parts live beside it: fuzz-values.ts (the world, hostile values, workspace ids), fuzz-headers.ts, fuzz-bodies.ts
// and fuzz-paths.ts.
import fc from 'fast-check';
import { ROUTES, type RouteDefinition } from '../../lambdas/contract/routes';
import { KiB } from './hostile';
import { hostileJson } from './hostile-arbitraries';
import { type FuzzWorld, grantedWorkspace, hostileWorkspace, json } from './fuzz-values';
import {
  extraHeaders,
  grantedAuthorization,
  headerValue,
  hugeHeader,
  idempotencyKey,
  ifMatch,
  JSON_TYPES,
  OTHER_TYPES,
  refusedAuthorization,
} from './fuzz-headers';
import { body } from './fuzz-bodies';
import { junkQuery, listQuery, METHODS, routePath, unknownPath } from './fuzz-paths';

export type { FuzzWorld };

export interface FuzzRequest {
  /** The route id, `unknown path` or `wrong method`. */
  target: string;
  method: string;
  path: string;
  headers: [string, string][];
  body?: Buffer;
  granted: boolean;
}

// ---- whole requests ---------------------------------------------------------------------------------------------

function summary(r: FuzzRequest): string {
  const head = r.headers.map(([n, v]) => `${n}: ${n === 'authorization' ? '<redacted>' : v.slice(0, 60)}`).join('; ');
  const bodyText =
    r.body === undefined
      ? '(none)'
      : `${r.body.length} bytes ${JSON.stringify(r.body.subarray(0, 160).toString('utf8'))}`;
  return `${r.target} ${r.method} ${r.path.slice(0, 200)}${r.path.length > 200 ? `...(${r.path.length})` : ''} [${head}] body=${bodyText}`;
}

/** A request with a short printable form (fast-check prints it on failure; bodies can be 1 MiB). */
function request(r: FuzzRequest): FuzzRequest {
  // Anything is fuzz input, but a body over API Gateway's own 10 MB limit gets its answer, not the service's; and
  // past every route's cap (1 MiB) more bytes only cost time.
  if (r.body && r.body.length > 1.5 * KiB * KiB) r.body = r.body.subarray(0, 1.5 * KiB * KiB);
  return Object.assign(r, { [fc.toStringMethod]: () => summary(r) });
}

function headersFor(route: RouteDefinition | undefined, authorization: fc.Arbitrary<string[]>, hasBody: boolean) {
  return fc
    .record({
      authorization,
      contentType: fc.option(
        fc.oneof(
          { weight: 40, arbitrary: fc.constantFrom(...JSON_TYPES) },
          { weight: 2, arbitrary: fc.constantFrom(...OTHER_TYPES) },
          { weight: 1, arbitrary: headerValue(60) },
        ),
        { nil: undefined, freq: hasBody ? 40 : 2 },
      ),
      idempotency:
        route?.method === 'POST'
          ? idempotencyKey
          : fc.oneof({ weight: 5, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: idempotencyKey }),
      ifMatch: route?.id === 'PutPolicy' ? ifMatch : fc.constant(undefined),
      extra: fc.oneof(
        { weight: 6, arbitrary: fc.constant([] as [string, string][]) },
        { weight: 3, arbitrary: extraHeaders },
        { weight: 1, arbitrary: hugeHeader.map((h) => [h]) },
      ),
      duplicateContentType: fc.oneof(
        { weight: 40, arbitrary: fc.constant(false) },
        { weight: 1, arbitrary: fc.constant(true) },
      ),
    })
    .map((h) => {
      const out: [string, string][] = h.authorization.map((a): [string, string] => ['authorization', a]);
      if (h.contentType !== undefined) out.push(['content-type', h.contentType]);
      if (h.contentType !== undefined && h.duplicateContentType) out.push(['content-type', 'text/plain']);
      if (h.idempotency !== undefined) out.push(['idempotency-key', h.idempotency]);
      if (h.ifMatch !== undefined) out.push(['if-match', h.ifMatch]);
      return [...out, ...h.extra];
    });
}

/** A request to `route` that carries the full key and names only granted workspaces (or their decisions). */
function grantedRequest(route: RouteDefinition, w: FuzzWorld): fc.Arbitrary<FuzzRequest> {
  const workspace = grantedWorkspace(w);
  const hasBody = route.method !== 'GET';
  return fc
    .record({
      path: routePath(route, w, true, workspace),
      query: route.id === 'ListDecisions' ? listQuery(w, workspace) : junkQuery,
      headers: headersFor(route, grantedAuthorization(w), hasBody),
      body: hasBody
        ? body(route, w, workspace)
        : fc.option(fc.constant(Buffer.from('{"ignored":true}')), { nil: undefined, freq: 8 }),
    })
    .map(routeRequest(route, true));
}

/** The generated parts of a request to `route` as one FuzzRequest. */
const routeRequest =
  (route: RouteDefinition, granted: boolean) =>
  (r: { path: string; query: string; headers: FuzzRequest['headers']; body?: Buffer }) =>
    request({
      target: route.id,
      method: route.method,
      path: r.path + r.query,
      headers: r.headers,
      body: r.body,
      granted,
    });

/** A request to `route` refused somewhere before or at authorization: no or a bad key, a foreign or hostile workspace. */
function refusedRequest(route: RouteDefinition, w: FuzzWorld): fc.Arbitrary<FuzzRequest> {
  const hasBody = route.method !== 'GET';
  const workspace = fc.oneof(hostileWorkspace(w, 260 * KiB), grantedWorkspace(w));
  const pathWorkspace = fc.oneof(hostileWorkspace(w, 2_000), grantedWorkspace(w));
  return fc
    .record({
      path: routePath(route, w, false, pathWorkspace),
      query:
        route.id === 'ListDecisions'
          ? listQuery(w, fc.oneof(hostileWorkspace(w, 3_000), grantedWorkspace(w)))
          : junkQuery,
      headers: headersFor(
        route,
        fc.oneof({ weight: 1, arbitrary: grantedAuthorization(w) }, { weight: 3, arbitrary: refusedAuthorization(w) }),
        hasBody,
      ),
      body: hasBody
        ? body(route, w, workspace)
        : fc.option(
            hostileJson.map((v) => Buffer.from(json(v))),
            { nil: undefined, freq: 4 },
          ),
    })
    .map(routeRequest(route, false));
}

function strayRequest(w: FuzzWorld): fc.Arbitrary<FuzzRequest> {
  const auth = fc.oneof(grantedAuthorization(w), refusedAuthorization(w));
  const unknown = fc.record({
    method: fc.constantFrom(...METHODS),
    path: unknownPath,
    headers: headersFor(undefined, auth, true),
    body: fc.option(
      hostileJson.map((v) => Buffer.from(json(v))),
      { nil: undefined },
    ),
  });
  const wrongMethod = fc.constantFrom(...ROUTES).chain((route) =>
    fc.record({
      method: fc.constantFrom(
        ...METHODS.filter((m) => !ROUTES.some((other) => other.path === route.path && other.method === m)),
      ),
      path: routePath(route, w, false, fc.oneof(grantedWorkspace(w), hostileWorkspace(w, 500))),
      headers: headersFor(undefined, auth, true),
      body: fc.option(body(route, w, grantedWorkspace(w)), { nil: undefined }),
    }),
  );
  return fc.oneof(
    unknown.map((r) => request({ target: 'unknown path', ...r, body: r.body ?? undefined, granted: false })),
    wrongMethod.map((r) => request({ target: 'wrong method', ...r, body: r.body ?? undefined, granted: false })),
  );
}

/** Any request of the fuzz: 11 in 20 granted ones spread over every route, the rest refused or stray. */
export function fuzzRequest(w: FuzzWorld): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(
    { weight: 11, arbitrary: fc.oneof(...ROUTES.map((route) => grantedRequest(route, w))) },
    { weight: 6, arbitrary: fc.oneof(...ROUTES.map((route) => refusedRequest(route, w))) },
    { weight: 3, arbitrary: strayRequest(w) },
  );
}
