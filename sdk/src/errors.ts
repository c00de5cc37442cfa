// What the client throws. Branch on `code` (and `status`), never on `message`.
import type { ErrorCode, ErrorDetail } from './types';

/** An error answer of the API: the service's own (`code` as documented) or API Gateway's (`code` `HTTP_<status>`). */
export class SignalAnalysisError extends Error {
  override readonly name = 'SignalAnalysisError';
  readonly status: number;
  readonly code: ErrorCode | `HTTP_${number}`;
  /** The `X-Request-Id` (or API Gateway's `apigw-requestid`): quote it when asking the operator about a request. */
  readonly requestId: string | undefined;
  readonly details: ErrorDetail[] | undefined;
  /** Seconds the service asked to wait (`Retry-After`), on 429 and 503. */
  readonly retryAfterSeconds: number | undefined;
  /** How many attempts were made, retries included. */
  readonly attempts: number;

  constructor(init: {
    status: number;
    code: ErrorCode | `HTTP_${number}`;
    message: string;
    requestId?: string;
    details?: ErrorDetail[];
    retryAfterSeconds?: number;
    attempts: number;
  }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.details = init.details;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.attempts = init.attempts;
  }

  /** `request_id` as the error body names it. */
  get request_id(): string | undefined {
    return this.requestId;
  }
}

/** No answer: the connection failed or an attempt timed out, on every attempt. `cause` holds the last failure. */
export class SignalAnalysisConnectionError extends Error {
  override readonly name = 'SignalAnalysisConnectionError';
  readonly code: 'CONNECTION_ERROR' | 'TIMEOUT';
  readonly attempts: number;

  constructor(code: 'CONNECTION_ERROR' | 'TIMEOUT', message: string, attempts: number, cause: unknown) {
    super(message, { cause });
    this.code = code;
    this.attempts = attempts;
  }
}
