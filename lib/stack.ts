// The deployed service: two DynamoDB tables, one Lambda per route plus the authorizer and the fallback, an HTTP API,
// alarms and their SNS topic, and the KMS key of the log groups. Tables and routes come from lambdas/contract/, the
// same definitions local mode uses, so the deployed and local shapes cannot drift.
import * as path from 'node:path';
import { AssetStaging, Aws, CfnOutput, Duration, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
// The access log format class is shared with REST APIs and lives in aws-apigateway.
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  HttpApi,
  HttpIntegrationType,
  HttpMethod,
  HttpRoute,
  HttpRouteIntegration,
  type HttpRouteIntegrationConfig,
  HttpRouteKey,
  HttpStage,
  IntegrationCredentials,
  LogGroupLogDestination,
  PayloadFormatVersion,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaAuthorizer, HttpLambdaResponseType } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import {
  Alarm,
  ComparisonOperator,
  type IMetric,
  MathExpression,
  Metric,
  Stats,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { AttributeType, Billing, TableEncryptionV2, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import {
  Effect,
  type IRole,
  PolicyDocument,
  PolicyStatement,
  Role,
  ServicePrincipal,
} from 'aws-cdk-lib/aws-iam';
import { type IKey, Key } from 'aws-cdk-lib/aws-kms';
import {
  ApplicationLogLevel,
  Architecture,
  type IFunction,
  LoggingFormat,
  Runtime,
  SystemLogLevel,
} from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { SERVER_ERROR_CODES } from '../lambdas/contract/errors';
import { METRICS, METRICS_NAMESPACE, SERVICE_NAME } from '../lambdas/contract/observability';
import { API_BASE_PATH, AUTHORIZER_ENTRY, FALLBACK_ENTRY, ROUTES } from '../lambdas/contract/routes';
import { lambdaEnvironment } from '../lambdas/contract/settings';
import { ACCESS_TABLE, DECISIONS_TABLE, ITEM_PREFIX, type TableDefinition } from '../lambdas/contract/tables';
import { LAMBDA_ALIASES, LAMBDA_ESBUILD_OPTIONS, LAMBDA_MEMORY_MB } from './lambda-bundling';
import { createLogsKey } from './logs-key';
import { OUTPUT_KEYS } from './stack-outputs';

/** Repository root: Lambda entries in lambdas/contract/routes.ts are relative to it, and esbuild resolves from it. */
export const REPO_ROOT = path.resolve(__dirname, '..');

/** Output key for the alarm topic (the other keys live in stack-outputs.ts, which tools outside the stack read). */
export const ALARM_TOPIC_OUTPUT_KEY = 'AlarmTopicArn';

/**
 * Pinned rather than NODEJS_LATEST, so a CDK upgrade cannot change the runtime (and the esbuild target) unnoticed;
 * cdk-nag's L1 flags it once a newer Node.js runtime exists, which is the cue to move.
 */
export const LAMBDA_RUNTIME = Runtime.NODEJS_24_X;

export interface SignalAnalysisStackProps extends StackProps {
  stage: string;
  throttlingRateLimit: number;
  throttlingBurstLimit: number;
  decisionRetentionDays: number;
  authCacheTtlSeconds: number;
  /** WORKSPACE_CACHE_TTL_SECONDS of the Lambdas (context `workspaceCacheTtlSeconds`, default 30). */
  workspaceCacheTtlSeconds?: number;
  /** Retention of every log group of the stack (Lambdas and access log); Control Tower asks for a year or more. */
  logRetention?: RetentionDays;
  /**
   * ARN of an existing KMS key that encrypts every log group. Its key policy must let CloudWatch Logs of this
   * account and region use it. Without one the stack creates its own key.
   */
  logsKmsKeyArn?: string;
}

/**
 * CfnGuard rule (Control Tower's CT.LAMBDA.PR.3, Lambda in a customer VPC) that this stack acknowledges; the
 * acknowledgment id is `<plugin name>::<rule name>` and the test checks it is the only Control Tower exception.
 */
export const LAMBDA_VPC_RULE = 'cdk-validator-cfnguard::lambda_inside_vpc_check';
const LAMBDA_VPC_REASON =
  'CT.LAMBDA.PR.3 (Lambda in a VPC): the functions reach only DynamoDB and CloudWatch over AWS APIs with IAM and ' +
  'TLS, and hold no network-reachable resource a VPC would shield; a VPC would add NAT or VPC-endpoint cost and ' +
  'ENI cold-start latency with no data-path benefit.';

/**
 * Which DynamoDB actions a Lambda gets, on which table (or only on one of its indexes), and optionally only on items
 * whose partition key starts with one of `leadingKeys` (IAM's dynamodb:LeadingKeys). Nothing else touches the tables
 * from inside AWS.
 */
type TableAccess = { table: TableV2; actions: string[]; leadingKeys?: string[]; /** An index of the table: the statement names it alone. */ index?: string };

export class SignalAnalysisStack extends Stack {
  readonly accessTable: TableV2;
  readonly decisionsTable: TableV2;
  /** Keyed by route id, plus `Authorizer` and `Fallback`. */
  readonly functions: Record<string, NodejsFunction> = {};
  readonly api: HttpApi;
  readonly apiStage: HttpStage;
  readonly alarmTopic: Topic;
  readonly alarms: Alarm[] = [];
  /** Encrypts every log group: created by the stack unless `logsKmsKeyArn` names an existing key. */
  readonly logsKey: IKey;
  /** The role API Gateway assumes to invoke the authorizer and the route Lambdas. */
  readonly apiInvokeRole: Role;

  constructor(scope: Construct, id: string, props: SignalAnalysisStackProps) {
    super(scope, id, props);
    const isProd = props.stage === 'prod';
    // Prod keeps its data and logs if the stack is deleted; other stages clean up after themselves.
    const removalPolicy = isProd ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    const logRetention = props.logRetention ?? RetentionDays.ONE_YEAR;
    this.logsKey = props.logsKmsKeyArn
      ? Key.fromKeyArn(this, 'ImportedLogsKey', props.logsKmsKeyArn)
      : createLogsKey(this, 'LogsKey', removalPolicy);

    // ---- Tables -------------------------------------------------------------------------------------------------
    const tables = new Map<TableDefinition, TableV2>();
    for (const def of [ACCESS_TABLE, DECISIONS_TABLE]) {
      tables.set(
        def,
        new TableV2(this, `${def.id}Table`, {
          partitionKey: { name: def.partitionKey, type: AttributeType.STRING },
          globalSecondaryIndexes: def.indexes.map((index) => ({
            indexName: index.indexName,
            partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
            sortKey: index.sortKey ? { name: index.sortKey, type: AttributeType.STRING } : undefined,
          })),
          timeToLiveAttribute: def.ttlAttribute,
          // On demand: traffic is spiky and partner-driven; nothing to size or autoscale.
          billing: Billing.onDemand(),
          pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
          // AWS managed key (aws/dynamodb) rather than the AWS owned default: the tables hold key hashes and partner
          // data, and with this key every use shows in the account's CloudTrail, at no key cost and no key policy
          // to run. A customer managed key would add rotation/policy work without a requirement asking for it.
          encryption: TableEncryptionV2.awsManagedKey(),
          deletionProtection: isProd,
          removalPolicy,
        }),
      );
    }
    this.accessTable = tables.get(ACCESS_TABLE)!;
    this.decisionsTable = tables.get(DECISIONS_TABLE)!;

    // ---- Lambdas ------------------------------------------------------------------------------------------------
    // The handlers' own level, and the level Lambda filters application logs at: one value for both.
    const settingsLogLevel = 'INFO' as const;
    const environment = lambdaEnvironment({
      accessTableName: this.accessTable.tableName,
      decisionsTableName: this.decisionsTable.tableName,
      authCacheTtlSeconds: props.authCacheTtlSeconds,
      workspaceCacheTtlSeconds: props.workspaceCacheTtlSeconds,
      decisionRetentionDays: props.decisionRetentionDays,
      logLevel: settingsLogLevel,
    });

    const makeFunction = (name: string, entry: string, description: string, access: TableAccess[]) => {
      const logGroup = new LogGroup(this, `${name}Logs`, {
        retention: logRetention,
        encryptionKey: this.logsKey,
        removalPolicy,
      });
      // One role per function, with only what that function does: no AWS managed policy (its log permissions are
      // account-wide), no grant helpers (they add `index/*` and actions the code never calls).
      const statements = [
        new PolicyStatement({
          actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
          // The group's ARN ends in `:*`, which covers its log streams and nothing else.
          resources: [logGroup.logGroupArn],
        }),
        ...access.map(
          ({ table, actions, leadingKeys, index }) =>
            new PolicyStatement({
              actions,
              resources: [index ? `${table.tableArn}/index/${index}` : table.tableArn],
              conditions: leadingKeys
                ? { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': leadingKeys.map((k) => `${k}*`) } }
                : undefined,
            }),
        ),
      ];
      const role = new Role(this, `${name}Role`, {
        assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
        description: `${name} Lambda of ${this.stackName}`,
        inlinePolicies: { LeastPrivilege: new PolicyDocument({ statements }) },
      });
      const fn = new NodejsFunction(this, `${name}Function`, {
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
        applicationLogLevelV2: ApplicationLogLevel[settingsLogLevel],
        timeout: Duration.seconds(10),
        role,
        logGroup,
        environment,
        projectRoot: REPO_ROOT,
        depsLockFilePath: path.join(REPO_ROOT, 'package-lock.json'),
        // The options of lib/lambda-bundling.ts, which the bench and the bundle tests build with too.
        bundling: {
          minify: LAMBDA_ESBUILD_OPTIONS.minify,
          sourceMap: false,
          format: OutputFormat.CJS,
          target: LAMBDA_ESBUILD_OPTIONS.target,
          mainFields: LAMBDA_ESBUILD_OPTIONS.mainFields,
          esbuildArgs: { '--alias': Object.entries(LAMBDA_ALIASES).map(([name, file]) => `${name}=${file}`) },
          // esbuild resolves alias paths from its working directory: the repository root when it bundles locally,
          // and, should CDK fall back to Docker (no local esbuild), the mounted repository instead of Docker's `/`.
          workingDirectory: AssetStaging.BUNDLING_INPUT_DIR,
          // Bundle the pinned AWS SDK instead of the runtime's copy: tested versions, and one fewer cold-start read.
          externalModules: [],
          forceDockerBundling: false,
        },
      });
      this.functions[name] = fn;
      return fn;
    };

    const authorizerFn = makeFunction('Authorizer', AUTHORIZER_ENTRY, 'Verifies API keys (HTTP API authorizer)', [
      { table: this.accessTable, actions: ['dynamodb:GetItem'] },
    ]);
    const fallbackFn = makeFunction('Fallback', FALLBACK_ENTRY, 'Answers 404/405 for unmatched requests', []);
    const routeFunctions = ROUTES.map((route) => ({
      route,
      fn: makeFunction(route.id, route.entry, `${route.method} ${route.path}`, [
        // What the route table says the route does (no ConditionCheck items anywhere, so no ConditionCheckItem).
        ...(route.decisions.actions.length
          ? [{ table: this.decisionsTable, actions: route.decisions.actions.map((a) => `dynamodb:${a}`) }]
          : []),
        ...(route.decisions.indexes ?? []).map((index) => ({
          table: this.decisionsTable,
          actions: ['dynamodb:Query'],
          index,
        })),
        // Per-key rate limit counters: conditional ADDs on `rate#` items only.
        { table: this.decisionsTable, actions: ['dynamodb:UpdateItem'], leadingKeys: [ITEM_PREFIX.rateWindow] },
        // The grant check: the exact grant and the key's prefix set, read only.
        {
          table: this.accessTable,
          actions: ['dynamodb:GetItem', 'dynamodb:BatchGetItem'],
          leadingKeys: [ITEM_PREFIX.grant, ITEM_PREFIX.prefixGrants],
        },
      ]),
    }));

    // ---- HTTP API -----------------------------------------------------------------------------------------------
    this.api = new HttpApi(this, 'HttpApi', {
      apiName: this.stackName,
      description: 'Signal Analysis Service',
      // The stage is made below, with throttling and access logs.
      createDefaultStage: false,
    });

    // API Gateway invokes every Lambda through this role rather than through resource-based permissions on the
    // functions: the functions then have no resource policy at all (Control Tower's CT.LAMBDA.PR.2 looks for none
    // that is public), and the role may invoke exactly these functions.
    this.apiInvokeRole = new Role(this, 'ApiInvokeRole', {
      assumedBy: new ServicePrincipal('apigateway.amazonaws.com'),
      description: `API Gateway invokes the Lambdas of ${this.stackName}`,
      inlinePolicies: {
        InvokeOwnFunctions: new PolicyDocument({
          statements: [
            new PolicyStatement({
              actions: ['lambda:InvokeFunction'],
              resources: Object.values(this.functions).map((fn) => fn.functionArn),
            }),
          ],
        }),
      },
    });

    // It never denies at the gateway (API Gateway would answer with its own body): it hands its verdict to the
    // route Lambdas, which answer in the contract's error shape. No identity source, because one would let the
    // gateway refuse a request without the header with its own 401; and with no identity source there can be no
    // gateway cache, so the authorizer keeps its own cache for AUTH_CACHE_TTL_SECONDS.
    const authorizer = new HttpLambdaAuthorizer('ApiKeyAuthorizer', authorizerFn, {
      authorizerName: 'ApiKeyAuthorizer',
      responseTypes: [HttpLambdaResponseType.SIMPLE],
      identitySource: [],
      resultsCacheTtl: Duration.seconds(0),
      role: this.apiInvokeRole,
    });

    for (const { route, fn } of routeFunctions) {
      this.api.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method]],
        integration: new RoleInvokedLambdaIntegration(`${route.id}Integration`, fn, this.apiInvokeRole),
        authorizer,
      });
    }

    // Everything else: 404/405 in the contract's shape, with no key needed (contract section 1). The authorizer
    // is attached too, so that every route has an authorization type; it never denies, and the fallback ignores
    // its verdict, so a request without a key still gets the contract's 404/405.
    new HttpRoute(this, 'DefaultRoute', {
      httpApi: this.api,
      routeKey: HttpRouteKey.DEFAULT,
      integration: new RoleInvokedLambdaIntegration('FallbackIntegration', fallbackFn, this.apiInvokeRole),
      authorizer,
    });

    for (const fn of Object.values(this.functions)) {
      Validations.of(fn).acknowledge({ id: LAMBDA_VPC_RULE, reason: LAMBDA_VPC_REASON });
    }

    const accessLogs = new LogGroup(this, 'ApiAccessLogs', {
      retention: logRetention,
      encryptionKey: this.logsKey,
      removalPolicy,
    });
    this.apiStage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: props.throttlingRateLimit, burstLimit: props.throttlingBurstLimit },
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
      },
    });

    // ---- Alarms -------------------------------------------------------------------------------------------------
    this.alarmTopic = new Topic(this, 'AlarmTopic', {
      displayName: `${this.stackName} alarms`,
      // Denies sns:Publish without TLS (AwsSolutions-SNS3).
      enforceSSL: true,
    });
    // A topic policy replaces SNS's default one, so CloudWatch alarms of this account must be allowed explicitly.
    this.alarmTopic.addToResourcePolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.alarmTopic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID },
          ArnLike: { 'aws:SourceArn': `arn:${Aws.PARTITION}:cloudwatch:${Aws.REGION}:${Aws.ACCOUNT_ID}:alarm:*` },
        },
      }),
    );
    const alarmAction = new SnsAction(this.alarmTopic);
    const alarm = (id: string, metric: IMetric, threshold: number, description: string, evaluationPeriods = 1) => {
      const a = new Alarm(this, id, {
        alarmName: `${this.stackName}-${id}`,
        alarmDescription: description,
        metric,
        threshold,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods,
        // No traffic is not a problem.
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      a.addAlarmAction(alarmAction);
      a.addOkAction(alarmAction);
      this.alarms.push(a);
      return a;
    };
    const fiveMinutes = Duration.minutes(5);

    // 5xx share of all requests at the stage, once there are enough requests for a share to mean something.
    alarm(
      'Api5xxRate',
      new MathExpression({
        expression: 'IF(FILL(requests, 0) >= 20, 100 * FILL(errors, 0) / FILL(requests, 1), 0)',
        usingMetrics: {
          errors: this.apiStage.metricServerError({ statistic: Stats.SUM, period: fiveMinutes }),
          requests: this.apiStage.metricCount({ statistic: Stats.SUM, period: fiveMinutes }),
        },
        period: fiveMinutes,
        label: '5xx % of requests',
      }),
      5,
      'At least 5% of API requests got a 5xx (ours or API Gateway\'s) in 2 consecutive 5-minute periods.',
      2,
    );

    for (const [name, fn] of Object.entries(this.functions)) {
      // The handlers turn every error into a response, so a Lambda error is a crash, a timeout or an out-of-memory:
      // for the authorizer and the routes, API Gateway then answers with its own 500 body.
      alarm(
        `${name}Errors`,
        fn.metricErrors({ statistic: Stats.SUM, period: fiveMinutes }),
        1,
        `The ${name} Lambda failed (crash, timeout or out of memory); API Gateway answered 500 for it.`,
      );
      alarm(
        `${name}Throttles`,
        fn.metricThrottles({ statistic: Stats.SUM, period: fiveMinutes }),
        1,
        `The ${name} Lambda was throttled (account or function concurrency limit reached).`,
      );
    }

    for (const [def, table] of tables) {
      alarm(
        `${def.id}TableThrottles`,
        new MathExpression({
          expression: 'FILL(reads, 0) + FILL(writes, 0)',
          usingMetrics: {
            reads: table.metric('ReadThrottleEvents', { statistic: Stats.SUM, period: fiveMinutes }),
            writes: table.metric('WriteThrottleEvents', { statistic: Stats.SUM, period: fiveMinutes }),
          },
          period: fiveMinutes,
          label: `${def.id} table throttle events`,
        }),
        1,
        `DynamoDB throttled requests on the ${def.id} table; the service answered 503 SERVICE_UNAVAILABLE where ` +
          'its retries did not absorb it.',
      );
    }

    // The Lambdas' own EMF metric, one series per 5xx error code (with Powertools' `service` dimension).
    const serverErrorCodes = SERVER_ERROR_CODES;
    const serverErrorMetrics: Record<string, IMetric> = {};
    serverErrorCodes.forEach((code, i) => {
      serverErrorMetrics[`e${i}`] = new Metric({
        namespace: METRICS_NAMESPACE,
        metricName: METRICS.serverErrors.name,
        dimensionsMap: { service: SERVICE_NAME, [METRICS.serverErrors.dimension]: code },
        statistic: Stats.SUM,
        period: fiveMinutes,
      });
    });
    alarm(
      'ServerErrors',
      new MathExpression({
        expression: Object.keys(serverErrorMetrics)
          .map((key) => `FILL(${key}, 0)`)
          .join(' + '),
        usingMetrics: serverErrorMetrics,
        period: fiveMinutes,
        label: `ServerErrors (${serverErrorCodes.join(', ')})`,
      }),
      1,
      `The service answered a 5xx in the contract's shape (${serverErrorCodes.join(', ')}): a bug or an ` +
        'unavailable database. The Lambda logs carry the request ids.',
    );

    // ---- Outputs ------------------------------------------------------------------------------------------------
    new CfnOutput(this, OUTPUT_KEYS.apiBaseUrl, {
      value: `${this.api.apiEndpoint}${API_BASE_PATH}`,
      description: 'Base URL of the API (routes are under it)',
    });
    new CfnOutput(this, OUTPUT_KEYS.accessTable, {
      value: this.accessTable.tableName,
      description: 'API keys and partners (admin CLI --aws)',
    });
    new CfnOutput(this, OUTPUT_KEYS.decisionsTable, {
      value: this.decisionsTable.tableName,
      description: 'Decisions and idempotency records',
    });
    new CfnOutput(this, ALARM_TOPIC_OUTPUT_KEY, {
      value: this.alarmTopic.topicArn,
      description: 'SNS topic every alarm notifies; subscribe to it',
    });
  }
}

/**
 * A Lambda proxy integration (payload 2.0) that API Gateway invokes with a role instead of a resource-based
 * permission on the function (CDK's HttpLambdaIntegration always adds one).
 */
class RoleInvokedLambdaIntegration extends HttpRouteIntegration {
  constructor(
    id: string,
    private readonly handler: IFunction,
    private readonly role: IRole,
  ) {
    super(id);
  }

  bind(): HttpRouteIntegrationConfig {
    return {
      type: HttpIntegrationType.AWS_PROXY,
      uri: this.handler.functionArn,
      payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
      credentials: IntegrationCredentials.fromRole(this.role),
    };
  }
}

/**
 * Access log fields: who called what and how it ended. Never headers, bodies, query strings or authorizer context
 * values (the context carries partner ids and workspaces); only the authorizer's own error string.
 */
export const ACCESS_LOG_FIELDS = {
  requestId: '$context.requestId',
  ip: '$context.identity.sourceIp',
  requestTime: '$context.requestTime',
  method: '$context.httpMethod',
  routeKey: '$context.routeKey',
  path: '$context.path',
  status: '$context.status',
  protocol: '$context.protocol',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationLatency: '$context.integrationLatency',
  integrationStatus: '$context.integrationStatus',
  integrationError: '$context.integrationErrorMessage',
  authorizerError: '$context.authorizer.error',
  error: '$context.error.message',
} as const;
