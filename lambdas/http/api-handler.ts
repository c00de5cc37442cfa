// The one pipeline every route Lambda runs: Lambda context in the logs, headers normalized, then the checks the route
// declares, in the order it declares them (each route's refusal order, docs/partners.md, Errors: analyze's is 401 →
// 403 ACCOUNT_INACTIVE → 403 INSUFFICIENT_SCOPE → 429 → 413 → 415 → 400 INVALID_JSON → 403 WORKSPACE_NOT_ALLOWED), the
// route's own work, one error mapping at the end, and metrics flushed once per invocation.
import { isUtf8 } from 'node:buffer';
import middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type { Principal } from '../domain/principal';
import { receiptTime } from '../domain/timestamps';
import { routeForKey } from '../contract/routes';
import { SERVER_ERROR_CODES } from '../contract/errors';
import { type Telemetry, describeError, requestLogAttributes } from '../observability';
import { type DroppedKey, dropForbiddenKeys } from '../domain/json-walk';
import { decodeVerdict } from './auth-context';
import { ApiError, type HttpResponse, errorResponse, toApiError, unavailable } from './errors';
import type { RateLimiter, RateOutcome } from '../application/rate-limiter';
import type { WorkspaceAccess } from '../application/workspace-access';

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
  /** Present on routes whose checks include 'key'. */
  principal: Principal;
  /**
   * Keys the JSON body held that could poison an object's prototype (`__proto__`, `constructor.prototype`). They were
   * dropped while parsing; the route refuses them with its own validation error (validInput), each in its place among
   * the body's problems, after the workspace check, or a list body with the error of the item that held them.
   */
  forbiddenKeys: DroppedKey[];
  /**
   * Spends `n` requests of the key's rate limit, or throws `429 RATE_LIMITED` having spent none. Only for routes
   * whose checks leave out 'rate-limit' (a batch, whose size is known from its body); every other route spends one
   * request in the pipeline.
   */
  consumeRateLimit: (n: number) => Promise<void>;
  /** When the service received the request (receiptTime): a signal's `received_at` when it names none. */
  receivedAtMs: number;
  /**
   * Logs what the route did, with this request's `request_id`: local mode serves requests at once through one
   * logger, whose appended keys they share, so the id is written on each line, not appended.
   */
  logInfo: (message: string, attributes: Record<string, unknown>) => void;
}

interface ApiResult {
  statusCode: number;
  body: unknown;
  headers?: Record<string, string>;
}

export type RouteHandler = (event: unknown, context: Context) => Promise<unknown>;

/** One refusal step of a route, run by the pipeline in the order the route lists them. */
export type Check =
  /** 401 UNAUTHORIZED, 403 ACCOUNT_INACTIVE: the authorizer's verdict. */
  | 'key'
  /** 403 INSUFFICIENT_SCOPE: the scope the route table names for the route. */
  | 'scope'
  /** 429 RATE_LIMITED: one request of the key's limit (a route that spends per item calls consumeRateLimit instead). */
  | 'rate-limit'
  /** 413, 415, 400 INVALID_JSON: the body's size (default MAX_BODY_BYTES), media type and JSON. */
  | { jsonBody: { maxBytes?: number } }
  /** 403 WORKSPACE_NOT_ALLOWED: the workspace named in the path, or the body's `workspace_id` when it is a string
   * (any other value is the body's validation error). */
  | { workspace: 'path' | 'body' };

/** What the pipeline needs besides the route: telemetry, the error classification of the stores, and for routes
 * with a key the rate limiter and the workspace access check. */
interface EdgeDependencies {
  telemetry: Telemetry;
  /** True for store failures a retry may cure: they answer 503 SERVICE_UNAVAILABLE. */
  isUnavailable: (err: unknown) => boolean;
  rateLimiter?: RateLimiter;
  workspaceAccess?: WorkspaceAccess;
}

type RequestContext = Context & {
  principal?: Principal;
  /** The workspace the request names, once the key may use it. */
  workspaceId?: string;
  forbiddenKeys?: DroppedKey[];
  rateLimitHeaders?: Record<string, string>;
};
type MiddyRequest = middy.Request<ApiEvent, HttpResponse, Error, RequestContext>;

const requestIdOf = (event: ApiEvent): string => event.requestContext?.requestId ?? 'unknown';

/**
 * A route's log line: who the request is about, as far as its checks got (on-call ties a partner's complaint to it),
 * then the line's own attributes (a route's `workspace_id` wins), then its request and invocation, which nothing
 * overrides.
 */
const lineOf = (requestId: string, context: RequestContext, attributes: Record<string, unknown>) => ({
  ...(context.principal ? { partner_id: context.principal.partner_id, key_id: context.principal.key_id } : {}),
  ...(context.workspaceId !== undefined ? { workspace_id: context.workspaceId } : {}),
  ...attributes,
  ...requestLogAttributes(requestId, context),
});

function principalOf(request: MiddyRequest): Principal {
  if (!request.context.principal) throw new Error("the route's checks need 'key' first");
  return request.context.principal;
}

/** API Gateway lower-cases header names in payload 2.0; local callers and tests may not. */
function normalizeHeaders(request: MiddyRequest): void {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.event.headers ?? {})) {
    if (value !== undefined) headers[name.toLowerCase()] = value;
  }
  request.event.headers = headers;
}

/** 413 and 415 come before JSON parsing (contract order); the parser itself then only parses. */
const checkBodyEnvelope = (maxBytes: number) => {
  const limitText = maxBytes % 1_048_576 === 0 ? `${maxBytes / 1_048_576} MiB` : `${maxBytes / 1024} KiB`;
  return (request: MiddyRequest): void => {
    const { body, isBase64Encoded, headers } = request.event;
    const bytes = typeof body === 'string' && isBase64Encoded ? Buffer.from(body, 'base64') : undefined;
    const size = bytes ? bytes.length : typeof body === 'string' ? Buffer.byteLength(body) : 0;
    if (size > maxBytes) throw new ApiError('PAYLOAD_TOO_LARGE', `The request body is larger than ${limitText}.`);
    if (!JSON_MEDIA_TYPE.test(headers['content-type'] ?? '')) throw new ApiError('UNSUPPORTED_MEDIA_TYPE');
    // A compressed body would be read as its bytes (a gzip body: "not UTF-8"); one only labelled so, silently.
    const encoding = headers['content-encoding']?.trim().toLowerCase();
    if (encoding && encoding !== 'identity') {
      throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Content-Encoding is not supported: send the body uncompressed.');
    }
    if (typeof body !== 'string' || body.length === 0) throw new ApiError('INVALID_JSON');
    // The gateway passes a body that is not UTF-8 in base64. JSON is UTF-8 (RFC 8259): decoding it anyway would turn
    // the bad bytes into U+FFFD and score or store text the partner never sent (docs/partners.md, "Errors").
    if (bytes && !isUtf8(bytes))
      throw new ApiError('INVALID_JSON', 'The request body is not valid JSON: it is not UTF-8.');
    // A UTF-8 byte order mark before the JSON, as some Windows tools write one, is ignored (RFC 8259 allows it;
    // docs/partners.md, "Errors").
    if (bytes) {
      if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
        request.event.body = bytes.subarray(3).toString('base64');
    } else if (body.charCodeAt(0) === 0xfeff) request.event.body = body.slice(1);
  };
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

// docs/partners.md, "Scopes and rate limits": a request that can never fit gets no Retry-After (no wait helps) and
// the RateLimit headers of the window as it is; its message says so in the same numbers.
const rateLimited = (outcome: Extract<RateOutcome, { allowed: false }>, limit: number): ApiError =>
  outcome.reason === 'larger_than_limit'
    ? new ApiError(
        'RATE_LIMITED',
        `This request needs ${outcome.needs} requests of the key's limit, more than its whole limit of ${limit} per window, so it can never fit and waiting does not help (${outcome.remaining} remain in this window). Send at most ${limit} items per request.`,
        undefined,
        outcome.headers,
      )
    : new ApiError('RATE_LIMITED', undefined, undefined, {
        ...outcome.headers,
        'Retry-After': String(outcome.retryAfterSeconds),
      });

async function spend(limiter: RateLimiter, event: ApiEvent, context: RequestContext, n: number): Promise<void> {
  const principal = context.principal as Principal;
  const outcome = await limiter.consume(principal, n, limiter.countingTime(event.requestContext?.timeEpoch));
  context.rateLimitHeaders = outcome.headers;
  if (!outcome.allowed) throw rateLimited(outcome, principal.rate_limit?.limit ?? 0);
}

/**
 * Flushes the counts a request added, one EMF line per dimension value (`Telemetry.publishCounts`), as Powertools'
 * `logMetrics` flushes, but writes nothing for a request that counted none, where `logMetrics` logs a warning: a log
 * event on most routes' every answer (a feedback's cost, docs/performance.md "Log bytes").
 */
function publishCounts(telemetry: Telemetry): middy.MiddlewareObj<ApiEvent, HttpResponse, Error, RequestContext> {
  const publish = () => telemetry.publishCounts();
  return { after: publish, onError: publish };
}

/** Builds a route's Lambda handler around `fn`, with the service's telemetry and rate limiter; `checks` in refusal order. */
export function apiHandler(
  edge: EdgeDependencies,
  checks: Check[],
  fn: (req: ApiRequest) => Promise<ApiResult>,
): RouteHandler {
  const { telemetry, rateLimiter, workspaceAccess, isUnavailable } = edge;
  const { logger, metrics } = telemetry;
  // No early timeout: middy's would answer 5 ms before Lambda's with an error named TimeoutError, mapped as the
  // database's 503. Lambda's own timeout ends the request (API Gateway's 500, `<Lambda>Errors`: docs/operations.md).
  const chain = middy<ApiEvent, HttpResponse, Error, RequestContext>({ timeoutEarlyInMillis: 0 });
  // Outermost, so its onError runs last and flushes the counts the error mapping added.
  if (metrics) chain.use(publishCounts(telemetry));
  // Never the event, whatever POWERTOOLS_LOGGER_LOG_EVENT says: it holds the Authorization header and the signal.
  chain.use(injectLambdaContext(logger, { resetKeys: true, logEvent: false })).before((request) => {
    logger.appendKeys({ request_id: requestIdOf(request.event) });
    normalizeHeaders(request);
  });
  const needs = <T>(what: T | undefined, name: string): T => {
    if (what === undefined) throw new Error(`a route with these checks needs the ${name}`);
    return what;
  };
  for (const check of checks) {
    if (check === 'key') {
      const limiter = needs(rateLimiter, 'rate limiter');
      chain.before((request) => {
        const verdict = decodeVerdict(request.event.requestContext?.authorizer?.lambda);
        if (verdict.outcome !== 'allow') {
          // A refused key; an authorizer that could not decide (503, 500) is a server error, counted as one below.
          if (!SERVER_ERROR_CODES.includes(verdict.outcome)) telemetry.count('authRefusals', verdict.outcome);
          throw verdict.outcome === 'SERVICE_UNAVAILABLE' ? unavailable() : new ApiError(verdict.outcome);
        }
        request.context.principal = verdict;
        // A limited key gets its RateLimit headers on every answer from here on, refusals included.
        request.context.rateLimitHeaders = limiter.headers(verdict);
      });
    } else if (check === 'scope') {
      chain.before((request) => {
        const scope = routeForKey(request.event.routeKey)?.scope;
        if (!scope) throw new Error(`no scope known for route key ${request.event.routeKey}`);
        if (!principalOf(request).scopes.includes(scope)) {
          throw new ApiError('INSUFFICIENT_SCOPE', `This API key lacks the scope "${scope}" this route needs.`);
        }
      });
    } else if (check === 'rate-limit') {
      const limiter = needs(rateLimiter, 'rate limiter');
      chain.before((request) => spend(limiter, request.event, request.context, 1));
    } else if ('jsonBody' in check) {
      chain.before(checkBodyEnvelope(check.jsonBody.maxBytes ?? MAX_BODY_BYTES)).use(parseJsonBody());
    } else {
      const access = needs(workspaceAccess, 'workspace access check');
      const from = check.workspace;
      chain.before(async (request) => {
        const body = request.event.body;
        const named =
          from === 'path'
            ? (request.event.pathParameters?.workspace_id ?? '')
            : body !== null && typeof body === 'object'
              ? (body as Record<string, unknown>).workspace_id
              : undefined;
        // A malformed id can have no grant: the same 403 as any workspace the key may not use.
        if (typeof named === 'string' && !(await access.allows(principalOf(request), named))) {
          throw new ApiError('WORKSPACE_NOT_ALLOWED');
        }
        if (typeof named === 'string') request.context.workspaceId = named;
      });
    }
  }

  const handler = chain
    .onError((request) => {
      const error = toApiError(request.error, isUnavailable);
      const requestId = requestIdOf(request.event);
      if (error.deferred !== undefined) {
        // Nothing failed (docs/operations.md, "What a 503 means"): no server error to alarm on.
        logger.warn(
          'request deferred',
          lineOf(requestId, request.context, { code: error.code, reason: error.deferred }),
        );
      } else if (error.status >= 500) {
        telemetry.count('serverErrors', error.code);
        // Named here too: local mode serves requests at once through one logger, whose appended keys they share.
        logger.error(
          'request failed',
          lineOf(requestId, request.context, { code: error.code, error: describeError(request.error) }),
        );
      }
      request.response = errorResponse(error, requestId);
      if (request.context.rateLimitHeaders)
        request.response.headers = { ...request.context.rateLimitHeaders, ...request.response.headers };
    })
    .handler(async (event, context) => {
      const requestId = requestIdOf(event);
      const result = await fn({
        event,
        requestId,
        principal: context.principal as Principal,
        forbiddenKeys: context.forbiddenKeys ?? [],
        consumeRateLimit: (n) => spend(needs(rateLimiter, 'rate limiter'), event, context, n),
        receivedAtMs: receiptTime(event.requestContext?.timeEpoch, Date.now()),
        logInfo: (message, attributes) => logger.info(message, lineOf(requestId, context, attributes)),
      });
      return {
        statusCode: result.statusCode,
        headers: {
          ...context.rateLimitHeaders,
          ...result.headers,
          'Content-Type': 'application/json',
          'Cache-Control': 'no-store',
          'X-Request-Id': requestId,
        },
        body: JSON.stringify(result.body),
      };
    }) as unknown as RouteHandler;
  // A traced request's route is one X-Ray segment named after it (lambdas/tracing.ts); others run as they are.
  return (event, context) =>
    telemetry.tracer.run(
      () => (event as ApiEvent).routeKey ?? 'route',
      (event as Partial<ApiEvent>).requestContext,
      () => handler(event, context),
    );
}
