// The one X-Ray call the Lambdas make, PutTraceSegments, in a module of its own: lambdas/trace-sinks.ts requires it on
// the first traced invocation, and the bundles ship it as a file of its own beside index.js (lib/lambda-bundling.ts,
// LAZY_BUNDLES): with the SDK parts DynamoDB does not use, it would add about 65 KB and a tenth of module init to
// every function, traced or not, and make the fallback's 57 KB bundle 250 KB.
import { PutTraceSegmentsCommand, XRayClient, type XRayClientConfig } from '@aws-sdk/client-xray';

/** Sends one segment document; at most one attempt, given up after `timeoutMs` whatever the connection does. */
export type SendSegment = (document: string) => Promise<{ UnprocessedTraceSegments?: { ErrorCode?: string }[] }>;

export function createSegmentSender(
  config: Pick<XRayClientConfig, 'region' | 'endpoint' | 'credentials'>,
  timeoutMs: number,
): SendSegment {
  const client = new XRayClient({
    ...config,
    maxAttempts: 1,
    requestHandler: { connectionTimeout: timeoutMs, requestTimeout: timeoutMs },
  });
  return (document) =>
    client.send(new PutTraceSegmentsCommand({ TraceSegmentDocuments: [document] }), {
      abortSignal: AbortSignal.timeout(timeoutMs),
    });
}
