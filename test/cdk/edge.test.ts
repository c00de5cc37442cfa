// Edge protection (`-c edgeProtection=true`): CloudFront and a WAF web ACL in front of the HTTP API, the web ACL in
// us-east-1 (a second stack when the API is elsewhere), the origin header the authorizer and the fallback require.
// Synthesized as `cdk synth` does it (lib/app.ts, with cdk-nag and the Control Tower rules), without bundling: the
// checks read templates. Off, none of it exists (the rest of test/cdk checks that stack).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { type BuiltApp, buildApp } from '../../lib/app';
import { EDGE_ACKNOWLEDGMENTS, EDGE_FIREWALL_REGION } from '../../lib/stack/edge';
import { EDGE_BYPASS_METRIC_NAME, EDGE_ORIGIN_PARAMETERS, EDGE_ORIGIN_PLACEHOLDERS } from '../../lib/stack/edge-origin';
import { OUTPUT_KEYS } from '../../lib/stack-outputs';
import { ENV } from '../../lambdas/contract/settings';
import { EDGE_ORIGIN_HEADER } from '../../lambdas/http/edge-origin';
import { XRAY_WILDCARD_FINDING } from '../../lib/stack/functions';
import { temporaryOutdirs } from '../support/cdk';

type Json = any;
const newOutdir = temporaryOutdirs('edge');

function build(context: Record<string, unknown>, validate = true): BuiltApp & { outdir: string } {
  const outdir = newOutdir();
  // Quiet: the validation report goes to the console on success too.
  const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
  try {
    const built = buildApp({ context, outdir, bundle: false, validate });
    // What `cdk synth` does: the cdk-nag and Control Tower plugins fail it on any unacknowledged finding.
    built.app.synth();
    return { ...built, outdir };
  } finally {
    log.mockRestore();
  }
}

const resources = (t: Template, type: string): [string, Json][] =>
  Object.entries(t.toJSON().Resources).filter(([, r]: [string, Json]) => r.Type === type) as [string, Json][];

/** The secret's dynamic reference, of a version when one is deployed: the value itself is in no template. */
const secretReference = (secretId: string, versionId = '') => ({
  'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secretId }, `:SecretString:::${versionId}}}`]],
});
/** The VersionId of a rotated secret, as `-c edgeSecretVersionId=` gives it (deploy.md). */
const ROTATED = 'EXAMPLE1-90ab-cdef-fedc-ba987EXAMPLE';

let elsewhere: BuiltApp & { outdir: string };
let useast1: BuiltApp & { outdir: string };
let off: BuiltApp & { outdir: string };
let moving: BuiltApp & { outdir: string };

beforeAll(() => {
  elsewhere = build({ stage: 'dev', edgeProtection: 'true', region: 'eu-west-1' });
  useast1 = build({
    stage: 'prod',
    edgeProtection: true,
    region: 'us-east-1',
    edgeIpRateLimit: '1200',
    edgeSecretVersionId: ROTATED,
  });
  // useast1's settings, for the first deploy of a move from the execute-api origin to the custom domain.
  moving = build({
    stage: 'prod',
    edgeProtection: true,
    region: 'us-east-1',
    edgeIpRateLimit: '1200',
    edgeSecretVersionId: ROTATED,
    edgeOriginOnExecuteApi: 'true',
  });
  // Off is the stack nag.test.ts and control-tower.test.ts validate: about 4 s not spent twice.
  off = build({ stage: 'dev' }, false);
});

describe('edge protection off (the default)', () => {
  it('adds no CloudFront, WAF, secret, second stack, origin header setting or protected URL', () => {
    const t = Template.fromStack(off.stack);
    for (const type of ['AWS::CloudFront::Distribution', 'AWS::WAFv2::WebACL', 'AWS::SecretsManager::Secret'])
      t.resourceCountIs(type, 0);
    expect(off.edgeFirewall).toBeUndefined();
    expect(off.app.node.children.filter((c) => c.node.id.includes('edge'))).toEqual([]);
    expect(JSON.stringify(t.toJSON())).not.toContain(ENV.edgeOriginSecret);
    expect(Object.keys(t.toJSON().Outputs)).not.toContain(OUTPUT_KEYS.protectedApiBaseUrl);
    expect(Object.keys(t.toJSON().Outputs)).toContain(OUTPUT_KEYS.apiBaseUrl);
    expect(resources(t, 'AWS::ApiGatewayV2::Api')[0][1].Properties.DisableExecuteApiEndpoint).toBeUndefined();
    for (const type of ['AWS::ApiGatewayV2::DomainName', 'AWS::Logs::MetricFilter']) t.resourceCountIs(type, 0);
    expect(t.toJSON().Parameters?.[EDGE_ORIGIN_PARAMETERS.domainName]).toBeUndefined();
    // Environment-agnostic as before: `cdk synth` needs no account or region.
    expect(off.stack.environment).toBe('aws://unknown-account/unknown-region');
  });
});

describe.each([
  ['in another region: a second stack in us-east-1 holds the web ACL', () => elsewhere, 6_000, undefined],
  ['in us-east-1: one stack, after a rotation of the secret', () => useast1, 1_200, ROTATED],
])('edge protection on, API %s', (_name, get, rateLimit, secretVersion) => {
  let built: BuiltApp;
  let api: Template;
  let acl: Template;
  beforeAll(() => {
    built = get();
    api = Template.fromStack(built.stack);
    acl = built.edgeFirewall ? Template.fromStack(built.edgeFirewall) : api;
  });

  it('puts one CLOUDFRONT-scope web ACL in us-east-1: rate per client IP, then the two managed groups', () => {
    const stackOfAcl = built.edgeFirewall ?? built.stack;
    expect(stackOfAcl.region).toBe(EDGE_FIREWALL_REGION);
    const acls = resources(acl, 'AWS::WAFv2::WebACL');
    expect(acls).toHaveLength(1);
    const props = acls[0][1].Properties;
    expect(props).toMatchObject({ Scope: 'CLOUDFRONT', DefaultAction: { Allow: {} } });
    const rules = [...props.Rules].sort((a: Json, b: Json) => a.Priority - b.Priority);
    expect(rules[0]).toMatchObject({
      Action: { Block: {} },
      Statement: { RateBasedStatement: { AggregateKeyType: 'IP', Limit: rateLimit, EvaluationWindowSec: 300 } },
    });
    expect(rules.slice(1).map((r: Json) => r.Statement.ManagedRuleGroupStatement)).toMatchObject([
      { VendorName: 'AWS', Name: 'AWSManagedRulesCommonRuleSet' },
      { VendorName: 'AWS', Name: 'AWSManagedRulesKnownBadInputsRuleSet' },
    ]);
    for (const rule of rules.slice(1)) expect(rule.OverrideAction).toEqual({ None: {} });
    if (built.edgeFirewall) resources(api, 'AWS::WAFv2::WebACL').forEach(() => fail('a web ACL outside us-east-1'));
  });

  it('counts, never blocks, every rule of the managed groups that inspects the body (signal text quotes HTML and exploits)', () => {
    // AWS WAF's rule documentation ("Baseline rule groups"): the *_BODY rules of each group. Listed here, not taken
    // from lib/stack/edge.ts, so that a rule left out there fails this test.
    const bodyRules: Record<string, string[]> = {
      AWSManagedRulesCommonRuleSet: [
        'CrossSiteScripting_BODY',
        'EC2MetaDataSSRF_BODY',
        'GenericLFI_BODY',
        'GenericRFI_BODY',
        'SizeRestrictions_BODY',
      ],
      AWSManagedRulesKnownBadInputsRuleSet: ['JavaDeserializationRCE_BODY', 'Log4JRCE_BODY'],
    };
    const groups = resources(acl, 'AWS::WAFv2::WebACL')[0][1]
      .Properties.Rules.map((r: Json) => r.Statement.ManagedRuleGroupStatement)
      .filter(Boolean);
    expect(groups.map((g: Json) => g.Name).sort()).toEqual(Object.keys(bodyRules).sort());
    for (const group of groups) {
      const overrides = new Map<string, Json>(
        (group.RuleActionOverrides ?? []).map((o: Json) => [o.Name, o.ActionToUse]),
      );
      const blocking = bodyRules[group.Name].filter((rule) => !('Count' in (overrides.get(rule) ?? {})));
      expect([group.Name, blocking]).toEqual([group.Name, []]);
      // Nothing the stack itself names is set to block either.
      for (const [name, action] of overrides) expect([name, Object.keys(action)]).toEqual([name, ['Count']]);
    }
  });

  it('puts CloudFront in front of the HTTP API, forwarding every viewer header, the query and the body, caching nothing', () => {
    const distributions = resources(api, 'AWS::CloudFront::Distribution');
    expect(distributions).toHaveLength(1);
    const config = distributions[0][1].Properties.DistributionConfig;
    const [secretId] = resources(api, 'AWS::SecretsManager::Secret')[0];
    expect(config.DefaultCacheBehavior).toMatchObject({
      AllowedMethods: expect.arrayContaining(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD']),
      // Managed CachingDisabled, and AllViewerExceptHostHeader: every viewer header (Authorization, Idempotency-Key,
      // If-Match), every query string and the body, but Host, which must stay the API's own.
      CachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad',
      OriginRequestPolicyId: 'b689b0a8-53d0-40ab-baf2-68738e2966ac',
      ViewerProtocolPolicy: 'https-only',
    });
    expect(config.Origins).toHaveLength(1);
    expect(config.Origins[0]).toMatchObject({
      CustomOriginConfig: { OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] },
      OriginCustomHeaders: [{ HeaderName: EDGE_ORIGIN_HEADER, HeaderValue: secretReference(secretId, secretVersion) }],
    });
    // The origin is the API's custom domain, named by a deployment parameter (edge-origin.ts).
    expect(config.Origins[0].DomainName).toEqual({ Ref: EDGE_ORIGIN_PARAMETERS.domainName });
    expect(JSON.stringify(config.WebACLId)).toMatch(built.edgeFirewall ? /ExportsReader/ : /EdgeWebAcl/);
    expect(JSON.stringify(api.toJSON().Outputs[OUTPUT_KEYS.protectedApiBaseUrl].Value)).toContain('/api/v1');
  });

  it("disables the API's default execute-api endpoint and reaches it through a custom domain given at deploy time", () => {
    const json = api.toJSON();
    const apis = resources(api, 'AWS::ApiGatewayV2::Api');
    expect(apis).toHaveLength(1);
    expect(apis[0][1].Properties.DisableExecuteApiEndpoint).toBe(true);
    // Name and certificate are parameters whose defaults are placeholders a deploy refuses (synth works offline).
    expect(json.Parameters[EDGE_ORIGIN_PARAMETERS.domainName]).toMatchObject({
      Type: 'String',
      Default: EDGE_ORIGIN_PLACEHOLDERS.domainName,
    });
    expect(json.Parameters[EDGE_ORIGIN_PARAMETERS.certificateArn]).toMatchObject({
      Type: 'String',
      Default: EDGE_ORIGIN_PLACEHOLDERS.certificateArn,
    });
    const assertions = Object.values(json.Rules as Record<string, Json>).flatMap((r) => r.Assertions);
    expect(JSON.stringify(assertions)).toContain(EDGE_ORIGIN_PLACEHOLDERS.domainName);
    expect(JSON.stringify(assertions)).toContain(EDGE_ORIGIN_PLACEHOLDERS.certificateArn);
    const [domainId, domain] = resources(api, 'AWS::ApiGatewayV2::DomainName')[0];
    expect(domain.Properties).toMatchObject({
      DomainName: { Ref: EDGE_ORIGIN_PARAMETERS.domainName },
      DomainNameConfigurations: [
        {
          CertificateArn: { Ref: EDGE_ORIGIN_PARAMETERS.certificateArn },
          EndpointType: 'REGIONAL',
          SecurityPolicy: 'TLS_1_2',
        },
      ],
    });
    const mappings = resources(api, 'AWS::ApiGatewayV2::ApiMapping');
    expect(mappings).toHaveLength(1);
    expect(mappings[0][1].Properties).toMatchObject({
      ApiId: { Ref: apis[0][0] },
      DomainName: { Ref: domainId },
    });
    // No output points at the disabled URL; one says where the origin name's DNS record points.
    expect(Object.keys(json.Outputs)).not.toContain(OUTPUT_KEYS.apiBaseUrl);
    expect(JSON.stringify(Object.values(json.Outputs))).toContain('RegionalDomainName');
  });

  it("names every output of both stacks in docs/deploy.md's outputs table, the secret's ARN for its rotation", () => {
    const guide = readFileSync(path.join(__dirname, '../../docs/deploy.md'), 'utf8');
    const outputs = [elsewhere.stack, elsewhere.edgeFirewall!].flatMap((s) =>
      Object.keys(Template.fromStack(s).toJSON().Outputs),
    );
    expect(outputs).toEqual(expect.arrayContaining(['EdgeOriginSecretArn', 'EdgeWebAclArn']));
    expect(outputs.filter((key) => !guide.includes(`| \`${key}\` |`))).toEqual([]);
  });

  it('alarms on requests refused for coming around CloudFront, from the access log', () => {
    const filters = resources(api, 'AWS::Logs::MetricFilter');
    expect(filters).toHaveLength(1);
    const filter = filters[0][1].Properties;
    // The stage's own namespace: another stage's bypasses in the same account do not fire this one's alarm.
    const namespace = `SignalAnalysis/${built.stage}`;
    expect(filter.MetricTransformations).toEqual([
      { MetricNamespace: namespace, MetricName: EDGE_BYPASS_METRIC_NAME, MetricValue: '1' },
    ]);
    expect(filter.FilterPattern).toContain('$.authorizerOutcome = "FORBIDDEN"');
    expect(filter.FilterPattern).toContain('$.routeKey = "$default"');
    expect(JSON.stringify(filter.LogGroupName)).toContain('ApiAccessLogs');
    const alarm = resources(api, 'AWS::CloudWatch::Alarm').find(
      ([, a]) => a.Properties.MetricName === EDGE_BYPASS_METRIC_NAME,
    );
    expect(alarm?.[1].Properties).toMatchObject({
      Namespace: namespace,
      Statistic: 'Sum',
      Period: 300,
      AlarmActions: [{ Ref: expect.stringMatching(/^AlarmTopic/) }],
    });
  });

  it('gives the origin header to the authorizer and the fallback only, as a secret reference', () => {
    const [secretId] = resources(api, 'AWS::SecretsManager::Secret')[0];
    const withSecret = Object.entries(built.stack.functions)
      .filter(([, fn]) => {
        const props = api.toJSON().Resources[built.stack.getLogicalId(fn.node.defaultChild as never)].Properties;
        const value = props.Environment.Variables[ENV.edgeOriginSecret];
        // The same version as CloudFront's: one deploy hands a rotated value to both.
        if (value !== undefined) expect(value).toEqual(secretReference(secretId, secretVersion));
        return value !== undefined;
      })
      .map(([name]) => name);
    expect(withSecret.sort()).toEqual(['Authorizer', 'Fallback']);
  });

  it('passes cdk-nag and the Control Tower rules, acknowledging only the listed findings, each with its reason', () => {
    const allowed = new Set(Object.values(EDGE_ACKNOWLEDGMENTS).flatMap((group) => Object.keys(group)));
    allowed.add('cdk-validator-cfnguard::lambda_inside_vpc_check');
    // Each function's X-Ray policy, PutTraceSegments on `*` (test/cdk/nag.test.ts checks what it holds).
    allowed.add(`Annotation::${XRAY_WILDCARD_FINDING}`);
    for (const construct of built.app.node.findAll()) {
      for (const entry of construct.node.metadata) {
        if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY) continue;
        for (const [id, reason] of Object.entries(entry.data as Record<string, string>)) {
          if (/crossStackReferencesDefaultStrong/.test(id)) continue;
          expect([id, allowed.has(id)]).toEqual([id, true]);
          expect(String(reason).length).toBeGreaterThanOrEqual(40);
        }
      }
    }
  });
});

describe('the first deploy of a move to its own origin (-c edgeOriginOnExecuteApi=true, docs/deploy.md)', () => {
  // Version 3 reached the API at its execute-api host. Disabling that host and pointing CloudFront at a name whose DNS
  // record can only be made after the deploy would cut partners off until the record resolves; this deploy does
  // neither, and creates what the record needs.
  let json: Json;
  let apiId: string;
  beforeAll(() => {
    json = Template.fromStack(moving.stack).toJSON();
    [[apiId]] = resources(Template.fromStack(moving.stack), 'AWS::ApiGatewayV2::Api');
  });
  const distributionOf = (t: Json): Json =>
    Object.values<Json>(t.Resources).find((r) => r.Type === 'AWS::CloudFront::Distribution');

  it('keeps the execute-api endpoint enabled and CloudFront at its host, as version 3 had them', () => {
    expect(json.Resources[apiId].Properties.DisableExecuteApiEndpoint).toBeUndefined();
    const origins = distributionOf(json).Properties.DistributionConfig.Origins;
    expect(origins).toHaveLength(1);
    // Version 3's origin: the host of `https://<api id>.execute-api.<region>.amazonaws.com`.
    expect(origins[0].DomainName).toEqual({
      'Fn::Select': [2, { 'Fn::Split': ['/', { 'Fn::GetAtt': [apiId, 'ApiEndpoint'] }] }],
    });
  });

  it('creates the custom domain, its mapping, its parameters and the EdgeOriginDnsTarget output for the DNS record', () => {
    const t = Template.fromStack(moving.stack);
    const [[domainId, domain]] = resources(t, 'AWS::ApiGatewayV2::DomainName');
    expect(domain.Properties.DomainName).toEqual({ Ref: EDGE_ORIGIN_PARAMETERS.domainName });
    const mappings = resources(t, 'AWS::ApiGatewayV2::ApiMapping');
    expect(mappings.map(([, m]) => m.Properties)).toMatchObject([
      { ApiId: { Ref: apiId }, DomainName: { Ref: domainId } },
    ]);
    expect(json.Outputs.EdgeOriginDnsTarget.Value).toEqual({ 'Fn::GetAtt': [domainId, 'RegionalDomainName'] });
    // The parameters are still required: the domain needs them.
    expect(Object.keys(json.Parameters)).toEqual(
      expect.arrayContaining([EDGE_ORIGIN_PARAMETERS.domainName, EDGE_ORIGIN_PARAMETERS.certificateArn]),
    );
  });

  it('differs from the stack without it in those two properties only, so the next deploy changes only them', () => {
    const without = Template.fromStack(useast1.stack).toJSON();
    expect(without.Resources[apiId].Properties.DisableExecuteApiEndpoint).toBe(true);
    expect(distributionOf(without).Properties.DistributionConfig.Origins[0].DomainName).toEqual({
      Ref: EDGE_ORIGIN_PARAMETERS.domainName,
    });
    const moved = structuredClone(json);
    moved.Resources[apiId].Properties.DisableExecuteApiEndpoint = true;
    distributionOf(moved).Properties.DistributionConfig.Origins[0].DomainName = {
      Ref: EDGE_ORIGIN_PARAMETERS.domainName,
    };
    expect(moved).toEqual(without);
  });

  it('is refused without edge protection, where there is no origin to move', () => {
    for (const edgeProtection of [undefined, 'false'])
      expect(() =>
        buildApp({
          context: { edgeProtection, edgeOriginOnExecuteApi: 'true' },
          outdir: newOutdir(),
          bundle: false,
        }),
      ).toThrow(/context edgeOriginOnExecuteApi .* -c edgeProtection=true/);
    // Off, as by default, it is no error.
    expect(() =>
      buildApp({ context: { edgeOriginOnExecuteApi: 'false' }, outdir: newOutdir(), bundle: false }),
    ).not.toThrow();
  });
});

describe('what edge protection costs (bin/bench/cost-model.ts)', () => {
  it('adds CloudFront and WAF per request and the web ACL with its three rules per month', () => {
    const { edgeCost, edgeCostPerMillionAt } =
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded inside the test, as the file has it
      require('../../bin/bench/cost-model') as typeof import('../../bin/bench/cost-model');
    const edge = edgeCost(3);
    expect(edge).toEqual({ cloudfront: 1.0, waf: 0.6, fixedPerMonth: 8 });
    expect(edgeCostPerMillionAt(edge, 10)).toBeCloseTo(2.4, 10);
  });
});

it('refuses an origin secret version that is no VersionId', () => {
  expect(() =>
    buildApp({
      context: { edgeProtection: true, edgeSecretVersionId: 'AWSCURRENT' },
      outdir: newOutdir(),
      bundle: false,
    }),
  ).toThrow(/edgeSecretVersionId/);
});

it('refuses a region that is no AWS region, rather than deploying a stack for it', () => {
  for (const region of ['not a region', 'EU-WEST-1', 'eu-west'])
    expect(() => buildApp({ context: { edgeProtection: true, region }, outdir: newOutdir(), bundle: false })).toThrow(
      /context region must be an AWS region/,
    );
});

it("refuses a rate per client IP over WAF's maximum, which only the deploy would refuse", () => {
  expect(() =>
    buildApp({
      context: { edgeProtection: true, region: 'us-east-1', edgeIpRateLimit: '2000000001' },
      outdir: newOutdir(),
      bundle: false,
    }),
  ).toThrow(/context edgeIpRateLimit must be an integer from 100 to 2000000000/);
});
