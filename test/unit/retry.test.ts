// The one retry policy (lambdas/domain/retry.ts): how many attempts a contended step gets, how long the waits grow,
// when the budget ends it, and that no attempt follows another without a wait. Timers are jest's fake ones, so the
// waits are observed, not slept.
import * as retry from '../../lambdas/domain/retry';
import {
  AGAIN,
  CONTENTION_RETRY,
  RetriesExhausted,
  type RetryPolicy,
  backoffMs,
  retrying,
} from '../../lambdas/domain/retry';
import { isDatabaseUnavailable } from '../../lambdas/stores/database-faults';

const POLICY: RetryPolicy = { attempts: 4, baseMs: 10, capMs: 40, budgetMs: 60_000 };

beforeEach(() => jest.useFakeTimers());
afterEach(() => {
  jest.useRealTimers();
  jest.restoreAllMocks();
});

/** Runs `retrying` to its end under fake timers, counting the step's calls. */
async function settle<T>(step: (attempt: number) => Promise<T | typeof AGAIN>, policy: RetryPolicy) {
  let calls = 0;
  const done = retrying('test step', (attempt) => (calls++, step(attempt)), policy).then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  await jest.runAllTimersAsync();
  return { ...(await done), calls: () => calls };
}

it('gives a step that stays contended exactly the policy’s attempts, then answers 503', async () => {
  const out = await settle(async () => AGAIN, POLICY);
  expect(out.calls()).toBe(4);
  expect(out).toMatchObject({ error: expect.any(RetriesExhausted) });
  expect(isDatabaseUnavailable((out as { error: unknown }).error)).toBe(true);
});

it('returns what the step answers once it is not AGAIN, and passes errors through at once', async () => {
  const done = await settle(async (attempt) => (attempt < 2 ? AGAIN : `done at ${attempt}`), POLICY);
  expect(done).toMatchObject({ value: 'done at 2' });
  expect(done.calls()).toBe(3);
  const failed = await settle(async () => {
    throw new Error('a bug, not contention');
  }, POLICY);
  expect(failed.calls()).toBe(1);
  expect(failed).toMatchObject({ error: { message: 'a bug, not contention' } });
});

it('never starts an attempt without a wait after the last', async () => {
  jest.spyOn(Math, 'random').mockReturnValue(0.5);
  let calls = 0;
  const done = retrying(
    'test step',
    async () => {
      calls++;
      return AGAIN;
    },
    POLICY,
  ).catch(() => undefined);
  await jest.advanceTimersByTimeAsync(0);
  expect(calls).toBe(1);
  // The first wait is half of base (10 ms) under this random: nothing runs before it is over.
  await jest.advanceTimersByTimeAsync(4);
  expect(calls).toBe(1);
  await jest.advanceTimersByTimeAsync(1);
  expect(calls).toBe(2);
  await jest.runAllTimersAsync();
  await done;
});

it('doubles the longest wait each attempt up to the cap, and draws each wait below it', () => {
  const top = () => 0.999999;
  expect([0, 1, 2, 3, 4].map((n) => Math.round(backoffMs(POLICY, n, top)))).toEqual([10, 20, 40, 40, 40]);
  expect(backoffMs(POLICY, 3, () => 0.25)).toBe(10);
});

it('stops at the time budget even with attempts left', async () => {
  jest.spyOn(Math, 'random').mockReturnValue(0.999);
  // Waits of ~10, ~20, ~40, ~40 ms: a 25 ms budget is spent after the second wait.
  const out = await settle(async () => AGAIN, { attempts: 50, baseMs: 10, capMs: 40, budgetMs: 25 });
  expect(out.calls()).toBe(3);
  expect(out).toMatchObject({ error: expect.any(RetriesExhausted) });
});

it('defines every policy with a wait between attempts and an end', () => {
  const policies = Object.entries(retry).filter(([name]) => name.endsWith('_RETRY')) as [string, RetryPolicy][];
  expect(policies.map(([name]) => name)).toContain('CONTENTION_RETRY');
  for (const [name, p] of policies) {
    expect({ name, delay: p.baseMs > 0, cap: p.capMs >= p.baseMs, attempts: p.attempts > 1 }).toEqual({
      name,
      delay: true,
      cap: true,
      attempts: true,
    });
    expect(Number.isFinite(p.budgetMs) && Number.isFinite(p.attempts)).toBe(true);
  }
  expect(CONTENTION_RETRY.budgetMs).toBeLessThan(10_000); // inside the Lambda's 10 s timeout
});
