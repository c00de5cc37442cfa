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
import { type DroppedKey, comparePlaces, fieldPlacer } from '../domain/json-walk';

export type { ErrorDetail };

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

/** The one way a request's VALIDATION_ERROR is built. */
export function validationError(details: ErrorDetail[]): ApiError {
  return new ApiError('VALIDATION_ERROR', undefined, details);
}

const forbiddenKeyDetail = ({ field }: DroppedKey): ErrorDetail => ({
  field,
  message: 'this key is not allowed',
});

/**
 * A body's details (paths into `body`, in the order it holds them) with the keys dropped from it (`__proto__`,
 * `constructor.prototype`) each in its place among them: details list problems in the order they appear in the body
 * (docs/partners.md, "Errors"). Keys dropped without a place come last: no answer lists them.
 */
export function withForbiddenKeys(
  body: unknown,
  details: readonly ErrorDetail[],
  forbiddenKeys: readonly DroppedKey[],
): ErrorDetail[] {
  if (!forbiddenKeys.length) return [...details];
  const placed = forbiddenKeys.filter((key) => key.place);
  const placeOf = fieldPlacer(body);
  const out: ErrorDetail[] = [];
  let next = 0;
  for (const detail of details) {
    const place = next < placed.length ? placeOf(detail.field) : [];
    while (next < placed.length && comparePlaces(placed[next].place!, place) < 0)
      out.push(forbiddenKeyDetail(placed[next++]));
    out.push(detail);
  }
  out.push(...placed.slice(next).map(forbiddenKeyDetail));
  out.push(...forbiddenKeys.filter((key) => !key.place).map(forbiddenKeyDetail));
  return out;
}

/**
 * A route's checked body once it and its header (Idempotency-Key, If-Match) are valid and no key was dropped from
 * `body`, the parsed body it checked; otherwise one VALIDATION_ERROR with every problem of the three, the header's
 * last.
 */
export function validInput<T extends { ok: true }>(
  checked: T | { ok: false; details: ErrorDetail[] },
  headerProblem: ErrorDetail | undefined,
  forbiddenKeys: readonly DroppedKey[],
  body: unknown,
): T {
  if (checked.ok && !headerProblem && !forbiddenKeys.length) return checked;
  const details = withForbiddenKeys(body, checked.ok ? [] : checked.details, forbiddenKeys);
  throw validationError([...details, ...(headerProblem ? [headerProblem] : [])]);
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
function errorBody(error: ApiError, requestId: string): string {
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
