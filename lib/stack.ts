// The deployed service: three DynamoDB tables, one Lambda per route plus the authorizer and the fallback, an HTTP API,
// alarms and their SNS topic, and the KMS key of the log groups. Tables and routes come from lambdas/contract/, the
// same definitions local mode uses, so the deployed and local shapes cannot drift. Each part lives in lib/stack/.
import { CfnOutput, Fn, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { Role } from 'aws-cdk-lib/aws-iam';
import { type IKey, Key } from 'aws-cdk-lib/aws-kms';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Topic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { API_BASE_PATH } from '../lambdas/contract/routes';
import { lambdaEnvironment } from '../lambdas/contract/settings';
import { createLogsKey } from './logs-key';
import { ServiceApi } from './stack/api';
import {
  acknowledgeEdgeFindings,
  createEdgeDistribution,
  createEdgeOriginSecret,
  edgeOriginSecretValue,
  createEdgeWebAcl,
} from './stack/edge';
import { createEdgeBypassAlarm, createEdgeOrigin } from './stack/edge-origin';
import { FunctionFactory, SETTINGS_LOG_LEVEL } from './stack/functions';
import { LAMBDA_NODE_OPTIONS } from './lambda-bundling';
import { ServiceAlarms } from './stack/observability';
import { ServiceTables } from './stack/tables';
import { OUTPUT_KEYS } from './stack-outputs';

export { ACCESS_LOG_FIELDS, LAMBDA_VPC_RULE } from './stack/api';
export { LAMBDA_RUNTIME } from './stack/functions';

/** Output key for the alarm topic (the other keys live in stack-outputs.ts, which tools outside the stack read). */
export const ALARM_TOPIC_OUTPUT_KEY = 'AlarmTopicArn';

/** `dev` and `dev-<anything>`: the stages whose tables, log groups and logs key are deleted with the stack. */
export const isDisposableStage = (stage: string): boolean => stage === 'dev' || stage.startsWith('dev-');

export interface SignalAnalysisStackProps extends StackProps {
  stage: string;
  throttlingRateLimit: number;
  throttlingBurstLimit: number;
  decisionRetentionDays: number;
  authCacheTtlSeconds: number;
  /** X-Ray tracing on every Lambda: the handlers send a segment per traced request (context `tracing`). */
  tracing?: boolean;
  /** The share of requests traced while tracing is on (context `traceSampleRate`, TRACE_SAMPLE_RATE). */
  traceSampleRate?: number;
  /** WORKSPACE_CACHE_TTL_SECONDS of the Lambdas (context `workspaceCacheTtlSeconds`, default 30). */
  workspaceCacheTtlSeconds?: number;
  /** Retention of every log group of the stack (Lambdas and access log); Control Tower asks for a year or more. */
  logRetention?: RetentionDays;
  /**
   * ARN of an existing KMS key that encrypts every log group. Its key policy must let CloudWatch Logs of this
   * account and region use it. Without one the stack creates its own key.
   */
  logsKmsKeyArn?: string;
  /**
   * Edge protection (context `edgeProtection`): CloudFront and a WAF web ACL in front of the API. Without
   * `webAclArn` the web ACL is made in this stack, which must then be in us-east-1.
   */
  /** secretVersionId: the origin secret's version both CloudFront and the Lambdas read (a rotation; deploy.md). */
  /**
   * originOnExecuteApi (context `edgeOriginOnExecuteApi`): the first deploy of a move to the custom domain. The domain,
   * its mapping and its output are created, but the execute-api endpoint stays enabled and CloudFront's origin, as in
   * version 3, so partners are served until the origin name's DNS record exists; the next deploy, without it, moves.
   */
  edge?: { ipRateLimit: number; webAclArn?: string; secretVersionId?: string; originOnExecuteApi?: boolean };
}

export class SignalAnalysisStack extends Stack {
  readonly accessTable: TableV2;
  readonly decisionsTable: TableV2;
  readonly learningTable: TableV2;
  /** Keyed by route id, plus `Authorizer` and `Fallback`. */
  readonly functions: Record<string, NodejsFunction>;
  readonly api: HttpApi;
  readonly alarmTopic: Topic;
  /** Encrypts every log group: created by the stack unless `logsKmsKeyArn` names an existing key. */
  readonly logsKey: IKey;
  /** The role API Gateway assumes to invoke the authorizer and the route Lambdas. */
  readonly apiInvokeRole: Role;

  constructor(scope: Construct, id: string, props: SignalAnalysisStackProps) {
    super(scope, id, props);
    // A stage keeps its data and logs when the stack is deleted, whatever its name ("production", "staging"), unless
    // its name says it is disposable (docs/deploy.md, "What a stage keeps").
    const keepsData = !isDisposableStage(props.stage);
    const removalPolicy = keepsData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    const logRetention = props.logRetention ?? RetentionDays.ONE_YEAR;
    this.logsKey = props.logsKmsKeyArn
      ? Key.fromKeyArn(this, 'ImportedLogsKey', props.logsKmsKeyArn)
      : createLogsKey(this, 'LogsKey', removalPolicy);

    const tables = new ServiceTables(this, { removalPolicy, deletionProtection: keepsData });
    this.accessTable = tables.access;
    this.decisionsTable = tables.decisions;
    this.learningTable = tables.learning;

    const edgeSecret = props.edge ? createEdgeOriginSecret(this) : undefined;
    // One reference for CloudFront's header and the Lambdas' setting, so that one deploy changes both.
    const edgeSecretValue = edgeSecret && edgeOriginSecretValue(edgeSecret, props.edge?.secretVersionId);
    const functions = new FunctionFactory(this, {
      logRetention,
      logsKey: this.logsKey,
      removalPolicy,
      tracing: props.tracing ?? false,
      environment: {
        ...lambdaEnvironment({
          accessTableName: tables.access.tableName,
          decisionsTableName: tables.decisions.tableName,
          learningTableName: tables.learning.tableName,
          authCacheTtlSeconds: props.authCacheTtlSeconds,
          workspaceCacheTtlSeconds: props.workspaceCacheTtlSeconds,
          decisionRetentionDays: props.decisionRetentionDays,
          logLevel: SETTINGS_LOG_LEVEL,
          tracingEnabled: props.tracing ?? false,
          traceSampleRate: props.traceSampleRate,
          stage: props.stage,
        }),
        // V8's heap bounds for the function's memory (lib/lambda-bundling.ts, docs/operations.md "Memory").
        NODE_OPTIONS: LAMBDA_NODE_OPTIONS,
      },
    });
    const api = new ServiceApi(this, {
      tables,
      functions,
      throttlingRateLimit: props.throttlingRateLimit,
      throttlingBurstLimit: props.throttlingBurstLimit,
      logRetention,
      logsKey: this.logsKey,
      removalPolicy,
      edgeOriginSecret: edgeSecretValue,
      disableExecuteApiEndpoint: props.edge && !props.edge.originOnExecuteApi ? true : undefined,
    });
    this.functions = functions.functions;
    this.api = api.api;
    this.apiInvokeRole = api.invokeRole;

    const alarms = new ServiceAlarms(this, {
      stage: api.stage,
      stageName: props.stage,
      functions: this.functions,
      tables: tables.all,
      indexNames: tables.indexNames,
    });
    this.alarmTopic = alarms.topic;

    // With edge protection the API's own URL is disabled: ProtectedApiBaseUrl is the one to use.
    if (!props.edge) {
      new CfnOutput(this, OUTPUT_KEYS.apiBaseUrl, {
        value: `${this.api.apiEndpoint}${API_BASE_PATH}`,
        description: 'Base URL of the API (routes are under it)',
      });
    }
    if (props.edge && edgeSecret && edgeSecretValue) {
      const webAclArn = props.edge.webAclArn ?? createEdgeWebAcl(this, props.edge).attrArn;
      const origin = createEdgeOrigin(this, { api: this.api, stage: api.stage });
      const distribution = createEdgeDistribution(this, {
        // `https://<api id>.execute-api.<region>.amazonaws.com` -> its host name, version 3's origin.
        originDomainName: props.edge.originOnExecuteApi
          ? Fn.select(2, Fn.split('/', this.api.apiEndpoint))
          : origin.domainName,
        originSecret: edgeSecretValue,
        webAclArn,
      });
      createEdgeBypassAlarm(this, { accessLogs: api.accessLogs, topic: this.alarmTopic, stageName: props.stage });
      acknowledgeEdgeFindings(this, { distribution, secret: edgeSecret });
      new CfnOutput(this, OUTPUT_KEYS.protectedApiBaseUrl, {
        value: `https://${distribution.distributionDomainName}${API_BASE_PATH}`,
        description: 'Base URL to use: CloudFront and WAF in front of the API, whose own URL is disabled',
      });
    }
    for (const [id, value, description] of [
      [OUTPUT_KEYS.accessTable, this.accessTable.tableName, 'API keys and partners (admin CLI --aws)'],
      [OUTPUT_KEYS.decisionsTable, this.decisionsTable.tableName, 'Decisions and idempotency records'],
      [OUTPUT_KEYS.learningTable, tables.learning.tableName, 'What workspaces learned (admin CLI --aws)'],
      [ALARM_TOPIC_OUTPUT_KEY, this.alarmTopic.topicArn, 'SNS topic every alarm notifies; subscribe to it'],
    ])
      new CfnOutput(this, id, { value, description });
  }
}
