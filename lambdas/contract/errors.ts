// The contract's error codes, their HTTP statuses and default messages (docs/partners.md, "Errors"). Pure
// data: the stack reads it for its alarms, the HTTP edge for its answers.

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
  | 'PRECONDITION_FAILED'
  | 'RATE_LIMITED'
  | 'INSUFFICIENT_SCOPE'
  | 'FORBIDDEN'
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
  PRECONDITION_FAILED: 412,
  RATE_LIMITED: 429,
  INSUFFICIENT_SCOPE: 403,
  FORBIDDEN: 403,
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
  IDEMPOTENCY_CONFLICT:
    'This Idempotency-Key was already used with a different request: another body, or for an import another workspace.',
  PRECONDITION_FAILED: 'The policy changed since the version in If-Match; read it again and retry.',
  RATE_LIMITED: 'Too many requests. Retry after the number of seconds in Retry-After.',
  INSUFFICIENT_SCOPE: 'This API key lacks the scope this route needs.',
  FORBIDDEN: "Requests must go through the API's protected base URL.",
  INTERNAL_ERROR: 'An unexpected error occurred. It has been logged; retry later.',
  SERVICE_UNAVAILABLE: 'The service is temporarily unavailable. Retry after the number of seconds in Retry-After.',
};

/** Codes answered with a 5xx: the stack alarms on each of them. */
export const SERVER_ERROR_CODES = (Object.keys(ERROR_STATUS) as ErrorCode[]).filter(
  (code) => ERROR_STATUS[code] >= 500,
);

/** Seconds a client should wait after a 503 caused by the database. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 2;

export interface ErrorDetail {
  field: string;
  message: string;
}

/** The most entries one `error.details` lists (docs/partners.md, "Errors"); the message counts the rest. */
export const MAX_ERROR_DETAILS = 100;
/** The largest error body the service sends, in bytes of JSON: no refusal is ever larger. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

/**
 * The largest error of one batch or import item, in bytes of JSON, beyond its first detail (docs/partners.md,
 * "Errors"): 100 items of 100 details, each with a 200-character field, made a 6 MB answer, past Lambda's 6 MB
 * response limit and DynamoDB's 400 KB item for its idempotency record. With this bound an answer's errors stay
 * under about 300 KB.
 */
export const MAX_ITEM_ERROR_BYTES = 2 * 1024;

/** Characters of a detail's field or message kept (a key of a hostile body can be 256 KiB long). */
const MAX_DETAIL_CHARS = 200;
const clip = (text: string) => (text.length > MAX_DETAIL_CHARS ? `${text.slice(0, MAX_DETAIL_CHARS - 1)}…` : text);

/**
 * What an error shows of its details (docs/partners.md, "Errors"): the first `listed` (at most 100), each field and
 * message clipped, and a message that says how many there were when not all are listed. Batch and import items
 * bound their own details the same way.
 */
export function boundedDetails(
  message: string,
  details: readonly ErrorDetail[],
  listed: number = MAX_ERROR_DETAILS,
): { message: string; details: ErrorDetail[] } {
  const shown = details
    .slice(0, Math.min(listed, MAX_ERROR_DETAILS))
    .map((d) => ({ field: clip(d.field), message: clip(d.message) }));
  if (shown.length === details.length) return { message, details: shown };
  return {
    message: `${message} It has ${details.length} problems; details lists the first ${shown.length}.`,
    details: shown,
  };
}

/**
 * An item's error in a batch or an import answer: its details bounded as boundedDetails does, then as many as fit in
 * MAX_ITEM_ERROR_BYTES (at least one), the message saying how many there were.
 */
export function boundedItemError(
  code: ErrorCode,
  message: string,
  details: readonly ErrorDetail[],
): { code: ErrorCode; message: string; details: ErrorDetail[] } {
  const render = (listed: number) => ({ code, ...boundedDetails(message, details, listed) });
  const sizeOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
  // Counted detail by detail on the error with none listed, then checked whole (the message's count may grow).
  const shown = render(MAX_ERROR_DETAILS).details;
  let bytes = sizeOf(render(0));
  let listed = 0;
  while (listed < shown.length && (listed === 0 || bytes + sizeOf(shown[listed]) + 1 <= MAX_ITEM_ERROR_BYTES)) {
    bytes += sizeOf(shown[listed]) + 1;
    listed++;
  }
  let error = render(listed);
  while (listed > 1 && sizeOf(error) > MAX_ITEM_ERROR_BYTES) error = render(--listed);
  return error;
}
