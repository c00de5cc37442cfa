// Names the Lambdas emit under and the stack's alarms read: one place, so a renamed metric cannot orphan an alarm.

export const SERVICE_NAME = 'signal-analysis';
/**
 * One namespace per stage (`SignalAnalysis/prod`): stages share an account (docs/deploy.md), and an alarm of one stage
 * must not fire on another's metrics.
 */
export const metricsNamespace = (stage: string) => `SignalAnalysis/${stage}`;

/** Each metric is a count with one dimension. */
export const METRICS = {
  /** Decisions stored, by priority. */
  decisions: { name: 'Decisions', dimension: 'priority' },
  /** Requests the authorizer's verdict refused, by error code. */
  authRefusals: { name: 'AuthRefusals', dimension: 'code' },
  /** 5xx answers in the contract's shape, by error code. */
  serverErrors: { name: 'ServerErrors', dimension: 'code' },
} as const;

export type MetricName = keyof typeof METRICS;
