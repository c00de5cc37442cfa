// The HTTP API: the authorizer, one Lambda and route per entry of the route table, the `$default` fallback, the
// role API Gateway invokes them with, and the stage with its throttle and access log.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Duration, type RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
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
import { type IRole, PolicyDocument, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { AUTHORIZER_ENTRY, FALLBACK_ENTRY, ROUTES } from '../../lambdas/contract/routes';
import { ENV } from '../../lambdas/contract/settings';
import { AUTHORIZER_ACCESS, FALLBACK_ACCESS, type TableGrant, routeAccess, version3RetiredAccess } from './access';
import type { FunctionFactory, TableAccess } from './functions';
import type { ServiceTables } from './tables';

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
 * Access log fields (access-log-format.json): who called what and how it ended. Never headers, bodies, query
 * strings or the path (API Gateway cannot mask a key a partner puts in a URL; the route key names the route); of the
 * authorizer, its error string, its verdict's `outcome` (`allow` or a refusal code, which the edge bypass alarm filters
 * on) and, for a key it allowed, the partner id and key id (neither a secret: on-call asks "what did partner X get?"),
 * never the scopes or rate limit its context also carries.
 */
export const ACCESS_LOG_FIELDS = JSON.parse(readFileSync(join(__dirname, 'access-log-format.json'), 'utf8')) as Record<
  string,
  string
>;

interface ServiceApiProps {
  tables: ServiceTables;
  functions: FunctionFactory;
  throttlingRateLimit: number;
  throttlingBurstLimit: number;
  logRetention: RetentionDays;
  logsKey: IKey;
  removalPolicy: RemovalPolicy;
  /**
   * Edge protection on: the origin header's value (a dynamic reference, never the value itself), which the
   * authorizer and the fallback, the two functions every request meets first, require.
   */
  edgeOriginSecret?: string;
  /** Edge protection on: the default execute-api endpoint is disabled (CloudFront uses a custom domain instead). */
  disableExecuteApiEndpoint?: boolean;
}

/** Adds its resources to `scope` itself, keeping the logical ids of the single-constructor stack it came from. */
export class ServiceApi {
  readonly api: HttpApi;
  readonly stage: HttpStage;
  /** The stage's access log. */
  readonly accessLogs: LogGroup;
  /** The role API Gateway assumes to invoke the authorizer and the route Lambdas. */
  readonly invokeRole: Role;

  constructor(scope: Construct, props: ServiceApiProps) {
    const { tables, functions } = props;
    const stackName = Stack.of(scope).stackName;

    // Each function's table access, limited to the items it touches (lib/stack/access.ts).
    const onTables = (grants: readonly TableGrant[]): TableAccess[] =>
      grants.map(({ table, actions, leadingKeys, index }) => ({
        table: tables[table],
        actions: actions.map((a) => `dynamodb:${a}`),
        leadingKeys,
        index,
      }));
    const edgeEnvironment = props.edgeOriginSecret ? { [ENV.edgeOriginSecret]: props.edgeOriginSecret } : undefined;
    const authorizerFn = functions.make(
      'Authorizer',
      AUTHORIZER_ENTRY,
      'Verifies API keys (HTTP API authorizer)',
      onTables(AUTHORIZER_ACCESS),
      edgeEnvironment,
    );
    const fallbackFn = functions.make(
      'Fallback',
      FALLBACK_ENTRY,
      'Answers 404/405 for unmatched requests',
      onTables(FALLBACK_ACCESS),
      edgeEnvironment,
    );
    const routeFunctions = ROUTES.map((route) => ({
      route,
      fn: functions.make(
        route.id,
        route.entry,
        `${route.method} ${route.path}`,
        // The first step of an upgrade: version 3 code runs under this role until CloudFormation replaces it.
        onTables([...routeAccess(route), ...(tables.keepRetired ? version3RetiredAccess(route.id) : [])]),
      ),
    }));

    this.api = new HttpApi(scope, 'HttpApi', {
      apiName: stackName,
      description: 'Signal Analysis Service',
      // The stage is made below, with throttling and access logs.
      createDefaultStage: false,
      // API Gateway itself then answers 403 to any call of https://<id>.execute-api.<region>.amazonaws.com.
      disableExecuteApiEndpoint: props.disableExecuteApiEndpoint,
    });

    // API Gateway invokes every Lambda through this role rather than through resource-based permissions on the
    // functions: the functions then have no resource policy at all (Control Tower's CT.LAMBDA.PR.2 looks for none
    // that is public), and the role may invoke exactly these functions.
    this.invokeRole = new Role(scope, 'ApiInvokeRole', {
      assumedBy: new ServicePrincipal('apigateway.amazonaws.com'),
      description: `API Gateway invokes the Lambdas of ${stackName}`,
      inlinePolicies: {
        InvokeOwnFunctions: new PolicyDocument({
          statements: [
            new PolicyStatement({
              actions: ['lambda:InvokeFunction'],
              resources: Object.values(functions.functions).map((fn) => fn.functionArn),
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
      role: this.invokeRole,
    });

    for (const { route, fn } of routeFunctions) {
      this.api.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method]],
        integration: new RoleInvokedLambdaIntegration(`${route.id}Integration`, fn, this.invokeRole),
        authorizer,
      });
    }

    // Everything else: 404/405 in the contract's shape, with no key needed (docs/partners.md, "Errors"). The authorizer
    // is attached too, so that every route has an authorization type; it never denies, and the fallback ignores
    // its verdict, so a request without a key still gets the contract's 404/405.
    new HttpRoute(scope, 'DefaultRoute', {
      httpApi: this.api,
      routeKey: HttpRouteKey.DEFAULT,
      integration: new RoleInvokedLambdaIntegration('FallbackIntegration', fallbackFn, this.invokeRole),
      authorizer,
    });

    for (const fn of Object.values(functions.functions)) {
      Validations.of(fn).acknowledge({ id: LAMBDA_VPC_RULE, reason: LAMBDA_VPC_REASON });
    }

    const accessLogs = (this.accessLogs = new LogGroup(scope, 'ApiAccessLogs', {
      retention: props.logRetention,
      encryptionKey: props.logsKey,
      removalPolicy: props.removalPolicy,
    }));
    this.stage = new HttpStage(scope, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: props.throttlingRateLimit, burstLimit: props.throttlingBurstLimit },
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
      },
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
