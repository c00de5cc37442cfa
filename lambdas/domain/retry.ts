// The one retry policy of the service: jittered exponential back-off ("full jitter": a random wait up to base × 2^n,
// capped), bounded by attempts and by a time budget, so no loop retries without a delay or without end. A store or
// a use case passes the step to repeat; the step says whether its outcome is final or worth another attempt. It is
// pure (timers only), so the use cases in lambdas/application and the stores import it alike.

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  /** Upper bound of the first wait; each later one doubles it, up to capMs. */
  baseMs: number;
  capMs: number;
  /** No new attempt starts once this much time has passed since the first. */
  budgetMs: number;
}

/** Contention between writers of one item (a condition or transaction conflict): short, many, within a request. */
export const CONTENTION_RETRY: RetryPolicy = { attempts: 8, baseMs: 10, capMs: 400, budgetMs: 2_000 };

/**
 * Many writers on one item where no request waits (an admin change fanned out into parallel transactions on one
 * key's grants): more attempts and a longer budget than a request can afford.
 */
export const ADMIN_CONTENTION_RETRY: RetryPolicy = { attempts: 20, baseMs: 10, capMs: 640, budgetMs: 15_000 };

/** Throttling (DynamoDB left batch items unprocessed): waits long enough for capacity to return, within a request. */
export const THROTTLE_RETRY: RetryPolicy = { attempts: 7, baseMs: 50, capMs: 1_600, budgetMs: 4_000 };

/** The signal a step returns to be tried again after the policy's wait. */
export const AGAIN: unique symbol = Symbol('again');

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The wait before attempt `attempt + 1` (0-based `attempt`): uniform in [0, min(cap, base × 2^attempt)). */
export function backoffMs(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  return random() * Math.min(policy.capMs, policy.baseMs * 2 ** attempt);
}

/** Thrown when a step still answers AGAIN after the policy's attempts or budget; the error mapping answers 503. */
export class RetriesExhausted extends Error {
  override readonly name = 'RetriesExhausted';
  constructor(what: string, attempts: number) {
    super(`${what}: gave up after ${attempts} attempts`);
  }
}

/**
 * Runs `step` until it returns something other than AGAIN, waiting between attempts as `policy` says. An error the
 * step throws ends the loop at once (the caller decides which errors are worth a retry by catching them inside).
 */
export async function retrying<T>(
  what: string,
  step: (attempt: number) => Promise<T | typeof AGAIN>,
  policy: RetryPolicy = CONTENTION_RETRY,
): Promise<T> {
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    const outcome = await step(attempt);
    if (outcome !== AGAIN) return outcome;
    if (attempt + 1 >= policy.attempts || Date.now() - started >= policy.budgetMs)
      throw new RetriesExhausted(what, attempt + 1);
    await sleep(backoffMs(policy, attempt));
  }
}
