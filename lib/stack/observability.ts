// Alarms and the SNS topic they notify: the stage's 5xx share, each Lambda's errors and throttles, each table's
// throttles, and the service's own 5xx metric (EMF, one series per error code).
import { Aws, Duration, Stack } from 'aws-cdk-lib';
import type { HttpStage } from 'aws-cdk-lib/aws-apigatewayv2';
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
import type { TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { SERVER_ERROR_CODES } from '../../lambdas/contract/errors';
import { METRICS, SERVICE_NAME, metricsNamespace } from '../../lambdas/contract/observability';
import type { TableDefinition } from '../../lambdas/contract/tables';

interface ServiceAlarmsProps {
  stage: HttpStage;
  /** The deployed stage's name: the namespace of the Lambdas' own metrics. */
  stageName: string;
  /** Keyed by name: each gets an `${name}Errors` and a `${name}Throttles` alarm. */
  functions: Record<string, IFunction>;
  tables: ReadonlyMap<TableDefinition, TableV2>;
  /** Each table's deployed indexes, whose throttling its alarm adds. */
  indexNames: ReadonlyMap<TableDefinition, readonly string[]>;
}

const FIVE_MINUTES = Duration.minutes(5);
/** CloudWatch's hard limit on the metrics one metric-math alarm reads (deploy fails past it, synth does not). */
const MATH_ALARM_MAX_METRICS = 10;

/** Adds its resources to `scope` itself, keeping the logical ids of the single-constructor stack it came from. */
export class ServiceAlarms {
  readonly topic: Topic;

  constructor(
    private readonly scope: Construct,
    props: ServiceAlarmsProps,
  ) {
    const stackName = Stack.of(scope).stackName;
    this.topic = new Topic(scope, 'AlarmTopic', {
      displayName: `${stackName} alarms`,
      // Denies sns:Publish without TLS (AwsSolutions-SNS3).
      enforceSSL: true,
    });
    // A topic policy replaces SNS's default one, so CloudWatch alarms of this account must be allowed explicitly.
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID },
          ArnLike: { 'aws:SourceArn': `arn:${Aws.PARTITION}:cloudwatch:${Aws.REGION}:${Aws.ACCOUNT_ID}:alarm:*` },
        },
      }),
    );

    // 5xx share of all requests at the stage, once there are enough requests for a share to mean something.
    this.alarm(
      'Api5xxRate',
      new MathExpression({
        expression: 'IF(FILL(requests, 0) >= 20, 100 * FILL(errors, 0) / FILL(requests, 1), 0)',
        usingMetrics: {
          errors: props.stage.metricServerError({ statistic: Stats.SUM, period: FIVE_MINUTES }),
          requests: props.stage.metricCount({ statistic: Stats.SUM, period: FIVE_MINUTES }),
        },
        period: FIVE_MINUTES,
        label: '5xx % of requests',
      }),
      5,
      "At least 5% of API requests got a 5xx (ours or API Gateway's) in 2 consecutive 5-minute periods.",
      2,
    );

    for (const [name, fn] of Object.entries(props.functions)) {
      // The handlers turn every error into a response, so a Lambda error is a crash, a timeout or an out-of-memory:
      // for the authorizer and the routes, API Gateway then answers with its own 500 body.
      this.alarm(
        `${name}Errors`,
        fn.metricErrors({ statistic: Stats.SUM, period: FIVE_MINUTES }),
        1,
        `The ${name} Lambda failed (crash, timeout or out of memory); API Gateway answered 500 for it.`,
      );
      this.alarm(
        `${name}Throttles`,
        fn.metricThrottles({ statistic: Stats.SUM, period: FIVE_MINUTES }),
        1,
        `The ${name} Lambda was throttled (account or function concurrency limit reached).`,
      );
    }

    for (const [def, table] of props.tables) {
      // A table's own throttle metrics leave out its global secondary indexes (their series carry the index name
      // too), and an index that throttles answers 503 as the table does: each index's reads and writes are added.
      const throttles: Record<string, IMetric> = {};
      const parts = [
        { TableName: table.tableName },
        ...(props.indexNames.get(def) ?? []).map((indexName) => ({
          TableName: table.tableName,
          GlobalSecondaryIndexName: indexName,
        })),
      ];
      if (parts.length * 2 > MATH_ALARM_MAX_METRICS)
        throw new Error(`the ${def.id} table's throttle alarm would read more than ${MATH_ALARM_MAX_METRICS} metrics`);
      parts.forEach((dimensionsMap, i) => {
        for (const [kind, metricName] of [
          ['r', 'ReadThrottleEvents'],
          ['w', 'WriteThrottleEvents'],
        ] as const)
          throttles[`${kind}${i}`] = table.metric(metricName, {
            dimensionsMap,
            statistic: Stats.SUM,
            period: FIVE_MINUTES,
          });
      });
      this.alarm(
        `${def.id}TableThrottles`,
        new MathExpression({
          expression: Object.keys(throttles)
            .map((id) => `FILL(${id}, 0)`)
            .join(' + '),
          usingMetrics: throttles,
          period: FIVE_MINUTES,
          label: `${def.id} table throttle events`,
        }),
        1,
        `DynamoDB throttled requests on the ${def.id} table or one of its indexes; the service answered 503 SERVICE_UNAVAILABLE where ` +
          'its retries did not absorb it.',
      );
    }

    // The Lambdas' own EMF metric, one series per 5xx error code (with Powertools' `service` dimension).
    const serverErrorMetrics: Record<string, IMetric> = {};
    SERVER_ERROR_CODES.forEach((code, i) => {
      serverErrorMetrics[`e${i}`] = new Metric({
        namespace: metricsNamespace(props.stageName),
        metricName: METRICS.serverErrors.name,
        dimensionsMap: { service: SERVICE_NAME, [METRICS.serverErrors.dimension]: code },
        statistic: Stats.SUM,
        period: FIVE_MINUTES,
      });
    });
    this.alarm(
      'ServerErrors',
      new MathExpression({
        expression: Object.keys(serverErrorMetrics)
          .map((key) => `FILL(${key}, 0)`)
          .join(' + '),
        usingMetrics: serverErrorMetrics,
        period: FIVE_MINUTES,
        label: `ServerErrors (${SERVER_ERROR_CODES.join(', ')})`,
      }),
      1,
      `The service answered a 5xx in the contract's shape (${SERVER_ERROR_CODES.join(', ')}): a bug or an ` +
        'unavailable database. The Lambda logs carry the request ids.',
    );
  }

  /** An alarm that notifies the topic when it fires and when it clears; no traffic is not a problem. */
  private alarm(id: string, metric: IMetric, threshold: number, description: string, evaluationPeriods = 1): void {
    const a = new Alarm(this.scope, id, {
      alarmName: `${Stack.of(this.scope).stackName}-${id}`,
      alarmDescription: description,
      metric,
      threshold,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    const action = new SnsAction(this.topic);
    a.addAlarmAction(action);
    a.addOkAction(action);
  }
}
