// Runtime configuration, read from the environment once per container (the stack and local mode set the same names).

export interface RuntimeConfig {
  accessTableName: string;
  decisionsTableName: string;
  /** Set in local mode and tests (DynamoDB Local); unset on AWS. */
  dynamodbEndpoint?: string;
  authCacheTtlSeconds: number;
  decisionRetentionDays: number;
}

function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer`);
  return value;
}

let cached: RuntimeConfig | undefined;

export function runtimeConfig(): RuntimeConfig {
  cached ??= {
    accessTableName: process.env.ACCESS_TABLE_NAME ?? 'sas-access',
    decisionsTableName: process.env.DECISIONS_TABLE_NAME ?? 'sas-decisions',
    dynamodbEndpoint: process.env.DYNAMODB_ENDPOINT || undefined,
    authCacheTtlSeconds: intFromEnv('AUTH_CACHE_TTL_SECONDS', 30),
    decisionRetentionDays: intFromEnv('DECISION_RETENTION_DAYS', 90),
  };
  return cached;
}
