// X-Ray tracing without the X-Ray SDK. Lambda's active tracing (lib/stack/functions.ts) samples invocations and
// records their segments; for a sampled invocation, and only for one, this records a subsegment named after the
// route, with its annotations (the decision id) and one subsegment per DynamoDB call, and sends it to the X-Ray
// daemon Lambda runs beside the function (UDP, the documented daemon protocol). An invocation Lambda did not sample
// costs one string test and one branch per DynamoDB call: nothing is timed, built or sent, and no SDK is loaded.
// Outside Lambda (local mode) there is no trace header: with tracing asked for, every request is traced as a segment
// of its own. Annotations hold ids only, never a key, a header or a signal's text.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { type Socket, createSocket } from 'node:dgram';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** The X-Ray header of a sampled invocation, parsed; undefined when the invocation is not sampled. */
export interface TraceParent {
  traceId: string;
  parentId: string;
}

/** `Root=1-…;Parent=…;Sampled=1` (Lambda's `_X_AMZN_TRACE_ID`): its root and parent when sampled, else undefined. */
export function sampledParent(header: string | undefined): TraceParent | undefined {
  if (header === undefined || !header.includes('Sampled=1')) return undefined;
  let traceId: string | undefined;
  let parentId: string | undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    const key = part.slice(0, eq).trim();
    if (key === 'Root') traceId = part.slice(eq + 1);
    else if (key === 'Parent') parentId = part.slice(eq + 1);
  }
  return traceId && parentId ? { traceId, parentId } : undefined;
}

type Annotation = string | number | boolean;

/** A (sub)segment document as the X-Ray daemon takes it (times in seconds since the epoch). */
export interface TraceDocument {
  id: string;
  name: string;
  start_time: number;
  end_time?: number;
  trace_id?: string;
  parent_id?: string;
  type?: 'subsegment';
  namespace?: 'aws';
  origin?: string;
  annotations?: Record<string, Annotation>;
  aws?: Record<string, unknown>;
  http?: { response: { status: number } };
  error?: boolean;
  fault?: boolean;
  subsegments?: TraceDocument[];
}

/** X-Ray names take no braces (a route key's path parameters): `GET /api/v1/decisions/decision_id`. */
const segmentName = (name: string) => name.replace(/[{}]/g, '');

const newId = () => randomBytes(8).toString('hex');
const seconds = () => Date.now() / 1000;
const newTraceId = () => `1-${Math.floor(seconds()).toString(16)}-${randomBytes(12).toString('hex')}`;

/** Where documents go: the daemon's UDP port. Tests and the bench give their own. */
export type TraceSink = (document: TraceDocument) => void;

/** Sends each document to the X-Ray daemon at `address` (`host:port`, Lambda's AWS_XRAY_DAEMON_ADDRESS). */
export function daemonSink(address = '127.0.0.1:2000'): TraceSink {
  const [host, port] = [
    address.slice(0, address.lastIndexOf(':')),
    Number(address.slice(address.lastIndexOf(':') + 1)),
  ];
  let socket: Socket | undefined;
  return (document) => {
    // Made on first use (a sampled invocation), and unref'd: it never keeps a process alive.
    socket ??= createSocket('udp4').unref();
    socket.send(`{"format":"json","version":1}\n${JSON.stringify(document)}`, port, host);
  };
}

export interface TracerOptions {
  /** Off: no invocation is traced, whatever the header says. */
  enabled: boolean;
  /**
   * The invocation's X-Ray header (Lambda's `_X_AMZN_TRACE_ID`, read per invocation): Lambda decides what is traced.
   * Absent outside Lambda, where every request is traced while tracing is on (local mode, when asked for).
   */
  header?: () => string | undefined;
  sink: TraceSink;
  /** Names the segment of a request traced outside Lambda. */
  serviceName: string;
}

interface Invocation {
  root: TraceDocument;
}

/** The table a call names, or the tables of a batch (X-Ray's `table_name` / `table_names`). */
function tablesOf(input: { TableName?: string; RequestItems?: object }): Record<string, unknown> {
  if (input.TableName) return { table_name: input.TableName };
  return input.RequestItems ? { table_names: Object.keys(input.RequestItems) } : {};
}

export class Tracer {
  private readonly current = new AsyncLocalStorage<Invocation>();

  constructor(private readonly options: TracerOptions) {}

  /**
   * Runs one invocation, traced when sampled (Lambda's decision, or every request while asked for in local mode), as
   * a (sub)segment named `name` (worked out only for a traced one).
   */
  run<T>(name: string | (() => string), fn: () => Promise<T>): Promise<T> {
    if (!this.options.enabled) return fn();
    const parent = this.options.header && sampledParent(this.options.header());
    if (this.options.header && !parent) return fn(); // in Lambda, not sampled: nothing more
    return this.traced(segmentName(typeof name === 'string' ? name : name()), parent, fn);
  }

  private traced<T>(name: string, parent: TraceParent | undefined, fn: () => Promise<T>): Promise<T> {
    const root: TraceDocument = parent
      ? { id: newId(), name, start_time: seconds(), trace_id: parent.traceId, parent_id: parent.parentId }
      : { id: newId(), name: this.options.serviceName, start_time: seconds(), trace_id: newTraceId() };
    if (parent) root.type = 'subsegment';
    else root.annotations = { route: name };
    return this.current.run({ root }, async () => {
      try {
        return await fn();
      } catch (err) {
        root.fault = true;
        throw err;
      } finally {
        root.end_time = seconds();
        this.options.sink(root);
      }
    });
  }

  /** Adds an annotation (searchable in X-Ray) to the invocation being traced; nothing when none is. */
  annotate(key: string, value: Annotation): void {
    const invocation = this.current.getStore();
    if (invocation) (invocation.root.annotations ??= {})[key] = value;
  }

  /** Records each DynamoDB call of a traced invocation as a subsegment (operation, table, request id, outcome). */
  instrument(client: DynamoDBDocumentClient, region: string): void {
    if (!this.options.enabled) return;
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const invocation = this.current.getStore();
        if (!invocation) return next(args);
        const input = args.input as { TableName?: string; RequestItems?: object };
        const operation = (context.commandName ?? 'Unknown').replace(/Command$/, '');
        const sub: TraceDocument = {
          id: newId(),
          name: 'DynamoDB',
          namespace: 'aws',
          start_time: seconds(),
          aws: { operation, region, ...tablesOf(input) },
        };
        (invocation.root.subsegments ??= []).push(sub);
        try {
          const out = await next(args);
          const meta = (out.output as { $metadata?: { requestId?: string; httpStatusCode?: number } }).$metadata;
          if (meta?.requestId) sub.aws!.request_id = meta.requestId;
          if (meta?.httpStatusCode) sub.http = { response: { status: meta.httpStatusCode } };
          return out;
        } catch (err) {
          // A 4xx (a failed condition, throttling) is the call's error; a 5xx or no answer, its fault.
          const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode ?? 0;
          if (status >= 500 || status === 0) sub.fault = true;
          else sub.error = true;
          throw err;
        } finally {
          sub.end_time = seconds();
        }
      },
      { step: 'initialize', name: 'xrayTraceSubsegment' },
    );
  }
}
