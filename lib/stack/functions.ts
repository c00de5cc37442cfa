// How the stack makes a Lambda: its own log group, its own role with only the table access it is given, the
// bundling options of lib/lambda-bundling.ts and the runtime settings every function shares.
import * as path from 'node:path';
import { AssetStaging, Duration, type RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import type { TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Policy, PolicyDocument, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import {
  ApplicationLogLevel,
  Architecture,
  type CfnFunction,
  LoggingFormat,
  Runtime,
  SystemLogLevel,
} from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { FUNCTION_TIMEOUT_SECONDS } from '../../lambdas/contract/routes';
import {
  LAMBDA_ALIASES,
  LAMBDA_ESBUILD_OPTIONS,
  LAMBDA_MEMORY_MB,
  LAZY_BUNDLES,
  lazyBundleFile,
} from '../lambda-bundling';

/** Repository root: Lambda entries in lambdas/contract/routes.ts are relative to it, and esbuild resolves from it. */
const REPO_ROOT = path.resolve(__dirname, '..', '..');

/**
 * Pinned rather than NODEJS_LATEST, so a CDK upgrade cannot change the runtime (and the esbuild target) unnoticed;
 * cdk-nag's L1 flags it once a newer Node.js runtime exists, which is the cue to move.
 */
export const LAMBDA_RUNTIME = Runtime.NODEJS_24_X;

/**
 * The handlers' own level, and the level Lambda filters application logs at: one value for both. Not above INFO: the
 * EMF metric lines carry no level, so Lambda reads them as INFO, and a WARN filter would drop every metric (the
 * ServerErrors alarm would go silent).
 */
export const SETTINGS_LOG_LEVEL = 'INFO' as const;

/**
 * Which DynamoDB actions a Lambda gets, on which table (or only on one of its indexes), and optionally only on items
 * whose partition key starts with one of `leadingKeys` (IAM's dynamodb:LeadingKeys). Nothing else touches the tables
 * from inside AWS.
 */
export interface TableAccess {
  table: TableV2;
  actions: string[];
  leadingKeys?: readonly string[];
  /** An index of the table: the statement names it alone. */
  index?: string;
}

interface FunctionFactoryProps {
  logRetention: RetentionDays;
  logsKey: IKey;
  removalPolicy: RemovalPolicy;
  environment: Record<string, string>;
  /**
   * X-Ray tracing on every function (context `tracing`): the handlers choose which requests to trace and send their
   * segments themselves (lambdas/tracing.ts), so Lambda's own tracing stays in PassThrough.
   */
  tracing: boolean;
}

/**
 * The one wildcard in the stack's roles: X-Ray's PutTraceSegments has no resource-level permissions, so the policy
 * that lets a function send its segments names `*`. It is a policy of its own, acknowledged on that policy alone.
 */
export const XRAY_WILDCARD_FINDING = 'AwsSolutions-IAM5[Resource::*]';
const XRAY_WILDCARD_REASON =
  'X-Ray PutTraceSegments supports no resource-level permissions: sending trace segments needs Resource *; this policy holds only that action.';
/** The X-Ray call the handlers make (lambdas/trace-sinks.ts), and no other: no daemon runs for them. */
const XRAY_ACTIONS = ['xray:PutTraceSegments'];

/** The statement for one table access. */
function tableAccessStatement({ table, actions, leadingKeys, index }: TableAccess): PolicyStatement {
  return new PolicyStatement({
    actions,
    resources: [index ? `${table.tableArn}/index/${index}` : table.tableArn],
    conditions: leadingKeys
      ? { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': leadingKeys.map((k) => `${k}*`) } }
      : undefined,
  });
}

/** The esbuild commands that build each lazy bundle into a function's asset, beside its index.js. */
function lazyBundleCommands(inputDir: string, outputDir: string): string[] {
  const o = LAMBDA_ESBUILD_OPTIONS;
  const flags = [
    '--bundle',
    `--platform=${o.platform}`,
    `--format=${o.format}`,
    `--target=${o.target}`,
    ...(o.minify ? ['--minify'] : []),
    `--main-fields=${o.mainFields.join(',')}`,
    ...Object.entries(LAMBDA_ALIASES).map(([alias, file]) => `--alias:${alias}=${path.posix.join(inputDir, file)}`),
    '--log-level=warning',
  ];
  const esbuild = path.posix.join(inputDir, 'node_modules', '.bin', 'esbuild');
  return Object.entries(LAZY_BUNDLES).map(([importPath, source]) =>
    [
      esbuild,
      path.posix.join(inputDir, source),
      ...flags,
      `--outfile=${path.posix.join(outputDir, lazyBundleFile(importPath))}`,
    ]
      .map((arg) => `"${arg}"`)
      .join(' '),
  );
}

/** Makes the stack's functions in `scope` (ids `${name}Function`, `${name}Role`, `${name}Logs`), keeping them by name. */
export class FunctionFactory {
  /** Keyed by name (a route id, `Authorizer`, `Fallback`), in creation order. */
  readonly functions: Record<string, NodejsFunction> = {};

  constructor(
    private readonly scope: Construct,
    private readonly props: FunctionFactoryProps,
  ) {}

  /** `environment` adds to the environment every function gets. */
  make(
    name: string,
    entry: string,
    description: string,
    access: TableAccess[],
    environment?: Record<string, string>,
  ): NodejsFunction {
    const { scope, props } = this;
    const logGroup = new LogGroup(scope, `${name}Logs`, {
      retention: props.logRetention,
      encryptionKey: props.logsKey,
      removalPolicy: props.removalPolicy,
    });
    // One role per function, with only what that function does: no AWS managed policy (its log permissions are
    // account-wide), no grant helpers (they add `index/*` and actions the code never calls).
    const statements = [
      new PolicyStatement({
        actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        // The group's ARN ends in `:*`, which covers its log streams and nothing else.
        resources: [logGroup.logGroupArn],
      }),
      ...access.map(tableAccessStatement),
    ];
    const role = new Role(scope, `${name}Role`, {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `${name} Lambda of ${Stack.of(scope).stackName}`,
      inlinePolicies: { LeastPrivilege: new PolicyDocument({ statements }) },
    });
    const fn = new NodejsFunction(scope, `${name}Function`, {
      entry: path.join(REPO_ROOT, entry),
      handler: 'handler',
      description,
      runtime: LAMBDA_RUNTIME,
      architecture: Architecture.ARM_64,
      memorySize: LAMBDA_MEMORY_MB,
      // JSON logs, so that Lambda filters by level: its own START/END/REPORT lines (INFO) are not written, which
      // would cost more log ingestion per request than our own lines (the bench's cost section); duration and
      // errors stay in Lambda's built-in metrics.
      loggingFormat: LoggingFormat.JSON,
      systemLogLevelV2: SystemLogLevel.WARN,
      applicationLogLevelV2: ApplicationLogLevel[SETTINGS_LOG_LEVEL],
      timeout: Duration.seconds(FUNCTION_TIMEOUT_SECONDS),
      role,
      logGroup,
      environment: environment ? { ...props.environment, ...environment } : props.environment,
      projectRoot: REPO_ROOT,
      depsLockFilePath: path.join(REPO_ROOT, 'package-lock.json'),
      // The options of lib/lambda-bundling.ts, which the bench and the bundle tests build with too.
      bundling: {
        minify: LAMBDA_ESBUILD_OPTIONS.minify,
        sourceMap: false,
        format: OutputFormat.CJS,
        target: LAMBDA_ESBUILD_OPTIONS.target,
        mainFields: LAMBDA_ESBUILD_OPTIONS.mainFields,
        esbuildArgs: { '--alias': Object.entries(LAMBDA_ALIASES).map(([alias, file]) => `${alias}=${file}`) },
        // esbuild resolves alias paths from its working directory: the repository root when it bundles locally,
        // and, should CDK fall back to Docker (no local esbuild), the mounted repository instead of Docker's `/`.
        workingDirectory: AssetStaging.BUNDLING_INPUT_DIR,
        // Bundle the pinned AWS SDK instead of the runtime's copy: tested versions, and one fewer cold-start read.
        // Only the lazy bundles stay out of index.js: each is built beside it, with the same options, after it.
        externalModules: Object.keys(LAZY_BUNDLES),
        commandHooks: {
          beforeBundling: () => [],
          beforeInstall: () => [],
          afterBundling: (inputDir: string, outputDir: string) => lazyBundleCommands(inputDir, outputDir),
        },
        forceDockerBundling: false,
      },
    });
    if (props.tracing) {
      // PassThrough, not Active: Active samples 1 invocation a second and 5% of the rest, a rule Lambda does not let
      // a function change; PassThrough records only requests an upstream sampled, and API Gateway HTTP APIs sample
      // none. Set on the template itself: CDK's `tracing` would add the daemon's permissions, which nothing here uses.
      (fn.node.defaultChild as CfnFunction).tracingConfig = { mode: 'PassThrough' };
      const tracingPolicy = new Policy(scope, `${name}TracingPolicy`, {
        roles: [role],
        statements: [new PolicyStatement({ actions: XRAY_ACTIONS, resources: ['*'] })],
      });
      Validations.of(tracingPolicy).acknowledge({ id: XRAY_WILDCARD_FINDING, reason: XRAY_WILDCARD_REASON });
      fn.node.addDependency(tracingPolicy);
    }
    this.functions[name] = fn;
    return fn;
  }
}
