// Where a traced invocation's segment goes (lambdas/tracing.ts). In Lambda: X-Ray's own API, PutTraceSegments, called
// before the invocation returns (Lambda freezes the function then, and with tracing in PassThrough it runs no X-Ray
// daemon for us). In local mode, when asked for: an X-Ray daemon's UDP port. Neither ever fails a request: a segment
// that cannot be sent within its time is dropped with a warning that names the error and nothing of the request.
import { type Socket, createSocket } from 'node:dgram';
import type { TraceDocument, TraceSink } from './tracing';

/**
 * How long a sampled invocation may wait for X-Ray: one attempt, no retry. An in-region call on a kept-alive
 * connection takes milliseconds; a new TLS connection more. The bench prices the wait at this bound.
 */
export const TRACE_SEND_TIMEOUT_MS = 300;

/** Told when a segment was not sent or not taken: what happened, in X-Ray's or the SDK's words, never request data. */
export type TraceWarning = (message: string, detail: { error: string }) => void;

export interface XrayApiSinkOptions {
  region: string;
  warn: TraceWarning;
  timeoutMs?: number;
  /** Tests only: an endpoint of their own, with credentials for it (in Lambda, the function's own are used). */
  endpoint?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

type SendSegment = (document: string) => Promise<{ UnprocessedTraceSegments?: { ErrorCode?: string }[] }>;

/** The X-Ray client, loaded on the first traced invocation: an invocation never traced never pays its module init. */
async function loadSender(options: XrayApiSinkOptions): Promise<SendSegment> {
  const { XRayClient, PutTraceSegmentsCommand } = await import('@aws-sdk/client-xray');
  const timeoutMs = options.timeoutMs ?? TRACE_SEND_TIMEOUT_MS;
  const client = new XRayClient({
    region: options.region,
    endpoint: options.endpoint,
    credentials: options.credentials,
    maxAttempts: 1,
    requestHandler: { connectionTimeout: timeoutMs, requestTimeout: timeoutMs },
  });
  return (document) =>
    client.send(new PutTraceSegmentsCommand({ TraceSegmentDocuments: [document] }), {
      abortSignal: AbortSignal.timeout(timeoutMs),
    });
}

/** Sends each segment with PutTraceSegments, waiting at most TRACE_SEND_TIMEOUT_MS; resolves whatever happens. */
export function xrayApiSink(options: XrayApiSinkOptions): TraceSink {
  let sender: Promise<SendSegment> | undefined;
  return async (segment: TraceDocument) => {
    try {
      sender ??= loadSender(options);
      const { UnprocessedTraceSegments: refused = [] } = await (await sender)(JSON.stringify(segment));
      if (refused.length > 0) options.warn('trace segment refused', { error: refused[0].ErrorCode ?? 'unknown' });
    } catch (err) {
      options.warn('trace segment not sent', { error: err instanceof Error ? err.name : typeof err });
    }
  };
}

/** Sends each segment to an X-Ray daemon at `address` (`host:port`) over UDP, the daemon's documented protocol. */
export function daemonSink(address = '127.0.0.1:2000'): TraceSink {
  const host = address.slice(0, address.lastIndexOf(':'));
  const port = Number(address.slice(address.lastIndexOf(':') + 1));
  let socket: Socket | undefined;
  return (segment) => {
    // Made on first use and unref'd: it never keeps a process alive. A send that fails is a lost segment, no more.
    socket ??= createSocket('udp4')
      .on('error', () => undefined)
      .unref();
    socket.send(`{"format":"json","version":1}\n${JSON.stringify(segment)}`, port, host);
  };
}
