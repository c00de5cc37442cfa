// Where a traced invocation's segment goes (lambdas/tracing.ts). In Lambda: X-Ray's own API, PutTraceSegments, called
// before the invocation returns (Lambda freezes the function then, and with tracing in PassThrough it runs no X-Ray
// daemon for us). In local mode, when asked for: an X-Ray daemon's UDP port. Neither ever fails a request: a segment
// that cannot be sent within its time is dropped with a warning that names the error and nothing of the request.
import { type Socket, createSocket } from 'node:dgram';
import type { TraceDocument, TraceSink } from './tracing';
import type { SendSegment } from './xray-client';

/**
 * How long a sampled invocation may wait for X-Ray: one attempt, no retry. An in-region call on a kept-alive
 * connection takes milliseconds; a new TLS connection more. The bench prices the wait at this bound.
 */
export const TRACE_SEND_TIMEOUT_MS = 300;

/** Told when a segment was not sent or not taken: what happened, in X-Ray's or the SDK's words, never request data. */
type TraceWarning = (message: string, detail: { error: string }) => void;

interface XrayApiSinkOptions {
  region: string;
  warn: TraceWarning;
  timeoutMs?: number;
  /** Tests only: an endpoint of their own, with credentials for it (in Lambda, the function's own are used). */
  endpoint?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/**
 * The X-Ray client, loaded on the first traced invocation: the bundles ship it beside index.js as a file of its own
 * (lib/lambda-bundling.ts, LAZY_BUNDLES), so an invocation never traced never reads, parses or runs it. A require,
 * not an import(): Node's require finds `./xray-client.js` there, where import() would need the extension written.
 */
function loadSender(options: XrayApiSinkOptions): SendSegment {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, from its own file (above)
  const { createSegmentSender } = require('./xray-client') as typeof import('./xray-client');
  const { region, endpoint, credentials } = options;
  return createSegmentSender({ region, endpoint, credentials }, options.timeoutMs ?? TRACE_SEND_TIMEOUT_MS);
}

/** Sends each segment with PutTraceSegments, waiting at most TRACE_SEND_TIMEOUT_MS; resolves whatever happens. */
export function xrayApiSink(options: XrayApiSinkOptions): TraceSink {
  let sender: SendSegment | undefined;
  return async (segment: TraceDocument) => {
    try {
      sender ??= loadSender(options);
      const { UnprocessedTraceSegments: refused = [] } = await sender(JSON.stringify(segment));
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
