// The middy chain every route Lambda shares: request id and headers first, the authorizer's verdict, then (for
// routes with a body) size, media type and JSON parsing in the contract's order, and one error mapping at the end.
import middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { ApiError, type HttpResponse, errorResponse, toApiError, unavailable } from './errors';
import { type Principal, decodeVerdict } from './auth-context';
import { countWithDimension, logger } from '../observability';

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
}

export interface ApiResult {
  statusCode: number;
  body: unknown;
  headers?: Record<string, string>;
}

interface Options {
  auth: boolean;
  jsonBody: boolean;
}

type MiddyRequest = middy.Request<ApiEvent, HttpResponse, Error, Context & { principal?: Principal }>;

const requestIdOf = (event: ApiEvent): string => event.requestContext?.requestId ?? 'unknown';

/** API Gateway lower-cases header names in payload 2.0; local callers and tests may not. */
function normalizeHeaders(request: MiddyRequest): void {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.event.headers ?? {})) {
    if (value !== undefined) headers[name.toLowerCase()] = value;
  }
  request.event.headers = headers;
}

function requirePrincipal(request: MiddyRequest): void {
  const verdict = decodeVerdict(request.event.requestContext?.authorizer?.lambda);
  if (verdict.outcome !== 'allow') {
    countWithDimension('AuthRefusals', 'code', verdict.outcome);
    throw verdict.outcome === 'SERVICE_UNAVAILABLE' ? unavailable() : new ApiError(verdict.outcome);
  }
  request.context.principal = verdict;
}

/** 413 and 415 come before JSON parsing (contract order); the parser itself then only parses. */
function checkBodyEnvelope(request: MiddyRequest): void {
  const { body, isBase64Encoded, headers } = request.event;
  const size = typeof body === 'string' ? (isBase64Encoded ? Buffer.from(body, 'base64').length : Buffer.byteLength(body)) : 0;
  if (size > MAX_BODY_BYTES) throw new ApiError('PAYLOAD_TOO_LARGE');
  if (!JSON_MEDIA_TYPE.test(headers['content-type'] ?? '')) throw new ApiError('UNSUPPORTED_MEDIA_TYPE');
  if (typeof body !== 'string' || body.length === 0) throw new ApiError('INVALID_JSON');
}

function finish(response: HttpResponse, requestId: string): HttpResponse {
  response.headers = { ...response.headers, 'Content-Type': 'application/json', 'X-Request-Id': requestId };
  return response;
}

export function apiHandler(fn: (req: ApiRequest) => Promise<ApiResult>, options: Options) {
  const chain = middy<ApiEvent, HttpResponse, Error, Context & { principal?: Principal }>().before(normalizeHeaders);
  if (options.auth) chain.before(requirePrincipal);
  if (options.jsonBody) chain.before(checkBodyEnvelope).use(httpJsonBodyParser({ disableContentTypeCheck: true })); // the media type is checked above

  return chain
    .onError((request) => {
      const error = toApiError(request.error);
      const requestId = requestIdOf(request.event);
      if (error.status >= 500) {
        countWithDimension('ServerErrors', 'code', error.code);
        // Names only: an error message could quote request data.
        logger.error('request failed', { request_id: requestId, code: error.code, error: request.error?.name });
      }
      request.response = errorResponse(error, requestId);
    })
    .handler(async (event, context) => {
      const requestId = requestIdOf(event);
      const result = await fn({ event, requestId, principal: context.principal as Principal });
      return finish(
        { statusCode: result.statusCode, headers: result.headers ?? {}, body: JSON.stringify(result.body) },
        requestId,
      );
    });
}
