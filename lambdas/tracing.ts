// X-Ray tracing without the X-Ray SDK, at a share of requests we choose (Settings.traceSampleRate). Lambda's active
// tracing samples 1 invocation a second and 5% of the rest, a rule Lambda does not let a function change, so the
// stack leaves Lambda in PassThrough (it records nothing: API Gateway HTTP APIs send no sampled trace header) and the
// decision is ours. It follows from API Gateway's request id: the authorizer and the route of one request hash the
// same id, so both decide alike, with nothing passed between them and whatever the authorizer's cache does, and both
// derive the same trace id, so a traced request is one trace holding both segments. A traced invocation becomes a
// segment named after its route (or `authorizer`), with the request id and the decision id as annotations and one
// subsegment per DynamoDB call, handed to a sink (lambdas/trace-sinks.ts: X-Ray's PutTraceSegments in Lambda, a
// daemon in local mode) before the invocation returns. An invocation not traced costs a 32-bit hash of its request
// id: nothing is timed, built or sent. Annotations hold ids only, never a key, a header or a signal's text.
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomBytes } from 'node:crypto';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

type Annotation = string | number | boolean;

/** A segment or subsegment document as X-Ray takes it (times in seconds since the epoch). */
export interface TraceDocument {
  id: string;
  name: string;
  start_time: number;
  end_time?: number;
  trace_id?: string;
  namespace?: 'aws';
  annotations?: Record<string, Annotation>;
  aws?: Record<string, unknown>;
  http?: { response: { status: number } };
  error?: boolean;
  fault?: boolean;
  subsegments?: TraceDocument[];
}

/** Where a finished segment goes. It must settle (never reject) before the invocation returns: Lambda freezes then. */
export type TraceSink = (segment: TraceDocument) => Promise<void> | void;

/** What an invocation's event says about its request (API Gateway's `requestContext`, payload 2.0). */
interface TracedRequest {
  requestId?: string;
  /** When API Gateway received the request (ms since the epoch): the trace id's time, the same for both functions. */
  timeEpoch?: number;
}

/**
 * Past this many DynamoDB subsegments a segment only counts its calls (annotation `dynamodb_calls_untraced`): a segment
 * document is limited to 64 KB, and a bulk import can make hundreds of calls.
 */
const MAX_CALL_SUBSEGMENTS = 100;

/** X-Ray names take letters, digits, spaces and `_ . : / % & # = + \ - @` only: `GET /api/v1/decisions/decision_id`. */
const segmentName = (name: string) => name.replace(/[^\p{L}\p{N}\s_.:/%&#=+\\@-]/gu, '');

const newId = () => randomBytes(8).toString('hex');
const seconds = () => Date.now() / 1000;

/** A request id's place in [0, 1): FNV-1a over its characters, then murmur3's finalizer to spread the bits. */
export function sampleKey(requestId: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < requestId.length; i++) h = Math.imul(h ^ requestId.charCodeAt(i), 0x01000193);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return ((h ^ (h >>> 16)) >>> 0) / 2 ** 32;
}

/**
 * The trace id of a traced request, or undefined when the request is not traced at `rate`. The same request id and
 * time give the same answer in every function: `1-<time, 8 hex>-<96 bits of the id's SHA-256>`.
 */
export function traceIdFor(request: TracedRequest, rate: number, now = Date.now()): string | undefined {
  if (rate <= 0) return undefined;
  const requestId = request.requestId ?? randomBytes(12).toString('hex'); // an event without one: decided alone
  if (rate < 1 && sampleKey(requestId) >= rate) return undefined;
  const time = Math.floor((request.timeEpoch ?? now) / 1000)
    .toString(16)
    .padStart(8, '0');
  return `1-${time}-${createHash('sha256').update(requestId).digest('hex').slice(0, 24)}`;
}

interface TracerOptions {
  /** Off: nothing is traced. */
  enabled: boolean;
  /** The share of requests traced, 0 to 1. */
  sampleRate: number;
  sink: TraceSink;
}

interface Invocation {
  segment: TraceDocument;
  untracedCalls: number;
}

/** The table a call names, or the tables of a batch (X-Ray's `table_name` / `table_names`). */
function tablesOf(input: { TableName?: string; RequestItems?: object }): Record<string, unknown> {
  if (input.TableName) return { table_name: input.TableName };
  return input.RequestItems ? { table_names: Object.keys(input.RequestItems) } : {};
}

/** An HTTP answer's status on its segment: a 4xx is the request's error, a 5xx its fault. */
function recordStatus(segment: TraceDocument, result: unknown): void {
  const status = (result as { statusCode?: unknown } | undefined)?.statusCode;
  if (typeof status !== 'number') return;
  segment.http = { response: { status } };
  if (status >= 500) segment.fault = true;
  else if (status >= 400) segment.error = true;
}

export class Tracer {
  private readonly current = new AsyncLocalStorage<Invocation>();

  constructor(private readonly options: TracerOptions) {}

  /**
   * Runs one invocation; when its request is traced, as a segment named `name` (worked out only then), sent before
   * this resolves.
   */
  run<T>(name: string | (() => string), request: TracedRequest | undefined, fn: () => Promise<T>): Promise<T> {
    if (!this.options.enabled) return fn();
    const traceId = traceIdFor(request ?? {}, this.options.sampleRate);
    if (!traceId) return fn();
    const segment: TraceDocument = {
      id: newId(),
      name: segmentName(typeof name === 'string' ? name : name()),
      trace_id: traceId,
      start_time: seconds(),
      ...(request?.requestId ? { annotations: { request_id: request.requestId } } : {}),
    };
    return this.current.run({ segment, untracedCalls: 0 }, async () => {
      try {
        const result = await fn();
        recordStatus(segment, result);
        return result;
      } catch (err) {
        segment.fault = true;
        throw err;
      } finally {
        segment.end_time = seconds();
        // A sink reports its own failures; one that throws anyway must not fail the request it traced.
        await Promise.resolve()
          .then(() => this.options.sink(segment))
          .catch(() => undefined);
      }
    });
  }

  /** Adds an annotation (searchable in X-Ray) to the invocation being traced; nothing when none is. */
  annotate(key: string, value: Annotation): void {
    const invocation = this.current.getStore();
    if (invocation) (invocation.segment.annotations ??= {})[key] = value;
  }

  /** Records each DynamoDB call of a traced invocation as a subsegment (operation, table, request id, outcome). */
  instrument(client: DynamoDBDocumentClient, region: string): void {
    if (!this.options.enabled) return;
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const invocation = this.current.getStore();
        if (!invocation) return next(args);
        const calls = (invocation.segment.subsegments ??= []);
        if (calls.length >= MAX_CALL_SUBSEGMENTS) {
          this.annotate('dynamodb_calls_untraced', ++invocation.untracedCalls);
          return next(args);
        }
        const input = args.input as { TableName?: string; RequestItems?: object };
        const operation = (context.commandName ?? 'Unknown').replace(/Command$/, '');
        const sub: TraceDocument = {
          id: newId(),
          name: 'DynamoDB',
          namespace: 'aws',
          start_time: seconds(),
          aws: { operation, region, ...tablesOf(input) },
        };
        calls.push(sub);
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
