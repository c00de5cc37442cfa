// The one place that turns anything thrown on the request path into the contract's error response.

export interface ErrorDetail {
  field: string;
  message: string;
}

export type ErrorCode =
  | 'UNAUTHORIZED'
  | 'ACCOUNT_INACTIVE'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'INVALID_JSON'
  | 'WORKSPACE_NOT_ALLOWED'
  | 'VALIDATION_ERROR'
  | 'NOT_FOUND'
  | 'DECISION_NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'IDEMPOTENCY_CONFLICT'
  | 'RATE_LIMITED'
  | 'INTERNAL_ERROR'
  | 'SERVICE_UNAVAILABLE';

export const ERROR_STATUS: Record<ErrorCode, number> = {
  UNAUTHORIZED: 401,
  ACCOUNT_INACTIVE: 403,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  INVALID_JSON: 400,
  WORKSPACE_NOT_ALLOWED: 403,
  VALIDATION_ERROR: 400,
  NOT_FOUND: 404,
  DECISION_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  IDEMPOTENCY_CONFLICT: 409,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
};

export const DEFAULT_MESSAGE: Record<ErrorCode, string> = {
  UNAUTHORIZED: 'Missing or invalid API key.',
  ACCOUNT_INACTIVE: 'The partner account for this API key is not active.',
  PAYLOAD_TOO_LARGE: 'The request body is larger than 256 KiB.',
  UNSUPPORTED_MEDIA_TYPE: 'Content-Type must be application/json.',
  INVALID_JSON: 'The request body is not valid JSON.',
  WORKSPACE_NOT_ALLOWED: 'This API key has no access to this workspace.',
  VALIDATION_ERROR: 'The request is not valid.',
  NOT_FOUND: 'No such route.',
  DECISION_NOT_FOUND: 'No decision with this id.',
  METHOD_NOT_ALLOWED: 'This method is not allowed on this route.',
  IDEMPOTENCY_CONFLICT: 'This Idempotency-Key was already used with a different request body.',
  RATE_LIMITED: 'Too many requests. Retry after the number of seconds in Retry-After.',
  INTERNAL_ERROR: 'An unexpected error occurred. It has been logged; retry later.',
  SERVICE_UNAVAILABLE: 'The service is temporarily unavailable. Retry after the number of seconds in Retry-After.',
};

/** Seconds a client should wait after a 503 caused by the database. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 2;

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string = DEFAULT_MESSAGE[code],
    readonly details?: ErrorDetail[],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = ERROR_STATUS[code];
  }
}

export const unavailable = (): ApiError =>
  new ApiError('SERVICE_UNAVAILABLE', undefined, undefined, { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) });

const RETRYABLE_NAMES = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
  'TransactionConflictException',
]);
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
// The SDK wraps errors that are not `Error` instances (e.g. from another realm) into a message-only error.
const WRAPPED_NETWORK_ERROR = /^AWS SDK error wrapper for .*\b(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENOTFOUND|EAI_AGAIN)\b/;

/** True for database faults a retry may cure: throttling, timeouts, an unreachable endpoint, 5xx. */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { name?: string; code?: string; $metadata?: { httpStatusCode?: number }; cause?: unknown };
  if (e.name && RETRYABLE_NAMES.has(e.name)) return true;
  if (e.code && NETWORK_CODES.has(e.code)) return true;
  if (err instanceof Error && WRAPPED_NETWORK_ERROR.test(err.message)) return true;
  if ((e.$metadata?.httpStatusCode ?? 0) >= 500) return true;
  if (e.name === 'TransactionCanceledException') {
    const reasons = (err as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
    return reasons.some((r) => r.Code === 'ThrottlingError' || r.Code === 'ProvisionedThroughputExceeded');
  }
  return e.cause !== undefined && e.cause !== err ? isDatabaseUnavailable(e.cause) : false;
}

/** Maps middy's own HTTP errors (from @middy/http-json-body-parser) onto the contract's codes. */
function fromMiddyError(err: { statusCode: number; message: string; cause?: { data?: unknown } }): ApiError {
  if (err.statusCode === 415) return new ApiError('UNSUPPORTED_MEDIA_TYPE');
  if (err.message === 'Forbidden key in JSON body') {
    const field = typeof err.cause?.data === 'string' ? err.cause.data : '__proto__';
    return new ApiError('VALIDATION_ERROR', undefined, [{ field, message: 'this key is not allowed' }]);
  }
  return new ApiError('INVALID_JSON');
}

export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (isDatabaseUnavailable(err)) return unavailable();
  const middy = err as { statusCode?: unknown; expose?: unknown; message: string };
  if (middy && typeof middy.statusCode === 'number' && middy.expose === true) {
    return fromMiddyError(middy as { statusCode: number; message: string });
  }
  return new ApiError('INTERNAL_ERROR');
}

export interface HttpResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

export function errorBody(error: ApiError, requestId: string): string {
  return JSON.stringify({
    error: {
      code: error.code,
      message: error.message,
      request_id: requestId,
      ...(error.details ? { details: error.details } : {}),
    },
  });
}

export function errorResponse(error: ApiError, requestId: string): HttpResponse {
  return {
    statusCode: error.status,
    headers: {
      'Content-Type': 'application/json',
      'X-Request-Id': requestId,
      ...error.headers,
    },
    body: errorBody(error, requestId),
  };
}
