// The one place that turns anything thrown on the request path into the contract's error response.
import {
  DEFAULT_MESSAGE,
  ERROR_STATUS,
  type ErrorCode,
  type ErrorDetail,
  MAX_ERROR_BODY_BYTES,
  MAX_ERROR_DETAILS,
  UNAVAILABLE_RETRY_AFTER_SECONDS,
  boundedDetails,
} from '../contract/errors';
import type { DroppedKey } from '../domain/json-walk';

export type { ErrorCode, ErrorDetail };
export { boundedDetails };

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string = DEFAULT_MESSAGE[code],
    readonly details?: ErrorDetail[],
    readonly headers: Record<string, string> = {},
    /** A 5xx the service gives on purpose (nothing failed), and why: logged as a warning, not a server error. */
    readonly deferred?: string,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = ERROR_STATUS[code];
  }
}

/** A 503 for a database failure a retry may cure, or (`deferred`) for a reason of the service's own. */
export const unavailable = (deferred?: string): ApiError =>
  new ApiError(
    'SERVICE_UNAVAILABLE',
    undefined,
    undefined,
    { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
    deferred,
  );

/**
 * The one way a request's VALIDATION_ERROR is built: the keys the JSON parser dropped (`__proto__`,
 * `constructor.prototype`) first, each with the same message, then the route's own details.
 */
export function validationError(details: ErrorDetail[], forbiddenKeys: readonly DroppedKey[] = []): ApiError {
  return new ApiError('VALIDATION_ERROR', undefined, [...forbiddenKeys.map(forbiddenKeyDetail), ...details]);
}

export const forbiddenKeyDetail = ({ field }: DroppedKey): ErrorDetail => ({
  field,
  message: 'this key is not allowed',
});

/**
 * A route's checked body once it and its header (Idempotency-Key, If-Match) are valid and no key was dropped;
 * otherwise one VALIDATION_ERROR with every problem of the three.
 */
export function validInput<T extends { ok: true }>(
  body: T | { ok: false; details: ErrorDetail[] },
  headerProblem: ErrorDetail | undefined,
  forbiddenKeys: readonly DroppedKey[],
): T {
  if (body.ok && !headerProblem && !forbiddenKeys.length) return body;
  throw validationError([...(body.ok ? [] : body.details), ...(headerProblem ? [headerProblem] : [])], forbiddenKeys);
}

/** `isUnavailable` classifies store failures a retry may cure (the stores know their SDK's errors; the edge does not). */
export function toApiError(err: unknown, isUnavailable: (err: unknown) => boolean): ApiError {
  if (err instanceof ApiError) return err;
  if (isUnavailable(err)) return unavailable();
  // middy's own HTTP errors (from @middy/http-json-body-parser), onto the contract's codes.
  const middy = err as { statusCode?: unknown; expose?: unknown; message: string };
  if (middy && typeof middy.statusCode === 'number' && middy.expose === true)
    return new ApiError(middy.statusCode === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : 'INVALID_JSON');
  return new ApiError('INTERNAL_ERROR');
}

export interface HttpResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

/** The error's JSON: details bounded, and never over MAX_ERROR_BODY_BYTES (fewer details listed until it fits). */
export function errorBody(error: ApiError, requestId: string): string {
  const render = (listed: number) => {
    const shown = error.details ? boundedDetails(error.message, error.details, listed) : undefined;
    return JSON.stringify({
      error: {
        code: error.code,
        message: shown?.message ?? error.message,
        request_id: requestId,
        ...(shown ? { details: shown.details } : {}),
      },
    });
  };
  let listed = MAX_ERROR_DETAILS;
  let body = render(listed);
  while (Buffer.byteLength(body) > MAX_ERROR_BODY_BYTES && listed > 0) {
    listed = Math.floor(listed / 2);
    body = render(listed);
  }
  return body;
}

export function errorResponse(error: ApiError, requestId: string): HttpResponse {
  return {
    statusCode: error.status,
    headers: {
      'Content-Type': 'application/json',
      'Cache-Control': 'no-store',
      'X-Request-Id': requestId,
      ...error.headers,
    },
    body: errorBody(error, requestId),
  };
}
