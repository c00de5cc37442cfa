// Which DynamoDB failures mean "the database is unavailable right now" (throttled, timed out, unreachable, 5xx):
// the service answers those with 503 and Retry-After, everything else is a bug (500).

const RETRYABLE_NAMES = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'TimeoutError',
  // retry.ts: contention a store gave up on within its budget; the request may succeed a moment later.
  'RetriesExhausted',
  'ModelBusy',
  'RequestTimeout',
  'RequestTimeoutException',
  'TransactionConflictException',
  // A transaction with the same client token still running (the SDK's resend of one whose answer was lost): a retry
  // a moment later gets its outcome (docs/learning.md, "Corrections at the price of a write").
  'TransactionInProgressException',
]);
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
// The SDK wraps errors that are not `Error` instances (e.g. from another realm) into a message-only error.
const WRAPPED_NETWORK_ERROR =
  /^AWS SDK error wrapper for .*\b(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENOTFOUND|EAI_AGAIN)\b/;

/** A TransactWriteItems that DynamoDB cancelled (see its cancellation reasons). */
export const transactionCancelled = (err: unknown) =>
  (err as { name?: string } | undefined)?.name === 'TransactionCanceledException';

/** The code of each item of a cancelled transaction ('None' where the item was fine); [] for any other error. */
export const cancellationReasons = (err: unknown): string[] =>
  transactionCancelled(err)
    ? ((err as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? []).map((r) => r?.Code ?? 'None')
    : [];

/** A conditional write whose condition was false. */
export const conditionFailed = (err: unknown) =>
  (err as { name?: string } | undefined)?.name === 'ConditionalCheckFailedException';

/** Another transaction held one of the items: a retry may succeed. */
export const transactionConflict = (err: unknown) =>
  (err as { name?: string } | undefined)?.name === 'TransactionConflictException' ||
  cancellationReasons(err).includes('TransactionConflict');

/** True for database faults a retry may cure: throttling, timeouts, an unreachable endpoint, 5xx. */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { name?: string; code?: string; $metadata?: { httpStatusCode?: number }; cause?: unknown };
  if (e.name && RETRYABLE_NAMES.has(e.name)) return true;
  if (e.code && NETWORK_CODES.has(e.code)) return true;
  if (err instanceof Error && WRAPPED_NETWORK_ERROR.test(err.message)) return true;
  if ((e.$metadata?.httpStatusCode ?? 0) >= 500) return true;
  if (e.name === 'TransactionCanceledException')
    return cancellationReasons(err).some((c) => c === 'ThrottlingError' || c === 'ProvisionedThroughputExceeded');
  return e.cause !== undefined && e.cause !== err ? isDatabaseUnavailable(e.cause) : false;
}
