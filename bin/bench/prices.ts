// AWS list prices the cost model uses: us-east-1, arm64, on-demand, no free tier, no savings plans, first tier of
// each tiered price. Read on 2026-11-23 from the public pricing pages below; re-read them before quoting a figure,
// and change only this file (with its date) when they move. docs/performance.md explains how to recompute a line
// for another region or memory size.
export const PRICES = {
  date: '2026-11-23',
  region: 'us-east-1',
  /** https://aws.amazon.com/api-gateway/pricing/ — HTTP APIs, first 300 million a month; metered per 512 KB. */
  httpApiPerMillionRequests: 1.0,
  /** https://aws.amazon.com/lambda/pricing/ — requests, any architecture. */
  lambdaPerMillionInvocations: 0.2,
  /** https://aws.amazon.com/lambda/pricing/ — Arm, first 7.5 billion GB-s a month; duration billed per 1 ms. */
  lambdaArmPerGbSecond: 0.0000133334,
  /** https://aws.amazon.com/dynamodb/pricing/on-demand/ — write request unit: one write of up to 1 KB. */
  dynamodbPerMillionWriteUnits: 0.625,
  /** The same page — read request unit: one strongly consistent read of up to 4 KB (eventually consistent: half). */
  dynamodbPerMillionReadUnits: 0.125,
  /** The same page — table storage, Standard table class, per GB-month. */
  dynamodbPerGbMonth: 0.25,
  /** https://aws.amazon.com/cloudwatch/pricing/ — Logs, Standard class: ingestion per GB (vended and custom alike). */
  cloudwatchLogsPerGbIngested: 0.5,
  /** The same page — Logs storage per GB-month (compressed; we count it uncompressed, an upper bound). */
  cloudwatchLogsPerGbMonth: 0.03,
  /**
   * https://aws.amazon.com/comprehend/pricing/ — the managed NLP API we compare with: standard NLP requests
   * (sentiment, entities, key phrases, language) bill per unit of 100 characters, at least 3 units a request.
   * One request answers one question: a triage like ours needs at least sentiment + entities + key phrases.
   */
  comprehendPerUnit: 0.0001,
  comprehendCharsPerUnit: 100,
  comprehendMinUnits: 3,
  comprehendRequestsForATriage: 3,
  /** https://aws.amazon.com/cloudfront/pricing/ — edge protection: HTTPS requests, United States ($0.0100 per 10,000). */
  cloudfrontHttpsPerMillionRequests: 1.0,
  /** https://aws.amazon.com/waf/pricing/ — requests a web ACL inspects, blocked ones included. */
  wafPerMillionRequests: 0.6,
  /** The same page — each web ACL, and each rule or managed rule group in it, per month (prorated hourly). */
  wafPerWebAclMonth: 5.0,
  wafPerRuleMonth: 1.0,
  /** https://aws.amazon.com/xray/pricing/ — traces recorded (a traced request is one: its two segments share it), per million. */
  xrayPerMillionTracesRecorded: 5.0,
} as const;

/** Lambda gives a function one full vCPU at 1,769 MB and a share in proportion below that (Lambda documentation). */
export const LAMBDA_MB_PER_VCPU = 1769;
