// Lambda authorizer (HTTP API, payload 2.0, simple responses). It never denies at the gateway: the gateway would
// answer with its own body. It passes its verdict in the context and the route Lambdas enforce it.
import type { APIGatewayRequestAuthorizerEventV2, Context } from 'aws-lambda';
import type { Dependencies } from '../dependencies';
import { type AuthContext, encodeVerdict } from '../http/auth-context';
import { describeError, requestLogAttributes } from '../observability';
import { bypassedEdge } from '../http/edge-origin';
import { KeyAuthorizer } from './authorize';

type AuthorizerResult = { isAuthorized: boolean; context: AuthContext };
export type AuthorizerHandler = (
  event: APIGatewayRequestAuthorizerEventV2,
  context: Context,
) => Promise<AuthorizerResult>;

export function authorizerHandler({
  accessStore,
  settings,
  telemetry,
  isUnavailable,
}: Pick<Dependencies, 'accessStore' | 'settings' | 'telemetry' | 'isUnavailable'>): AuthorizerHandler {
  const keys = new KeyAuthorizer(accessStore, { ttlSeconds: settings.authCacheTtlSeconds, isUnavailable });
  const { logger } = telemetry;
  // No middy chain here: its per-invocation AbortController and early-timeout timer turn a route's Lambda timeout
  // into a contract answer, but an authorizer has no answer of its own to give (API Gateway answers a failed
  // authorizer itself, as it does one that times out), and on Node 20 they cost about 21 us of a warm request
  // (docs/performance.md, "Version 4, issue 34 on Node 20"). The log context is Powertools' own, set and cleared as
  // injectLambdaContext does; the event is never logged (it holds the Authorization header).
  const handler = async (event: APIGatewayRequestAuthorizerEventV2, context: Context): Promise<AuthorizerResult> => {
    logger.addContext(context);
    try {
      // First of all: a request that came around CloudFront (edge protection on) is refused whatever its key.
      if (bypassedEdge(event.headers, settings.edgeOriginSecret))
        return { isAuthorized: true, context: { outcome: 'FORBIDDEN' } };
      // The route answers the 503 (docs/operations.md, "What a 503 means"); only here is the database's error known.
      const verdict = await keys.verify(event.headers?.authorization, Date.now(), (err) =>
        logger.warn('database unavailable', {
          ...requestLogAttributes(event.requestContext?.requestId, context),
          error: describeError(err),
        }),
      );
      return { isAuthorized: true, context: encodeVerdict(verdict) };
    } catch (err) {
      // An authorizer that throws gives API Gateway's own 500; answer a contract 500 from the route instead.
      logger.error('authorizer failed', {
        ...requestLogAttributes(event.requestContext?.requestId, context),
        error: describeError(err),
      });
      return { isAuthorized: true, context: { outcome: 'INTERNAL_ERROR' } };
    } finally {
      logger.resetKeys();
    }
  };
  // The same request's route decides alike from the same request id: a traced request is one trace of both.
  return (event, context) => telemetry.tracer.run('authorizer', event.requestContext, () => handler(event, context));
}
