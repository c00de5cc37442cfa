// Edge protection (`-c edgeProtection=true`): CloudFront and a WAF web ACL in front of the HTTP API, the web ACL in
// us-east-1 (a second stack when the API is elsewhere), the origin header the authorizer and the fallback require.
// Synthesized as `cdk synth` does it (lib/app.ts, with cdk-nag and the Control Tower rules), without bundling: the
// checks read templates. Off, none of it exists (the rest of test/cdk checks that stack).
import { Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { type BuiltApp, buildApp } from '../../lib/app';
import { EDGE_ACKNOWLEDGMENTS, EDGE_FIREWALL_REGION } from '../../lib/stack/edge';
import { OUTPUT_KEYS } from '../../lib/stack-outputs';
import { ENV } from '../../lambdas/contract/settings';
import { EDGE_ORIGIN_HEADER } from '../../lambdas/http/edge-origin';
import { XRAY_WILDCARD_FINDING } from '../../lib/stack/functions';
import { temporaryOutdirs } from '../support/cdk';

type Json = any;
const newOutdir = temporaryOutdirs('edge');

function build(context: Record<string, unknown>): BuiltApp & { outdir: string } {
  const outdir = newOutdir();
  // Quiet: the validation report goes to the console on success too.
  const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
  try {
    const built = buildApp({ context, outdir, bundle: false });
    // What `cdk synth` does: the cdk-nag and Control Tower plugins fail it on any unacknowledged finding.
    built.app.synth();
    return { ...built, outdir };
  } finally {
    log.mockRestore();
  }
}

const resources = (t: Template, type: string): [string, Json][] =>
  Object.entries(t.toJSON().Resources).filter(([, r]: [string, Json]) => r.Type === type) as [string, Json][];

/** The secret's dynamic reference: the value itself is in no template. */
const secretReference = (secretId: string) => ({
  'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secretId }, ':SecretString:::}}']],
});

let elsewhere: BuiltApp & { outdir: string };
let useast1: BuiltApp & { outdir: string };
let off: BuiltApp & { outdir: string };

beforeAll(() => {
  elsewhere = build({ stage: 'dev', edgeProtection: 'true', region: 'eu-west-1' });
  useast1 = build({ stage: 'prod', edgeProtection: true, region: 'us-east-1', edgeIpRateLimit: '1200' });
  off = build({ stage: 'dev' });
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
    // Environment-agnostic as before: `cdk synth` needs no account or region.
    expect(off.stack.environment).toBe('aws://unknown-account/unknown-region');
  });
});

describe.each([
  ['in another region: a second stack in us-east-1 holds the web ACL', () => elsewhere, 6_000],
  ['in us-east-1: one stack', () => useast1, 1_200],
])('edge protection on, API %s', (_name, get, rateLimit) => {
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
    expect(rules.slice(1).map((r: Json) => r.Statement.ManagedRuleGroupStatement)).toEqual([
      {
        VendorName: 'AWS',
        Name: 'AWSManagedRulesCommonRuleSet',
        RuleActionOverrides: [{ Name: 'SizeRestrictions_BODY', ActionToUse: { Count: {} } }],
      },
      { VendorName: 'AWS', Name: 'AWSManagedRulesKnownBadInputsRuleSet' },
    ]);
    for (const rule of rules.slice(1)) expect(rule.OverrideAction).toEqual({ None: {} });
    if (built.edgeFirewall) resources(api, 'AWS::WAFv2::WebACL').forEach(() => fail('a web ACL outside us-east-1'));
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
      OriginCustomHeaders: [{ HeaderName: EDGE_ORIGIN_HEADER, HeaderValue: secretReference(secretId) }],
    });
    expect(JSON.stringify(config.Origins[0].DomainName)).toContain(
      built.stack.getLogicalId(built.stack.api.node.defaultChild as never),
    );
    expect(JSON.stringify(config.WebACLId)).toMatch(built.edgeFirewall ? /ExportsReader/ : /EdgeWebAcl/);
    expect(JSON.stringify(api.toJSON().Outputs[OUTPUT_KEYS.protectedApiBaseUrl].Value)).toContain('/api/v1');
  });

  it('gives the origin header to the authorizer and the fallback only, as a secret reference', () => {
    const [secretId] = resources(api, 'AWS::SecretsManager::Secret')[0];
    const withSecret = Object.entries(built.stack.functions)
      .filter(([, fn]) => {
        const props = api.toJSON().Resources[built.stack.getLogicalId(fn.node.defaultChild as never)].Properties;
        const value = props.Environment.Variables[ENV.edgeOriginSecret];
        if (value !== undefined) expect(value).toEqual(secretReference(secretId));
        return value !== undefined;
      })
      .map(([name]) => name);
    expect(withSecret.sort()).toEqual(['Authorizer', 'Fallback']);
  });

  it('passes cdk-nag and the Control Tower rules, acknowledging only the listed findings, each with its reason', () => {
    const allowed = new Set(Object.values(EDGE_ACKNOWLEDGMENTS).flatMap((group) => Object.keys(group)));
    allowed.add('cdk-validator-cfnguard::lambda_inside_vpc_check');
    // Active tracing's X-Ray policy (test/cdk/nag.test.ts checks what it holds).
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
