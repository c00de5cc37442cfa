// The bench's cost arithmetic, checked against lines worked out by hand from the published prices (bin/bench/prices.ts).
import {
  type CallResources,
  billedMs,
  costPerMillion,
  dynamoItemBytes,
  managedNlpCostPerMillion,
  perDecision,
  tracingCostPerMillion,
  tracingWaitCostPerMillionAtMost,
  writeUnitsFor,
} from '../../bin/bench/cost-model';
import { PRICES } from '../../bin/bench/prices';

const analyzeFloor: CallResources = {
  apiRequests: 1,
  billedMs: [1, 1],
  memoryMb: 512,
  writeUnits: 2,
  readUnits: 0,
  logBytes: 374,
  logEvents: 1,
  logRetentionMonths: 12,
};

describe('the cost of a call per million', () => {
  it('adds the API request, two invocations, their milliseconds, the write units and the logs, as by hand', () => {
    const cost = costPerMillion(analyzeFloor);
    // By hand: $1.00 (API) + 2 x $0.20 (invocations) + 2 ms x 0.5 GB x $0.0000133334 x 10^6 ($0.0133)
    // + 2 x $0.625 (write units) + 400 bytes (374 + 26 overhead) x 10^6 = 0.4 GB x ($0.50 + 12 x $0.03) ($0.344).
    expect(cost.api).toBeCloseTo(1.0, 6);
    expect(cost.lambdaRequests).toBeCloseTo(0.4, 6);
    expect(cost.lambdaDuration).toBeCloseTo(0.0133334, 6);
    expect(cost.dynamodb).toBeCloseTo(1.25, 6);
    expect(cost.logs).toBeCloseTo(0.344, 6);
    expect(cost.total).toBeCloseTo(3.0073334, 6);
  });

  it('divides a batch by its decisions, except the write units every decision needs', () => {
    const batch = perDecision({ ...analyzeFloor, writeUnits: 200 }, 100);
    expect(batch.apiRequests).toBe(0.01);
    expect(batch.billedMs).toEqual([0.01, 0.01]);
    expect(batch.writeUnits).toBe(2);
    expect(costPerMillion(batch).total).toBeLessThan(costPerMillion(analyzeFloor).total);
  });

  it('follows the prices it is given, so another region is one table away', () => {
    const doubled = Object.fromEntries(Object.entries(PRICES).map(([k, v]) => [k, typeof v === 'number' ? v * 2 : v]));
    expect(costPerMillion(analyzeFloor, doubled as unknown as typeof PRICES).total).toBeCloseTo(
      2 * costPerMillion(analyzeFloor).total,
      6,
    );
  });
});

describe('billed Lambda milliseconds', () => {
  it('stretch CPU time to the 512 MB share of a vCPU, add the waiting, and round up to 1 ms', () => {
    // 1 ms of CPU at 512/1769 of a vCPU is 3.455 ms; plus 2 ms of waiting: 5.455, billed 6.
    expect(billedMs(1, 3, 512)).toBe(6);
    expect(billedMs(0.01, 0.02, 512)).toBe(1);
    expect(billedMs(1, 1, 1769)).toBe(1);
    expect(billedMs(1, 1, 3538)).toBe(1);
  });
});

describe('DynamoDB item size', () => {
  it('counts names and values in UTF-8, numbers by digits, maps and lists with their overhead', () => {
    expect(dynamoItemBytes({ pk: 'decision#abc' })).toBe(2 + 12);
    expect(dynamoItemBytes({ n: 12345 })).toBe(1 + 4);
    expect(dynamoItemBytes({ m: { a: 'xy' } })).toBe(1 + 3 + 1 + 1 + 2);
    expect(dynamoItemBytes({ l: ['a', 'bc'] })).toBe(1 + 3 + (1 + 1) + (1 + 2));
    expect(dynamoItemBytes({ t: 'é' })).toBe(1 + 2);
  });

  it('takes one write unit per started KB', () => {
    expect(writeUnitsFor(1)).toBe(1);
    expect(writeUnitsFor(1024)).toBe(1);
    expect(writeUnitsFor(1025)).toBe(2);
  });
});

describe('the managed NLP comparison', () => {
  it('bills 100-character units, at least 3, for each of the 3 requests a triage needs', () => {
    // 2,000 characters: 20 units x $0.0001 x 3 requests = $0.006 a signal, $6,000 a million.
    expect(managedNlpCostPerMillion(2_000)).toBeCloseTo(6_000, 6);
    expect(managedNlpCostPerMillion(50)).toBeCloseTo(3 * 0.0001 * 3 * 1e6, 6);
  });
});

describe('tracing', () => {
  it('costs one X-Ray trace per traced request, at the share traced, whatever the volume', () => {
    // By hand: 5% of a million requests traced = 50,000 traces x $5.00 a million = $0.25.
    expect(tracingCostPerMillion(0.05)).toBeCloseTo(0.25, 9);
    expect(tracingCostPerMillion(0)).toBe(0);
    expect(tracingCostPerMillion(1)).toBeCloseTo(5, 9);
  });

  it('bounds what waiting for X-Ray adds to the Lambda bill', () => {
    // By hand: 50,000 traced requests x 2 functions x 0.3 s x 0.5 GB x $0.0000133334 = $0.20.
    expect(tracingWaitCostPerMillionAtMost(0.05, 300, 512)).toBeCloseTo(0.200001, 6);
  });
});
