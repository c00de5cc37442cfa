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
  /** Requests one client IP may send in 5 minutes before WAF blocks it (edge protection only; WAF's maximum). */
  edgeIpRateLimit: { default: 6_000, min: 100, max: 2_000_000_000 },
} as const satisfies Record<string, { default: number; min: number; max?: number }>;

export type IntContextKey = keyof typeof INT_CONTEXT;

/** The on/off settings and their defaults (`-c key=true|false`). */
export const BOOLEAN_CONTEXT = {
  edgeProtection: false,
  /**
   * Edge protection only, for the first of the two deploys that move an edge-protected stack of version 3 to its own
   * origin (docs/deploy.md): the custom domain is created, CloudFront keeps the execute-api host, which stays enabled.
   */
  edgeOriginOnExecuteApi: false,
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

/** Every context key the app reads: the settings above and those without a default. */
const CONTEXT_KEYS: readonly string[] = [
  ...Object.keys(CONTEXT_DEFAULTS),
  'region',
  'edgeSecretVersionId',
  'logsKmsKeyArn',
];

/** Edits (insert, delete, replace, swap two neighbours) that turn `a` into `b`, up to `limit` (then limit + 1). */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.length][b.length];
}

/**
 * The setting a context key not read by the app was probably meant to be: the same in another case, two neighbours
 * swapped, or, for a name of 8 letters or more, within two edits. `-c decisionRetentionDay=30` would otherwise deploy
 * the default without a word. Short names take only a swap: within an edit of `stage` lie words such as `state`.
 * Keys far from every setting (the CDK CLI's own, feature flags, cached lookups) are left alone.
 */
export function misspelledContextKey(key: string): string | undefined {
  if (CONTEXT_KEYS.includes(key)) return undefined;
  return CONTEXT_KEYS.find(
    (known) =>
      known.toLowerCase() === key.toLowerCase() ||
      swapsTwoNeighbours(key, known) ||
      (known.length >= 8 && editDistance(key, known, 2) <= 2),
  );
}

/** Whether `b` is `a` with two neighbouring characters swapped. */
function swapsTwoNeighbours(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  const at = [...a].findIndex((c, i) => c !== b[i]);
  return (
    at >= 0 && at + 1 < a.length && a[at] === b[at + 1] && a[at + 1] === b[at] && a.slice(at + 2) === b.slice(at + 2)
  );
}
