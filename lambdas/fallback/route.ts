// `$default` route: every request no route matched. 404 for unknown paths, 405 with Allow for known paths with
// another method. No key is needed for either (docs/partners.md, Errors).
import { matchRoute } from '../contract/routes';
import type { Dependencies } from '../dependencies';
import { type RouteHandler, apiHandler } from '../http/api-handler';
import { bypassedEdge } from '../http/edge-origin';
import { ApiError } from '../http/errors';

export function fallbackRoute({ telemetry, settings }: Pick<Dependencies, 'telemetry' | 'settings'>): RouteHandler {
  // It reads no data: nothing it does can find the database unavailable.
  return apiHandler({ telemetry, isUnavailable: () => false }, [], ({ event }) => {
    // Edge protection on: a request that came around CloudFront gets 403 before its 404/405.
    if (bypassedEdge(event.headers, settings.edgeOriginSecret)) throw new ApiError('FORBIDDEN');
    const match = matchRoute(event.requestContext.http.method, event.rawPath);
    if (match.kind === 'method_not_allowed') {
      const allow = match.allow.join(', ');
      throw new ApiError('METHOD_NOT_ALLOWED', `This route allows only ${allow}.`, undefined, { Allow: allow });
    }
    throw new ApiError('NOT_FOUND');
  });
}
