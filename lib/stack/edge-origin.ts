// Edge protection's origin (docs/deploy.md, "Edge protection"): with the HTTP API's default execute-api endpoint
// disabled, CloudFront reaches the API through a custom domain of its own. Its name and certificate are deployment
// parameters whose defaults are placeholders, so `cdk synth -c edgeProtection=true` works offline while a deploy that
// leaves them unset is refused before anything is created. What an HTTP API cannot shield: a request sent to the
// custom domain around CloudFront still runs the authorizer (which refuses it 403 FORBIDDEN) and counts against the
// stage's throttle. So the name is one nobody needs to know, and an alarm counts those refusals.
import { CfnOutput, CfnParameter, CfnRule, Duration, Fn, Stack } from 'aws-cdk-lib';
import {
  ApiMapping,
  DomainName,
  EndpointType,
  type HttpApi,
  type HttpStage,
  SecurityPolicy,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { FilterPattern, type ILogGroup, MetricFilter } from 'aws-cdk-lib/aws-logs';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { metricsNamespace } from '../../lambdas/contract/observability';

/** The deployment parameters, and the placeholders they default to (a deploy with either left as is is refused). */
export const EDGE_ORIGIN_PARAMETERS = {
  domainName: 'EdgeOriginDomainName',
  certificateArn: 'EdgeOriginCertificateArn',
} as const;
export const EDGE_ORIGIN_PLACEHOLDERS = {
  domainName: 'origin-name-not-set.invalid',
  certificateArn: 'arn:aws:acm:region-not-set:000000000000:certificate/not-set',
} as const;

/** The alarm's name suffix, its metric and the refusals in 5 minutes that fire it. */
const EDGE_BYPASS_ALARM = 'EdgeOriginBypass';
export const EDGE_BYPASS_METRIC_NAME = 'EdgeOriginRefused';
const EDGE_BYPASS_THRESHOLD = 20;

/** The stack outputs of the origin: where to point the origin name's DNS record. */
const EDGE_ORIGIN_OUTPUT = 'EdgeOriginDnsTarget';

interface EdgeOrigin {
  /** The origin's host name, for CloudFront (the parameter's value). */
  domainName: string;
  domain: DomainName;
}

/**
 * The custom domain CloudFront sends requests to: a regional API Gateway domain with the given certificate (ACM, in
 * the API's region, covering the name), TLS 1.2, mapped at its root to the API's stage.
 */
export function createEdgeOrigin(scope: Construct, props: { api: HttpApi; stage: HttpStage }): EdgeOrigin {
  const name = new CfnParameter(scope, EDGE_ORIGIN_PARAMETERS.domainName, {
    type: 'String',
    default: EDGE_ORIGIN_PLACEHOLDERS.domainName,
    description:
      'Edge protection: the host name CloudFront uses to reach the API (a random label under a domain you control, ' +
      'e.g. o-7k2q9x4m1v.api.example.com; docs/deploy.md)',
    allowedPattern: '^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$',
  });
  const certificateArn = new CfnParameter(scope, EDGE_ORIGIN_PARAMETERS.certificateArn, {
    type: 'String',
    default: EDGE_ORIGIN_PLACEHOLDERS.certificateArn,
    description:
      `Edge protection: an ACM certificate in the API's region for ${EDGE_ORIGIN_PARAMETERS.domainName} ` +
      '(a wildcard one, so the name appears in no certificate log)',
    allowedPattern: '^arn:aws[a-z-]*:acm:[a-z0-9-]+:\\d{12}:certificate/[A-Za-z0-9-]+$',
  });
  new CfnRule(scope, 'EdgeOriginParametersSet', {
    assertions: [
      {
        assert: Fn.conditionNot(Fn.conditionEquals(name.valueAsString, EDGE_ORIGIN_PLACEHOLDERS.domainName)),
        assertDescription: `Set ${EDGE_ORIGIN_PARAMETERS.domainName} (cdk deploy --parameters; docs/deploy.md)`,
      },
      {
        assert: Fn.conditionNot(
          Fn.conditionEquals(certificateArn.valueAsString, EDGE_ORIGIN_PLACEHOLDERS.certificateArn),
        ),
        assertDescription: `Set ${EDGE_ORIGIN_PARAMETERS.certificateArn} (cdk deploy --parameters; docs/deploy.md)`,
      },
    ],
  });
  const domain = new DomainName(scope, 'EdgeOriginDomain', {
    domainName: name.valueAsString,
    certificate: Certificate.fromCertificateArn(scope, 'EdgeOriginCertificate', certificateArn.valueAsString),
    endpointType: EndpointType.REGIONAL,
    securityPolicy: SecurityPolicy.TLS_1_2,
  });
  new ApiMapping(scope, 'EdgeOriginMapping', { api: props.api, domainName: domain, stage: props.stage });
  new CfnOutput(scope, EDGE_ORIGIN_OUTPUT, {
    value: domain.regionalDomainName,
    description: `Point a DNS CNAME of ${EDGE_ORIGIN_PARAMETERS.domainName} at this (docs/deploy.md)`,
  });
  return { domainName: name.valueAsString, domain };
}

/**
 * Counts, from the stage's access log, the requests refused for coming around CloudFront: a route's whose
 * authorizer answered FORBIDDEN, or the fallback's 403 (it answers 403 for nothing else). CloudFront adds the origin
 * header to every request, so any such refusal means someone calls the origin directly; the alarm fires on a stream.
 */
export function createEdgeBypassAlarm(
  scope: Construct,
  props: { accessLogs: ILogGroup; topic: ITopic; stageName: string },
): Alarm {
  const filter = new MetricFilter(scope, 'EdgeOriginRefusedFilter', {
    logGroup: props.accessLogs,
    metricNamespace: metricsNamespace(props.stageName),
    metricName: EDGE_BYPASS_METRIC_NAME,
    metricValue: '1',
    filterPattern: FilterPattern.any(
      FilterPattern.stringValue('$.authorizerOutcome', '=', 'FORBIDDEN'),
      FilterPattern.all(
        FilterPattern.stringValue('$.routeKey', '=', '$default'),
        FilterPattern.stringValue('$.status', '=', '403'),
      ),
    ),
  });
  const alarm = new Alarm(scope, EDGE_BYPASS_ALARM, {
    alarmName: `${Stack.of(scope).stackName}-${EDGE_BYPASS_ALARM}`,
    alarmDescription:
      'Requests reached the API around CloudFront (403 FORBIDDEN): someone calls its origin name directly. They ' +
      "count against the stage's throttle. docs/operations.md says what to do.",
    metric: filter.metric({ statistic: 'Sum', period: Duration.minutes(5) }),
    threshold: EDGE_BYPASS_THRESHOLD,
    comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    evaluationPeriods: 1,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
  const action = new SnsAction(props.topic);
  alarm.addAlarmAction(action);
  alarm.addOkAction(action);
  return alarm;
}
