// What a call costs on AWS, from measured resources and the price table: a pure function, so that one line can be
// recomputed by hand (docs/performance.md does it) and tested without a database.
import { LAMBDA_MB_PER_VCPU, PRICES } from './prices';

type Prices = typeof PRICES;

/** What one request uses, as measured (or, for the floor, as the architecture cannot avoid). */
export interface CallResources {
  /** HTTP API requests (1 per call). */
  apiRequests: number;
  /** Billed milliseconds of each Lambda invocation the call makes (authorizer, route). */
  billedMs: number[];
  memoryMb: number;
  /** Write and read request units DynamoDB reported (table and indexes). */
  writeUnits: number;
  readUnits: number;
  /** Bytes of log events the call writes: Lambda logs and the API's access log line. */
  logBytes: number;
  /** How many log events those bytes are (CloudWatch counts 26 bytes of overhead per event). */
  logEvents: number;
  /** Months the log groups keep what the call wrote. */
  logRetentionMonths: number;
}

interface CallCost {
  api: number;
  lambdaRequests: number;
  lambdaDuration: number;
  dynamodb: number;
  logs: number;
  total: number;
}

const LOG_EVENT_OVERHEAD_BYTES = 26;

/** US dollars per million calls. */
export function costPerMillion(r: CallResources, prices: Prices = PRICES): CallCost {
  const gb = r.memoryMb / 1024;
  const api = r.apiRequests * prices.httpApiPerMillionRequests;
  const lambdaRequests = r.billedMs.length * prices.lambdaPerMillionInvocations;
  const lambdaDuration = r.billedMs.reduce((sum, ms) => sum + (ms / 1000) * gb, 0) * prices.lambdaArmPerGbSecond * 1e6;
  const dynamodb =
    r.writeUnits * prices.dynamodbPerMillionWriteUnits + r.readUnits * prices.dynamodbPerMillionReadUnits;
  // A million calls write (bytes + overhead) MB; ingestion and storage are priced per GB (10^9 bytes here, an upper bound).
  const logGb = ((r.logBytes + r.logEvents * LOG_EVENT_OVERHEAD_BYTES) * 1e6) / 1e9;
  const logs = logGb * (prices.cloudwatchLogsPerGbIngested + prices.cloudwatchLogsPerGbMonth * r.logRetentionMonths);
  const total = api + lambdaRequests + lambdaDuration + dynamodb + logs;
  return { api, lambdaRequests, lambdaDuration, dynamodb, logs, total };
}

/** Divides a call's resources by the decisions it makes (a batch of 100 costs per decision). */
export function perDecision(r: CallResources, decisions: number): CallResources {
  return {
    ...r,
    apiRequests: r.apiRequests / decisions,
    billedMs: r.billedMs.map((ms) => ms / decisions),
    writeUnits: r.writeUnits / decisions,
    readUnits: r.readUnits / decisions,
    logBytes: r.logBytes / decisions,
    logEvents: r.logEvents / decisions,
  };
}

/**
 * Lambda's billed duration for a handler measured here: its CPU time stretched to the function's share of a vCPU,
 * plus its waiting (database round trips) as measured, rounded up to the millisecond as Lambda bills.
 */
export function billedMs(cpuMs: number, wallMs: number, memoryMb: number): number {
  const share = Math.min(1, memoryMb / LAMBDA_MB_PER_VCPU);
  const waitMs = Math.max(0, wallMs - cpuMs);
  return Math.max(1, Math.ceil(cpuMs / share + waitMs));
}

/** DynamoDB write units of one standard write of an item of this many bytes (1 KB each, rounded up). */
export const writeUnitsFor = (bytes: number) => Math.max(1, Math.ceil(bytes / 1024));

/** The managed NLP API's price for one signal of this many characters: one request per question a triage asks. */
export function managedNlpCostPerMillion(chars: number, prices: Prices = PRICES): number {
  const units = Math.max(prices.comprehendMinUnits, Math.ceil(chars / prices.comprehendCharsPerUnit));
  return units * prices.comprehendPerUnit * prices.comprehendRequestsForATriage * 1e6;
}

/**
 * DynamoDB's item size: attribute names and values in UTF-8, numbers about one byte per two digits plus one,
 * maps and lists 3 bytes plus 1 per element, booleans and nulls 1 byte (DynamoDB developer guide, item sizes).
 */
export function dynamoItemBytes(item: Record<string, unknown>): number {
  let bytes = 0;
  for (const [name, value] of Object.entries(item)) {
    if (value === undefined) continue;
    bytes += Buffer.byteLength(name) + valueBytes(value);
  }
  return bytes;
}

function valueBytes(value: unknown): number {
  if (value === null || typeof value === 'boolean') return 1;
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (typeof value === 'number') {
    const digits =
      String(Math.abs(value))
        .replace(/[.\-e+]/g, '')
        .replace(/^0+/, '').length || 1;
    return Math.ceil(digits / 2) + 1;
  }
  if (Array.isArray(value)) return 3 + value.reduce((sum: number, v) => sum + 1 + valueBytes(v), 0);
  if (value instanceof Uint8Array) return value.byteLength;
  if (value instanceof Set) return [...value].reduce((sum: number, v) => sum + valueBytes(v), 0);
  if (typeof value === 'object') {
    return (
      3 +
      Object.entries(value as Record<string, unknown>).reduce(
        (sum, [k, v]) => (v === undefined ? sum : sum + 1 + Buffer.byteLength(k) + valueBytes(v)),
        0,
      )
    );
  }
  return 0;
}

interface EdgeCost {
  /** CloudFront's and WAF's per-request prices, per million requests. */
  cloudfront: number;
  waf: number;
  /** The web ACL and its rules, per month whatever the traffic. */
  fixedPerMonth: number;
}

/**
 * What edge protection adds (docs/deploy.md): every request passes CloudFront and the web ACL; the web ACL and its
 * rules cost a fixed amount a month. Data transfer is left out here as everywhere in this model.
 */
export function edgeCost(rules: number, prices: Prices = PRICES): EdgeCost {
  return {
    cloudfront: prices.cloudfrontHttpsPerMillionRequests,
    waf: prices.wafPerMillionRequests,
    fixedPerMonth: prices.wafPerWebAclMonth + rules * prices.wafPerRuleMonth,
  };
}

/** Edge protection's cost per million requests at a monthly volume, the fixed part spread over it. */
export const edgeCostPerMillionAt = (e: EdgeCost, millionsPerMonth: number) =>
  e.cloudfront + e.waf + e.fixedPerMonth / millionsPerMonth;

/**
 * X-Ray's price per million requests with a share `rate` of them traced (TRACE_SAMPLE_RATE): one trace per traced
 * request (its authorizer and route segments share the trace id, lambdas/tracing.ts), whatever the volume: there is
 * no per-second reservoir, as Lambda's active tracing had.
 */
export function tracingCostPerMillion(rate: number, prices: Prices = PRICES): number {
  return rate * prices.xrayPerMillionTracesRecorded;
}

/**
 * The most a traced request's sends can add to its Lambda bill, per million requests: `functions` invocations each
 * waiting up to `waitMs` for PutTraceSegments (its timeout), billed at `memoryMb`. An upper bound: a send on a
 * kept-alive connection takes a few milliseconds.
 */
export function tracingWaitCostPerMillionAtMost(
  rate: number,
  waitMs: number,
  memoryMb: number,
  functions = 2,
  prices: Prices = PRICES,
): number {
  return rate * functions * (waitMs / 1000) * (memoryMb / 1024) * prices.lambdaArmPerGbSecond * 1e6;
}
