// The stack's settings (CDK context, `-c key=value`): each one's default and lowest value, in one place. The
// defaults the Lambdas share (cache times, retention) are the settings parser's own; README.md and docs/deploy.md
// quote these (test/unit/readme.test.ts checks them). cdk.json holds none, so `-c` and this table are all there is.
import { DEFAULT_SETTINGS, DEFAULT_STAGE, WHOLE_SETTING_BOUNDS } from '../lambdas/contract/settings';

/**
 * The whole-number settings: default, minimum and, for those the Lambdas read, the maximum their settings parser
 * takes (a value outside, or not an integer, stops the synth: deployed, every Lambda would fail at start).
 */
export const INT_CONTEXT = {
  throttlingRateLimit: { default: 100, min: 1 },
  throttlingBurstLimit: { default: 200, min: 1 },
  decisionRetentionDays: {
    default: DEFAULT_SETTINGS.decisionRetentionDays,
    ...WHOLE_SETTING_BOUNDS.decisionRetentionDays,
  },
  authCacheTtlSeconds: { default: DEFAULT_SETTINGS.authCacheTtlSeconds, ...WHOLE_SETTING_BOUNDS.authCacheTtlSeconds },
  workspaceCacheTtlSeconds: {
    default: DEFAULT_SETTINGS.workspaceCacheTtlSeconds,
    ...WHOLE_SETTING_BOUNDS.workspaceCacheTtlSeconds,
  },
  logRetentionDays: { default: 365, min: 1 },
  /** Requests one client IP may send in 5 minutes before WAF blocks it (edge protection only). */
  edgeIpRateLimit: { default: 6_000, min: 100 },
} as const satisfies Record<string, { default: number; min: number; max?: number }>;

export type IntContextKey = keyof typeof INT_CONTEXT;

/** The on/off settings and their defaults (`-c key=true|false`). */
export const BOOLEAN_CONTEXT = {
  edgeProtection: false,
  keepRetiredIndexes: false,
  /** X-Ray tracing of a share of requests (traceSampleRate; docs/performance.md prices it). */
  tracing: true,
} as const satisfies Record<string, boolean>;

/** The settings that are a share from 0 to 1 (`-c key=0.01`), with their defaults. */
export const FRACTION_CONTEXT = {
  /** TRACE_SAMPLE_RATE of every Lambda: the share of requests traced while `tracing` is on. */
  traceSampleRate: DEFAULT_SETTINGS.traceSampleRate,
} as const satisfies Record<string, number>;

export type FractionContextKey = keyof typeof FRACTION_CONTEXT;

/** Every setting that has a default, with it: what the docs' tables must state. */
export const CONTEXT_DEFAULTS: Readonly<Record<string, string | number | boolean>> = {
  stage: DEFAULT_STAGE,
  ...Object.fromEntries(Object.entries(INT_CONTEXT).map(([key, setting]) => [key, setting.default])),
  ...BOOLEAN_CONTEXT,
  ...FRACTION_CONTEXT,
};
