// Powertools logger and metrics, set up once per container. Logs carry request ids and decision ids: never a key,
// an Authorization header or a signal's text.
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

export const SERVICE_NAME = 'signal-analysis';
export const METRICS_NAMESPACE = 'SignalAnalysis';

export const logger = new Logger({ serviceName: SERVICE_NAME });
export const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAME });

/** One metric with one dimension, emitted at once (EMF), e.g. decisions by priority or refusals by code. */
export function countWithDimension(metric: string, dimension: string, value: string): void {
  const single = metrics.singleMetric();
  single.addDimension(dimension, value);
  single.addMetric(metric, MetricUnit.Count, 1);
}
