// The middy chain every route Lambda shares: Lambda context in the logs, headers normalized, the authorizer's
// verdict, the key's scope for the route and its rate limit (the refusal order of docs/partners.md, Errors: 401 → 403
// ACCOUNT_INACTIVE → 403 INSUFFICIENT_SCOPE → 429), then (for routes with a body) size, media type and JSON parsing
// in that order, one error mapping at the end, and metrics flushed once per invocation.
import middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type { Principal } from '../authorizer/authorize';
import { type Scope, routeForKey } from '../contract/routes';
import { type Telemetry, describeError } from '../observability';
import { dropForbiddenKeys } from '../domain/json-walk';
import { decodeVerdict } from './auth-context';
import { ApiError, type HttpResponse, errorResponse, toApiError, unavailable } from './errors';
import type { RateLimiter, RateOutcome } from './rate-limiter';

export const MAX_BODY_BYTES = 256 * 1024;
const JSON_MEDIA_TYPE = /^application\/json\s*(;|$)/i;

/** The route event as our handlers see it: lower-case headers, a parsed body where the route takes one. */
export interface ApiEvent extends Omit<APIGatewayProxyEventV2, 'body'> {
  body: unknown;
  requestContext: APIGatewayProxyEventV2['requestContext'] & { authorizer?: { lambda?: unknown } };
}

export interface ApiRequest {
  event: ApiEvent;
  requestId: string;
  /** Present on routes created with `auth: true`. */
  principal: Principal;
  /**
   * Keys the JSON body held that could poison an object's prototype (`__proto__`, `constructor.prototype`), as
   * JSON paths. They were dropped while parsing; the route refuses them as a validation error in its own order,
   * after the workspace check.
   */
  forbiddenKeys: string[];
  /**
   * Spends `n` requests of the key's rate limit, or throws `429 RATE_LIMITED` having spent none. Only for routes
   * created with `rateLimit: 'by-route'` (a batch, whose size is known from its body); every other route spends one
   * request in the chain, before its own checks.
   */
  consumeRateLimit: (n: number) => Promise<void>;
}

export interface ApiResult {
  statusCode: number;
  body: unknown;
  headers?: Record<string, string>;
}

export type RouteHandler = (event: unknown, context: Context) => Promise<unknown>;

interface Options {
  auth: boolean;
  jsonBody: boolean;
  /** The scope the route needs; by default the route table's, found by the event's route key. */
  scope?: Scope;
  /** `per-request` (default): the chain spends one request; `by-route`: the route calls consumeRateLimit itself. */
  rateLimit?: 'per-request' | 'by-route';
  /** A larger body limit than MAX_BODY_BYTES, with the 413 message that names it (batch: 1 MiB). */
  bodyLimit?: { bytes: number; message: string };
  /** A smaller body limit than the default 256 KiB (the policy: 64 KiB). */
  maxBodyBytes?: number;
  /** A check that comes before the body's own (a workspace named in the path: 403 before 413/415/400). */
  beforeBody?: (event: ApiEvent, principal: Principal) => Promise<void>;
}

/** What the chain needs besides the route: telemetry, and for routes with a key the rate limiter. */
export interface EdgeDependencies {
  telemetry: Telemetry;
  rateLimiter?: RateLimiter;
}

type RequestContext = Context & { principal?: Principal; forbiddenKeys?: string[]; rateLimitHeaders?: Record<string, string> };
type MiddyRequest = middy.Request<ApiEvent, HttpResponse, Error, RequestContext>;

const requestIdOf = (event: ApiEvent): string => event.requestContext?.requestId ?? 'unknown';

/** API Gateway lower-cases header names in payload 2.0; local callers and tests may not. */
function normalizeHeaders(request: MiddyRequest): void {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.event.headers ?? {})) {
    if (value !== undefined) headers[name.toLowerCase()] = value;
  }
  request.event.headers = headers;
}

/** 413 and 415 come before JSON parsing (contract order); the parser itself then only parses. */
const checkBodyEnvelope = (limit?: Options['bodyLimit']) => (request: MiddyRequest): void => {
  const { body, isBase64Encoded, headers } = request.event;
  const size = typeof body === 'string' ? (isBase64Encoded ? Buffer.from(body, 'base64').length : Buffer.byteLength(body)) : 0;
  if (size > (limit?.bytes ?? MAX_BODY_BYTES)) throw new ApiError('PAYLOAD_TOO_LARGE', limit?.message);
  if (!JSON_MEDIA_TYPE.test(headers['content-type'] ?? '')) throw new ApiError('UNSUPPORTED_MEDIA_TYPE');
  if (typeof body !== 'string' || body.length === 0) throw new ApiError('INVALID_JSON');
};

/**
 * middy's parser refuses a body with a forbidden key outright, before the route could check the workspace. Such a
 * body is parsed again without those keys (their paths remembered), so the route answers in the refusal order.
 */
function parseJsonBody(): middy.MiddlewareObj<ApiEvent, HttpResponse, Error, RequestContext> {
  const parser = httpJsonBodyParser({ disableContentTypeCheck: true }); // the media type is checked above
  return {
    before: (request) => {
      const raw = request.event.body as string;
      try {
        parser.before!(request as unknown as Parameters<NonNullable<typeof parser.before>>[0]);
        return;
      } catch (err) {
        // A forbidden key, or a body too deep for the parser's per-key reviver (it recurses, and overflows on a
        // valid body nested deeper than the stack): parse it plainly, then drop the forbidden keys without recursion.
        const text = request.event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          throw err;
        }
        request.context.forbiddenKeys = dropForbiddenKeys(parsed);
        request.event.body = parsed;
      }
    },
  };
}

function finish(response: HttpResponse, requestId: string, rateLimitHeaders?: Record<string, string>): HttpResponse {
  response.headers = { ...rateLimitHeaders, ...response.headers, 'Content-Type': 'application/json', 'X-Request-Id': requestId };
  return response;
}

const rateLimited = (outcome: Extract<RateOutcome, { allowed: false }>, limit: number): ApiError =>
  new ApiError(
    'RATE_LIMITED',
    outcome.reason === 'larger_than_limit'
      ? `This request needs more than the key's whole limit of ${limit} requests per window; it can never fit. Send fewer signals per request.`
      : undefined,
    undefined,
    { ...outcome.headers, 'Retry-After': String(outcome.retryAfterSeconds) },
  );

async function spend(limiter: RateLimiter, context: RequestContext, n: number): Promise<void> {
  const principal = context.principal as Principal;
  const outcome = await limiter.consume(principal, n);
  context.rateLimitHeaders = outcome.headers;
  if (!outcome.allowed) throw rateLimited(outcome, principal.rate_limit?.limit ?? 0);
}

/** Builds a route's Lambda handler around `fn`, with the service's telemetry and rate limiter. */
export function apiHandler(fn: (req: ApiRequest) => Promise<ApiResult>, options: Options, edge: EdgeDependencies): RouteHandler {
  const { telemetry, rateLimiter } = edge;
  const { logger, metrics } = telemetry;
  if (options.auth && !rateLimiter) throw new Error('a route with a key needs the rate limiter');
  const chain = middy<ApiEvent, HttpResponse, Error, RequestContext>();
  // Outermost, so its onError runs last and flushes the counts the error mapping added.
  if (metrics) chain.use(logMetrics(metrics));
  chain.use(injectLambdaContext(logger, { resetKeys: true })).before((request) => {
    logger.appendKeys({ request_id: requestIdOf(request.event) });
    normalizeHeaders(request);
  });
  if (options.auth) {
    chain.before((request) => {
      const verdict = decodeVerdict(request.event.requestContext?.authorizer?.lambda);
      if (verdict.outcome !== 'allow') {
        telemetry.count('authRefusals', verdict.outcome);
        throw verdict.outcome === 'SERVICE_UNAVAILABLE' ? unavailable() : new ApiError(verdict.outcome);
      }
      request.context.principal = verdict;
      // A limited key gets its RateLimit headers on every answer from here on, refusals included.
      request.context.rateLimitHeaders = rateLimiter!.headers(verdict);
      // One place for every route: the scope the route table names for it.
      const scope = options.scope ?? routeForKey(request.event.routeKey)?.scope;
      if (!scope) throw new Error(`no scope known for route key ${request.event.routeKey}`);
      if (!verdict.scopes.includes(scope)) {
        throw new ApiError('INSUFFICIENT_SCOPE', `This API key lacks the scope "${scope}" this route needs.`);
      }
    });
    if (options.rateLimit !== 'by-route') chain.before((request) => spend(rateLimiter!, request.context, 1));
  }
  const { beforeBody } = options;
  if (beforeBody) chain.before((request) => beforeBody(request.event, request.context.principal as Principal));
  const bodyLimit =
    options.bodyLimit ??
    (options.maxBodyBytes
      ? { bytes: options.maxBodyBytes, message: `The request body is larger than ${options.maxBodyBytes / 1024} KiB.` }
      : undefined);
  if (options.jsonBody) chain.before(checkBodyEnvelope(bodyLimit)).use(parseJsonBody());

  return chain
    .onError((request) => {
      const error = toApiError(request.error);
      const requestId = requestIdOf(request.event);
      if (error.status >= 500) {
        telemetry.count('serverErrors', error.code);
        logger.error('request failed', { code: error.code, error: describeError(request.error) });
      }
      request.response = errorResponse(error, requestId);
      if (request.context.rateLimitHeaders) request.response.headers = { ...request.context.rateLimitHeaders, ...request.response.headers };
    })
    .handler(async (event, context) => {
      const requestId = requestIdOf(event);
      const result = await fn({
        event,
        requestId,
        principal: context.principal as Principal,
        forbiddenKeys: context.forbiddenKeys ?? [],
        consumeRateLimit: (n) => spend(rateLimiter!, context, n),
      });
      return finish(
        { statusCode: result.statusCode, headers: result.headers ?? {}, body: JSON.stringify(result.body) },
        requestId,
        context.rateLimitHeaders,
      );
    }) as unknown as RouteHandler;
}
