// Which requests are traced (lambdas/tracing.ts): the share TRACE_SAMPLE_RATE names, decided alike by a request's
// authorizer and its route from API Gateway's request id, and one trace id for both.
import { randomBytes } from 'node:crypto';
import { sampleKey, traceIdFor } from '../../lambdas/tracing';

/** Request ids as API Gateway HTTP APIs make them: 16 characters of base64 (`JrE6GhdPIAMEV9A=`). */
const requestIds = (n: number) => Array.from({ length: n }, () => randomBytes(11).toString('base64').slice(0, 16));
const timeEpoch = Date.UTC(2026, 10, 28, 12, 0, 0);

describe('the share of requests traced', () => {
  const ids = requestIds(40_000);

  it.each([0.05, 0.01, 0.2])('is the rate asked for: %s', (rate) => {
    const traced = ids.filter((requestId) => traceIdFor({ requestId, timeEpoch }, rate) !== undefined).length;
    // Binomial: the count stays within 5 standard deviations of rate x n (a miss by chance: under 1 in a million).
    const sd = Math.sqrt(ids.length * rate * (1 - rate));
    expect(Math.abs(traced - ids.length * rate)).toBeLessThan(5 * sd);
  });

  it('is none at 0 and all at 1', () => {
    expect(ids.filter((requestId) => traceIdFor({ requestId, timeEpoch }, 0)).length).toBe(0);
    expect(ids.filter((requestId) => traceIdFor({ requestId, timeEpoch }, 1)).length).toBe(ids.length);
  });

  it('spreads request ids evenly over [0, 1), so no range of rates is favoured', () => {
    const buckets = new Array<number>(10).fill(0);
    for (const id of ids) buckets[Math.floor(sampleKey(id) * 10)]++;
    const sd = Math.sqrt(ids.length * 0.1 * 0.9);
    for (const count of buckets) expect(Math.abs(count - ids.length / 10)).toBeLessThan(5 * sd);
  });
});

describe("a traced request's trace id", () => {
  it('is the same wherever the request is seen, so its authorizer and route segments are one trace', () => {
    const [requestId] = requestIds(1);
    const authorizer = traceIdFor({ requestId, timeEpoch }, 1);
    const route = traceIdFor({ requestId, timeEpoch }, 1, timeEpoch + 40);
    expect(route).toBe(authorizer);
  });

  it("is X-Ray's format, with the time API Gateway received the request", () => {
    const traceId = traceIdFor({ requestId: 'JrE6GhdPIAMEV9A=', timeEpoch }, 1)!;
    expect(traceId).toMatch(/^1-[0-9a-f]{8}-[0-9a-f]{24}$/);
    expect(parseInt(traceId.split('-')[1], 16)).toBe(timeEpoch / 1000);
  });

  it('differs between requests', () => {
    const ids = requestIds(1_000);
    expect(new Set(ids.map((requestId) => traceIdFor({ requestId, timeEpoch }, 1))).size).toBe(ids.length);
  });

  it('is made up for an event without a request id (a direct invocation), at the same rate', () => {
    expect(traceIdFor({}, 1)).toMatch(/^1-[0-9a-f]{8}-[0-9a-f]{24}$/);
    expect(traceIdFor({}, 0)).toBeUndefined();
  });
});
