// Powertools logger and metrics, built once per service from its settings. Logs carry request ids and decision ids:
// never a key, an Authorization header or a signal's text.
import { LogFormatter, LogItem, Logger } from '@aws-lambda-powertools/logger';
import type { LogAttributes } from '@aws-lambda-powertools/logger/types';
import type { Context } from 'aws-lambda';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { METRICS, type MetricName, SERVICE_NAME, metricsNamespace } from './contract/observability';
import type { Settings } from './contract/settings';
import { daemonSink, xrayApiSink } from './trace-sinks';
import { Tracer, type TraceSink } from './tracing';

export interface Telemetry {
  logger: Logger;
  /** Absent when metrics are disabled (local mode, tests). */
  metrics?: Metrics;
  /**
   * Counts one event under a metric with its one dimension. Counts are totalled per dimension value until
   * `publishCounts`, at the invocation's end: a Lambda instance serves one invocation at a time, so a request's
   * counts cannot mix with another's.
   */
  count(metric: MetricName, dimensionValue: string): void;
  /**
   * Publishes the counts since the last call through the shared Powertools instance, one EMF line per dimension value
   * (a line holds one value per dimension: Powertools overwrites a dimension added twice, so a batch's decisions,
   * one count per priority, would all land under the last priority counted). Writes nothing when nothing was counted.
   */
  publishCounts(): void;
  /** X-Ray segments for the share of requests traced (lambdas/tracing.ts); does nothing while tracing is off. */
  tracer: Tracer;
}

/** Where traced segments go: X-Ray's API in Lambda, an X-Ray daemon elsewhere, or a sink of the caller's (tests). */
export interface TracingRuntime {
  /** Set by the Lambda entry files: segments go to X-Ray's API (PutTraceSegments), as no daemon runs there. */
  inLambda?: boolean;
  sink?: TraceSink;
}

/**
 * Powertools' own log shape without the attributes that repeat what the log group already says (the function's ARN
 * and memory size), never vary (`sampling_rate`, 0) or name a trace nobody records (Lambda's `xray_trace_id`: our
 * traces have ids of their own, found by the `request_id` annotation): about 120 bytes less on every line, 2-3% of
 * an analyze's or a feedback's cost in log ingestion (docs/performance.md, "Log bytes").
 */
class ServiceLogFormatter extends LogFormatter {
  formatAttributes(attributes: Parameters<LogFormatter['formatAttributes']>[0], more: LogAttributes): LogItem {
    const context = attributes.lambdaContext;
    return new LogItem({
      attributes: {
        level: attributes.logLevel,
        message: attributes.message,
        timestamp: this.formatTimestamp(attributes.timestamp),
        service: attributes.serviceName,
        cold_start: context?.coldStart,
        function_name: context?.functionName,
        function_request_id: context?.awsRequestId,
      },
    }).addAttributes(more);
  }
}

/**
 * What names a log line's own request: its request id, and the function and invocation serving it. Powertools keeps
 * the Lambda context it was last given on the logger (addContext, injectLambdaContext), which in a Lambda is the one
 * invocation running; local mode serves every route and the authorizer at once through one logger, where that is the
 * context of the request started last. Given on each line, these win over the logger's (ServiceLogFormatter).
 */
export function requestLogAttributes(
  requestId: string | undefined,
  context: Pick<Context, 'functionName' | 'awsRequestId'>,
): LogAttributes {
  return { request_id: requestId, function_name: context.functionName, function_request_id: context.awsRequestId };
}

export function createTelemetry(
  settings: Pick<
    Settings,
    'logLevel' | 'metricsEnabled' | 'tracingEnabled' | 'traceSampleRate' | 'xrayDaemonAddress' | 'region' | 'stage'
  >,
  runtime: TracingRuntime = {},
): Telemetry {
  const logger = new Logger({
    serviceName: SERVICE_NAME,
    logLevel: settings.logLevel,
    logFormatter: new ServiceLogFormatter(),
  });
  const sink =
    runtime.sink ??
    (runtime.inLambda
      ? xrayApiSink({ region: settings.region, warn: (message, detail) => logger.warn(message, detail) })
      : daemonSink(settings.xrayDaemonAddress));
  const tracer = new Tracer({ enabled: settings.tracingEnabled, sampleRate: settings.traceSampleRate, sink });
  const metrics = settings.metricsEnabled
    ? new Metrics({ namespace: metricsNamespace(settings.stage), serviceName: SERVICE_NAME })
    : undefined;
  /** Totals since the last publish: dimension name, then its value, then metric name. */
  const pending = new Map<string, Map<string, Map<string, number>>>();
  return {
    logger,
    metrics,
    tracer,
    count(metric, dimensionValue) {
      if (!metrics) return;
      const { name, dimension } = METRICS[metric];
      let values = pending.get(dimension);
      if (!values) pending.set(dimension, (values = new Map<string, Map<string, number>>()));
      let totals = values.get(dimensionValue);
      if (!totals) values.set(dimensionValue, (totals = new Map<string, number>()));
      totals.set(name, (totals.get(name) ?? 0) + 1);
    },
    publishCounts() {
      if (!metrics) return;
      for (const [dimension, values] of pending)
        for (const [value, totals] of values) {
          metrics.addDimension(dimension, value);
          for (const [name, total] of totals) metrics.addMetric(name, MetricUnit.Count, total);
          metrics.publishStoredMetrics();
        }
      pending.clear();
    },
  };
}

/** A system error's code (`ECONNREFUSED`, `ETIMEDOUT`): a word of capitals, never data. */
const SYSTEM_CODE = /^E[A-Z0-9_]{1,30}$/;
const codeOf = (err: unknown): string | undefined => {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && SYSTEM_CODE.test(code) ? code : undefined;
};

/**
 * What a log may say about an error: its name, a system error's code (a database that refused the connection says
 * `ECONNREFUSED`) and stack frames, never its message (which could quote request data). V8's stack starts with
 * `name: message`; the message's own lines are skipped, so one spanning lines cannot leak.
 */
export function describeError(err: unknown): { name: string; code?: string; frames?: string[]; cause?: string } {
  if (!(err instanceof Error)) return { name: typeof err };
  const messageLines = err.message.split('\n').length;
  const frames = (err.stack ?? '')
    .split('\n')
    .slice(messageLines)
    .map((line) => line.trim())
    .filter((line) => line.startsWith('at '))
    .slice(0, 15);
  const cause = (err as { cause?: unknown }).cause;
  const code = codeOf(err) ?? codeOf(cause);
  return {
    name: err.name,
    ...(code ? { code } : {}),
    frames,
    ...(cause instanceof Error ? { cause: cause.name } : {}),
  };
}
