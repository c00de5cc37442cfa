// Every environment variable the service reads, with its default, in one place. The Lambdas and local mode parse their
// settings from the environment once (their entry files, bin/local.ts); the tests, the bench and the load tool build a
// Settings object directly. The stack writes the Lambda environment with `lambdaEnvironment()`, the inverse of
// `parseSettings()`, so the two cannot disagree on a name. Pure: no AWS SDK, no Powertools.

export const ENV = {
  accessTableName: 'ACCESS_TABLE_NAME',
  decisionsTableName: 'DECISIONS_TABLE_NAME',
  learningTableName: 'LEARNING_TABLE_NAME',
  dynamodbEndpoint: 'DYNAMODB_ENDPOINT',
  dynamodbRequestTimeoutMs: 'DYNAMODB_REQUEST_TIMEOUT_MS',
  dynamodbLocalAccessKeyId: 'DYNAMODB_LOCAL_ACCESS_KEY_ID',
  region: 'AWS_REGION',
  // The AWS CLI's name for it, read when AWS_REGION is unset (the SDK itself does not): by the admin CLI, local mode.
  defaultRegion: 'AWS_DEFAULT_REGION',
  authCacheTtlSeconds: 'AUTH_CACHE_TTL_SECONDS',
  workspaceCacheTtlSeconds: 'WORKSPACE_CACHE_TTL_SECONDS',
  decisionRetentionDays: 'DECISION_RETENTION_DAYS',
  logLevel: 'POWERTOOLS_LOG_LEVEL',
  metricsDisabled: 'POWERTOOLS_METRICS_DISABLED',
  // X-Ray (lambdas/tracing.ts): on or off, the share of requests traced, and local mode's daemon.
  tracingEnabled: 'TRACING_ENABLED',
  traceSampleRate: 'TRACE_SAMPLE_RATE',
  xrayDaemonAddress: 'AWS_XRAY_DAEMON_ADDRESS',
  // Edge protection only (the stack sets it on the authorizer and the fallback): lambdas/http/edge-origin.ts.
  edgeOriginSecret: 'EDGE_ORIGIN_SECRET',
  // Local mode and the admin CLI.
  port: 'PORT',
  localDynamodbPort: 'LOCAL_DYNAMODB_PORT',
  localDataDir: 'LOCAL_DATA_DIR',
  // The admin CLI: where the operator ran `npm run admin` (npm runs it from the package's root), and which script npm
  // runs (a `node` started by another script inherits that script's INIT_CWD).
  operatorDir: 'INIT_CWD',
  npmScript: 'npm_lifecycle_event',
  // The admin CLI with --aws (the stage also on the Lambdas: their metrics' namespace).
  stackName: 'SAS_STACK_NAME',
  stage: 'SAS_STAGE',
  // Where eval, bench and the trainers find ../shared/data, and the language sample (bin/fetch-language-sample.ts).
  dataDir: 'SAS_DATA_DIR',
  languageSampleDir: 'LANGUAGE_SAMPLE_DIR',
  severityCacheDir: 'SEVERITY_CACHE',
} as const;

const LOG_LEVELS = ['DEBUG', 'INFO', 'WARN', 'ERROR', 'CRITICAL', 'SILENT'] as const;
type LogLevel = (typeof LOG_LEVELS)[number];

export interface Settings {
  accessTableName: string;
  decisionsTableName: string;
  /** What workspaces learn (LEARNING_TABLE); absent: the decisions table's name + `-learning` (local mode, tests). */
  learningTableName?: string;
  /** Set in local mode and tests (DynamoDB Local); unset on AWS. */
  dynamodbEndpoint?: string;
  /** With dynamodbEndpoint only: the secret access key id that selects local mode's database in DynamoDB Local. */
  dynamodbLocalAccessKeyId?: string;
  region: string;
  /**
   * How long one DynamoDB attempt may take (2 attempts at most), so an unreachable database becomes a 503 well
   * inside the 10 s Lambda timeout. DynamoDB answers in milliseconds; only DynamoDB Local on a loaded machine
   * (a JVM pause) needs more, and the tests give it more.
   */
  dynamodbRequestTimeoutMs: number;
  /** How long a key's verdict is reused in a container; 0 reads the key on every request. */
  authCacheTtlSeconds: number;
  /** How long a workspace's policy and learned model are reused in a container; 0 reads them on every request. */
  workspaceCacheTtlSeconds: number;
  decisionRetentionDays: number;
  logLevel: LogLevel;
  metricsEnabled: boolean;
  /**
   * X-Ray traces (a segment per invocation with its DynamoDB calls and the decision id) for a share of requests
   * (traceSampleRate); off in local mode and tests unless asked for.
   */
  tracingEnabled: boolean;
  /**
   * The share of requests traced while tracing is on, 0 to 1: each request's authorizer and route decide alike from
   * its API Gateway request id (lambdas/tracing.ts), so a traced request is one trace of both.
   */
  traceSampleRate: number;
  /** Local mode only: where an X-Ray daemon listens (`host:port`, default 127.0.0.1:2000). Lambdas call X-Ray's API. */
  xrayDaemonAddress?: string;
  /**
   * With edge protection on: the value CloudFront puts in the origin header, which a request must carry or be
   * refused `403 FORBIDDEN` (lambdas/http/edge-origin.ts). Unset: no header required. Never logged.
   */
  edgeOriginSecret?: string;
  /** The deployed stage (SAS_STAGE, set by the stack): the Lambdas' metrics are under its namespace. */
  stage: string;
}

/** The stage a deploy and the admin CLI's `--aws` use when none is named (CDK context `stage`, `SAS_STAGE`). */
export const DEFAULT_STAGE = 'dev';
/** A stage's name: it is part of the stack's name and of the metrics' namespace. */
export const STAGE_PATTERN = /^[a-z][a-z0-9-]{0,19}$/;

export const DEFAULT_SETTINGS: Settings = {
  accessTableName: 'sas-access',
  decisionsTableName: 'sas-decisions',
  region: 'us-east-1',
  dynamodbRequestTimeoutMs: 1_000,
  authCacheTtlSeconds: 30,
  workspaceCacheTtlSeconds: 30,
  decisionRetentionDays: 90,
  logLevel: 'INFO',
  metricsEnabled: true,
  tracingEnabled: false,
  traceSampleRate: 0.05,
  stage: DEFAULT_STAGE,
};

interface LocalSettings {
  /** Local HTTP API port; 0 picks a free one. */
  port: number;
  /** Embedded DynamoDB port; 0 picks a free one. */
  dynamodbPort: number;
  /** Where the embedded database keeps its data, or `:memory:`. */
  dataDir: string;
}

export const DEFAULT_LOCAL_SETTINGS: LocalSettings = { port: 3000, dynamodbPort: 8000, dataDir: '.local-data' };

type Env = Readonly<Record<string, string | undefined>>;

/** A bad setting: hosts print the message (it names the variable) and stop. */
export class SettingsError extends Error {
  override name = 'SettingsError';
}

const present = (env: Env, name: string): string | undefined => {
  const raw = env[name];
  return raw === undefined || raw.trim() === '' ? undefined : raw.trim();
};

/**
 * A whole number written in digits (no sign, exponent or hex), or undefined for anything else: the one check of the
 * variables (below) and of the stack's context values (lib/app.ts).
 */
export function parseWhole(text: string): number | undefined {
  const value = Number(text);
  return /^\d+$/.test(text) && Number.isSafeInteger(value) ? value : undefined;
}

function integer(env: Env, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = present(env, name);
  if (raw === undefined) return fallback;
  const value = parseWhole(raw);
  if (value === undefined || value < min || value > max) {
    throw new SettingsError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

/** A whole-number setting of the service: its variable, else its default. */
type WholeSetting =
  'dynamodbRequestTimeoutMs' | 'authCacheTtlSeconds' | 'workspaceCacheTtlSeconds' | 'decisionRetentionDays';

/**
 * The range each whole-number setting must be in, or the Lambdas stop at start (SettingsError): the stack's context
 * (lib/stack-context.ts) takes the same bounds, so a value the Lambdas would refuse stops the synth instead.
 */
export const WHOLE_SETTING_BOUNDS: Readonly<Record<WholeSetting, { min: number; max: number }>> = {
  dynamodbRequestTimeoutMs: { min: 50, max: 4_000 },
  authCacheTtlSeconds: { min: 0, max: 86_400 },
  workspaceCacheTtlSeconds: { min: 0, max: 86_400 },
  decisionRetentionDays: { min: 1, max: 3_650 },
};

const setting = (env: Env, key: WholeSetting) =>
  integer(env, ENV[key], DEFAULT_SETTINGS[key], WHOLE_SETTING_BOUNDS[key].min, WHOLE_SETTING_BOUNDS[key].max);

/**
 * A share from 0 to 1 written as a decimal (`0.05`, `1`, `.5`), or undefined for anything else: the one check of the
 * variable (below) and of the stack's context value (lib/app.ts).
 */
export function parseFraction(text: string): number | undefined {
  const value = Number(text);
  return /^(\d+(\.\d*)?|\.\d+)$/.test(text) && value >= 0 && value <= 1 ? value : undefined;
}

/**
 * A share as parseFraction reads it back: String() writes a number below 0.000001 with an exponent (`1e-7`), which
 * the Lambdas would refuse at start. Digits are String()'s, so the value round-trips exactly.
 */
export function decimalFraction(share: number): string {
  const text = String(share);
  const m = /^(\d)(?:\.(\d+))?e-(\d+)$/.exec(text);
  return m ? `0.${'0'.repeat(Number(m[3]) - 1)}${m[1]}${m[2] ?? ''}` : text;
}

function fraction(env: Env, name: string, fallback: number): number {
  const raw = present(env, name);
  if (raw === undefined) return fallback;
  const value = parseFraction(raw);
  if (value === undefined) throw new SettingsError(`${name} must be a number from 0 to 1, got "${raw}"`);
  return value;
}

/** `true` or `false` in any case; anything else (`1`, `yes`) is refused rather than read as false. */
function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = present(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (raw !== 'true' && raw !== 'false') throw new SettingsError(`${name} must be true or false, got "${raw}"`);
  return raw === 'true';
}

function logLevel(env: Env): LogLevel {
  const raw = present(env, ENV.logLevel)?.toUpperCase();
  if (raw === undefined) return DEFAULT_SETTINGS.logLevel;
  if (!(LOG_LEVELS as readonly string[]).includes(raw)) {
    throw new SettingsError(`${ENV.logLevel} must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
  }
  return raw as LogLevel;
}

/** `host:port` of an X-Ray daemon (an IPv4 address or a host name, port 1 to 65535): segments sent elsewhere are lost. */
function daemonAddress(env: Env): string | undefined {
  const raw = present(env, ENV.xrayDaemonAddress);
  if (raw === undefined) return undefined;
  const m = /^([A-Za-z0-9.-]+):(\d{1,5})$/.exec(raw);
  if (!m || Number(m[2]) < 1 || Number(m[2]) > 65_535)
    throw new SettingsError(`${ENV.xrayDaemonAddress} must be host:port, such as 127.0.0.1:2000, got "${raw}"`);
  return raw;
}

/** A DynamoDB table's name (3 to 255 of A-Z a-z 0-9 _ . -): a bad one would fail every request, not the start. */
function tableName(env: Env, name: string): string | undefined {
  const raw = present(env, name);
  if (raw !== undefined && !/^[A-Za-z0-9_.-]{3,255}$/.test(raw))
    throw new SettingsError(`${name} must be a DynamoDB table name (3 to 255 of A-Z a-z 0-9 _ . -), got "${raw}"`);
  return raw;
}

/** An AWS region's name: lower-case letters, digits and dashes (us-east-1, us-gov-west-1). */
export const AWS_REGION_PATTERN = /^[a-z0-9-]{1,32}$/;

/** The service's settings from an environment (the process environment, in a Lambda). Throws SettingsError on a bad value. */
export function parseSettings(env: Env): Settings {
  const decisionsTableName = tableName(env, ENV.decisionsTableName) ?? DEFAULT_SETTINGS.decisionsTableName;
  const learningTableName = tableName(env, ENV.learningTableName);
  // Unset, the learning table's name is the decisions table's with `-learning` (learningTableOf): it must fit too.
  if (learningTableName === undefined && decisionsTableName.length > 255 - '-learning'.length)
    throw new SettingsError(
      `${ENV.decisionsTableName} must be at most 246 characters unless ${ENV.learningTableName} is set (the learning table is named after it), got ${decisionsTableName.length}`,
    );
  return {
    accessTableName: tableName(env, ENV.accessTableName) ?? DEFAULT_SETTINGS.accessTableName,
    decisionsTableName,
    learningTableName,
    dynamodbEndpoint: present(env, ENV.dynamodbEndpoint),
    dynamodbLocalAccessKeyId: present(env, ENV.dynamodbLocalAccessKeyId),
    region: regionFromEnv(env) ?? DEFAULT_SETTINGS.region,
    dynamodbRequestTimeoutMs: setting(env, 'dynamodbRequestTimeoutMs'),
    authCacheTtlSeconds: setting(env, 'authCacheTtlSeconds'),
    workspaceCacheTtlSeconds: setting(env, 'workspaceCacheTtlSeconds'),
    decisionRetentionDays: setting(env, 'decisionRetentionDays'),
    logLevel: logLevel(env),
    metricsEnabled: !flag(env, ENV.metricsDisabled, false),
    tracingEnabled: flag(env, ENV.tracingEnabled, false),
    traceSampleRate: fraction(env, ENV.traceSampleRate, DEFAULT_SETTINGS.traceSampleRate),
    xrayDaemonAddress: daemonAddress(env),
    edgeOriginSecret: present(env, ENV.edgeOriginSecret),
    // Not checked here: the stack sets it from its checked context `stage`, and an operator's shell may hold any value
    // for the admin CLI's `--aws`, which local mode and the CLI's local commands do not use.
    stage: present(env, ENV.stage) ?? DEFAULT_STAGE,
  };
}

/**
 * The AWS region the environment names: AWS_REGION, else AWS_DEFAULT_REGION; undefined when neither is set (the
 * admin CLI's `--aws` then leaves it to the SDK's profile configuration, as CloudFormation's own tools do).
 */
export function regionFromEnv(env: Env): string | undefined {
  const name = present(env, ENV.region) !== undefined ? ENV.region : ENV.defaultRegion;
  const region = present(env, name);
  // As AWS writes regions (us-east-1): local mode keeps it with its data directory, which another form would lock.
  if (region !== undefined && !AWS_REGION_PATTERN.test(region))
    throw new SettingsError(`${name} must be an AWS region such as us-east-1, got "${region}"`);
  return region;
}

/** The learning table's name (see Settings.learningTableName). */
export const learningTableOf = (settings: Pick<Settings, 'decisionsTableName' | 'learningTableName'>) =>
  settings.learningTableName ?? `${settings.decisionsTableName}-learning`;

/** Local mode's own settings (ports and data directory). */
export function parseLocalSettings(env: Env): LocalSettings {
  return {
    port: integer(env, ENV.port, DEFAULT_LOCAL_SETTINGS.port, 0, 65_535),
    dynamodbPort: integer(env, ENV.localDynamodbPort, DEFAULT_LOCAL_SETTINGS.dynamodbPort, 0, 65_535),
    dataDir: present(env, ENV.localDataDir) ?? DEFAULT_LOCAL_SETTINGS.dataDir,
  };
}

/** The deployed stack of a stage: the stack is named so, and the admin CLI's `--aws` finds its tables by it. */
export const stackNameFor = (stage: string) => `SignalAnalysisService-${stage}`;

/** The tools' settings: the admin CLI's `--aws` target, and where eval, bench and the trainers find data. */
interface ToolSettings {
  stage: string;
  stackName: string;
  /** With `--aws`: table names to use instead of the stack's outputs (the stack is asked for those not given). */
  accessTableName?: string;
  decisionsTableName?: string;
  learningTableName?: string;
  /** The labeled data sets; a relative path is taken from the repository's root. */
  dataDir: string;
  /** The language sample bin/fetch-language-sample.ts writes (outside the repository: never committed). */
  languageSampleDir: string;
  /** Where the eval caches the severity features it computes (absent: a folder in the system's temporary one). */
  severityCacheDir?: string;
  /**
   * The admin CLI's base for relative file paths: the directory `npm run admin` was typed in (absent, and when npm runs
   * another script: the current directory).
   */
  operatorDir?: string;
}

export const DEFAULT_TOOL_SETTINGS = {
  stage: DEFAULT_STAGE,
  dataDir: '../shared/data',
  languageSampleDir: '/tmp/sas-language-sample',
} as const;

export function parseToolSettings(env: Env): ToolSettings {
  const stage = present(env, ENV.stage) ?? DEFAULT_TOOL_SETTINGS.stage;
  return {
    stage,
    stackName: present(env, ENV.stackName) ?? stackNameFor(stage),
    accessTableName: present(env, ENV.accessTableName),
    decisionsTableName: present(env, ENV.decisionsTableName),
    learningTableName: present(env, ENV.learningTableName),
    dataDir: present(env, ENV.dataDir) ?? DEFAULT_TOOL_SETTINGS.dataDir,
    languageSampleDir: present(env, ENV.languageSampleDir) ?? DEFAULT_TOOL_SETTINGS.languageSampleDir,
    severityCacheDir: present(env, ENV.severityCacheDir),
    operatorDir: present(env, ENV.npmScript) === 'admin' ? present(env, ENV.operatorDir) : undefined,
  };
}

/**
 * The environment the stack gives every Lambda. Values may be CDK tokens (table names), so they are strings here.
 * The region and the endpoint are not written: Lambda sets AWS_REGION, and on AWS there is no endpoint override.
 */
export function lambdaEnvironment(
  settings: Pick<Settings, 'authCacheTtlSeconds' | 'decisionRetentionDays' | 'logLevel' | 'stage'> & {
    tracingEnabled?: boolean;
    traceSampleRate?: number;
    workspaceCacheTtlSeconds?: number;
    accessTableName: string;
    decisionsTableName: string;
    learningTableName: string;
  },
): Record<string, string> {
  return {
    [ENV.accessTableName]: settings.accessTableName,
    [ENV.decisionsTableName]: settings.decisionsTableName,
    [ENV.learningTableName]: settings.learningTableName,
    [ENV.authCacheTtlSeconds]: String(settings.authCacheTtlSeconds),
    [ENV.decisionRetentionDays]: String(settings.decisionRetentionDays),
    [ENV.workspaceCacheTtlSeconds]: String(
      settings.workspaceCacheTtlSeconds ?? DEFAULT_SETTINGS.workspaceCacheTtlSeconds,
    ),
    [ENV.logLevel]: settings.logLevel,
    [ENV.tracingEnabled]: String(settings.tracingEnabled ?? DEFAULT_SETTINGS.tracingEnabled),
    [ENV.traceSampleRate]: decimalFraction(settings.traceSampleRate ?? DEFAULT_SETTINGS.traceSampleRate),
    [ENV.stage]: settings.stage,
  };
}
