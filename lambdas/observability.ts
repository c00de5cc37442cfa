// Powertools logger and metrics, built once per service from its settings. Logs carry request ids and decision ids:
// never a key, an Authorization header or a signal's text.
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { METRICS, METRICS_NAMESPACE, type MetricName, SERVICE_NAME } from './contract/observability';
import type { Settings } from './contract/settings';
import { daemonSink, xrayApiSink } from './trace-sinks';
import { Tracer, type TraceSink } from './tracing';

export interface Telemetry {
  logger: Logger;
  /** Absent when metrics are disabled (local mode, tests). */
  metrics?: Metrics;
  /**
   * Counts one event under a metric with its one dimension. The count is stored on the Powertools instance and
   * flushed as one EMF line when the invocation ends (the `logMetrics` middleware), as Powertools intends: a
   * Lambda instance serves one invocation at a time, so a request's dimensions cannot mix with another's.
   */
  count(metric: MetricName, dimensionValue: string): void;
  /** X-Ray segments for the share of requests traced (lambdas/tracing.ts); does nothing while tracing is off. */
  tracer: Tracer;
}

/** Where traced segments go: X-Ray's API in Lambda, an X-Ray daemon elsewhere, or a sink of the caller's (tests). */
export interface TracingRuntime {
  /** Lambda's process environment, given by the Lambda entry files: segments go to PutTraceSegments. */
  lambdaEnv?: Readonly<Record<string, string | undefined>>;
  sink?: TraceSink;
}

export function createTelemetry(
  settings: Pick<
    Settings,
    'logLevel' | 'metricsEnabled' | 'tracingEnabled' | 'traceSampleRate' | 'xrayDaemonAddress' | 'region'
  >,
  runtime: TracingRuntime = {},
): Telemetry {
  const logger = new Logger({ serviceName: SERVICE_NAME, logLevel: settings.logLevel });
  const sink =
    runtime.sink ??
    (runtime.lambdaEnv
      ? xrayApiSink({ region: settings.region, warn: (message, detail) => logger.warn(message, detail) })
      : daemonSink(settings.xrayDaemonAddress));
  const tracer = new Tracer({ enabled: settings.tracingEnabled, sampleRate: settings.traceSampleRate, sink });
  const metrics = settings.metricsEnabled
    ? new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAME })
    : undefined;
  return {
    logger,
    metrics,
    tracer,
    count(metric, dimensionValue) {
      if (!metrics) return;
      const { name, dimension } = METRICS[metric];
      metrics.addDimension(dimension, dimensionValue);
      metrics.addMetric(name, MetricUnit.Count, 1);
    },
  };
}

/**
 * What a log may say about an error: its name and stack frames, never its message (which could quote request data).
 * V8's stack starts with `name: message`; the message's own lines are skipped, so one spanning lines cannot leak.
 */
export function describeError(err: unknown): { name: string; frames?: string[]; cause?: string } {
  if (!(err instanceof Error)) return { name: typeof err };
  const messageLines = err.message.split('\n').length;
  const frames = (err.stack ?? '')
    .split('\n')
    .slice(messageLines)
    .map((line) => line.trim())
    .filter((line) => line.startsWith('at '))
    .slice(0, 15);
  const cause = (err as { cause?: unknown }).cause;
  return { name: err.name, frames, ...(cause instanceof Error ? { cause: cause.name } : {}) };
}
