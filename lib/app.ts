// Builds the CDK app exactly as `cdk synth` runs it (bin/app.ts is a thin wrapper), so tests synthesize the same
// thing: context from `-c key=value` over the defaults of lib/stack-context.ts, with cdk-nag's AwsSolutions checks and
// AWS Control Tower's proactive controls (CfnGuard) registered as policy-validation plugins.
import { Annotations, App, Validations } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { AwsSolutionsChecks } from 'cdk-nag';
import { ControlTowerChecks } from './control-tower-checks';
import { SignalAnalysisStack, type SignalAnalysisStackProps } from './stack';
import { EDGE_FIREWALL_REGION, EdgeFirewallStack } from './stack/edge';
import {
  BOOLEAN_CONTEXT,
  FRACTION_CONTEXT,
  type FractionContextKey,
  INT_CONTEXT,
  type IntContextKey,
  misspelledContextKey,
} from './stack-context';
import { booleanContext } from './stack/tables';
import { DEFAULT_STAGE, stackNameFor } from './stack-outputs';
import { STAGE_PATTERN, decimalFraction, parseFraction, parseWhole } from '../lambdas/contract/settings';

interface BuildAppOptions {
  /** Context, as `-c key=value` gives it (the CLI's own context still wins when run by the CLI). */
  context?: Record<string, unknown>;
  /** Cloud assembly directory (tests use a temporary one). */
  outdir?: string;
  /** Bundle the Lambdas with esbuild (default true); tests that only read the template may skip it. */
  bundle?: boolean;
  /**
   * Register the policy-validation plugins (default true), as `cdk synth` runs them. They take about 4 s a synthesis
   * (1 s of it the cfn-guard binary) and change no template: tests that only read one skip them;
   * control-tower.test.ts, validation-live.test.ts and edge.test.ts run them.
   */
  validate?: boolean;
}

export interface BuiltApp {
  app: App;
  stack: SignalAnalysisStack;
  stage: string;
  /** Edge protection on with the API outside us-east-1: the stack of the web ACL. */
  edgeFirewall?: EdgeFirewallStack;
}

/** Context values from `-c` arrive as strings, from cdk.json as numbers: accept both, refuse anything else. */
function intContext(app: App, key: IntContextKey): number {
  const setting: { default: number; min: number; max?: number } = INT_CONTEXT[key];
  const { default: fallback, min, max = Number.MAX_SAFE_INTEGER } = setting;
  const raw: unknown = app.node.tryGetContext(key);
  // As the Lambdas read the setting (lambdas/contract/settings.ts): blank is unset, and a string holds digits only
  // (Number() took "0x1e" and "9e1", and read " " as 0).
  const text = typeof raw === 'string' ? raw.trim() : undefined;
  if (raw === undefined || raw === null || text === '') return fallback;
  const value = typeof raw === 'number' ? raw : text !== undefined ? (parseWhole(text) ?? NaN) : NaN;
  if (!Number.isInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max}`;
    throw new Error(`context ${key} must be an integer ${range}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

/** A share from 0 to 1, as a string from `-c` or a number from cdk.json; anything else stops the synth. */
function fractionContext(app: App, key: FractionContextKey): number {
  const raw: unknown = app.node.tryGetContext(key);
  if (raw === undefined || raw === null || raw === '') return FRACTION_CONTEXT[key];
  const value = parseFraction(
    typeof raw === 'number' ? decimalFraction(raw) : typeof raw === 'string' ? raw.trim() : '',
  );
  if (value === undefined) throw new Error(`context ${key} must be a number from 0 to 1, got ${JSON.stringify(raw)}`);
  return value;
}

/**
 * The origin secret's version to deploy (`-c edgeSecretVersionId=`, the VersionId `put-secret-value` prints): a
 * reference without one is never read again by CloudFormation, so a rotated value would reach no resource.
 */
function secretVersionContext(app: App): string | undefined {
  const raw: unknown = app.node.tryGetContext('edgeSecretVersionId');
  if (raw === undefined || raw === null || raw === '') return undefined;
  const value = typeof raw === 'string' ? raw.trim() : '';
  if (!/^[A-Za-z0-9-]{32,64}$/.test(value)) {
    throw new Error(
      `context edgeSecretVersionId must be a secret's VersionId (32 to 64 of A-Z a-z 0-9 -), got ${JSON.stringify(raw)}`,
    );
  }
  return value;
}

/** A KMS key ARN (a log group takes a key ARN, not an alias or a bare key id); absent or empty means none. */
function kmsKeyArnContext(app: App, key: string): string | undefined {
  const raw: unknown = app.node.tryGetContext(key);
  if (raw === undefined || raw === null || raw === '') return undefined;
  const value = typeof raw === 'string' ? raw.trim() : '';
  if (!/^arn:aws[a-z-]*:kms:[a-z0-9-]+:\d{12}:key\/[A-Za-z0-9-]+$/.test(value)) {
    throw new Error(
      `context ${key} must be a KMS key ARN (arn:aws:kms:<region>:<account>:key/<id>), got ${JSON.stringify(raw)}`,
    );
  }
  return value;
}

const VALID_RETENTION = new Set<number>(Object.values(RetentionDays).filter((v): v is number => typeof v === 'number'));

export function buildApp(options: BuildAppOptions = {}): BuiltApp {
  const context: Record<string, unknown> = { ...options.context };
  // The CLI's own switch for "bundle no stack" (it uses it for `--exclusively`); the template is otherwise the same.
  if (options.bundle === false) context['aws:cdk:bundling-stacks'] = [];
  const app = new App({ context, outdir: options.outdir });

  for (const key of Object.keys(app.node.getAllContext() as Record<string, unknown>)) {
    const meant = misspelledContextKey(key);
    if (meant) throw new Error(`context ${key} is not a setting of this app: did you mean ${meant}?`);
  }
  const stage = String(app.node.tryGetContext('stage') ?? DEFAULT_STAGE);
  if (!STAGE_PATTERN.test(stage)) {
    throw new Error(
      `context stage must be a lower-case letter, then up to 19 lower-case letters, digits or dashes (got ${JSON.stringify(stage)})`,
    );
  }
  const logRetentionDays = intContext(app, 'logRetentionDays');
  if (!VALID_RETENTION.has(logRetentionDays)) {
    throw new Error(`context logRetentionDays must be one of CloudWatch's values: ${[...VALID_RETENTION].join(', ')}`);
  }

  // Edge protection needs to know the region, to put the web ACL in us-east-1 (in a second stack when the API is
  // elsewhere, whose ARN CDK hands over across regions). The region is `-c region=`, else the CLI's; offline with
  // neither, the app is synthesized for us-east-1 (one stack), so that `cdk synth` still works without credentials.
  const edgeProtection = booleanContext(app, 'edgeProtection');
  const originOnExecuteApi = booleanContext(app, 'edgeOriginOnExecuteApi');
  if (originOnExecuteApi && !edgeProtection) {
    throw new Error(
      'context edgeOriginOnExecuteApi is for the first deploy that moves an edge-protected stack to its own origin: ' +
        'give it with -c edgeProtection=true (docs/deploy.md, "Edge protection"), or leave it out',
    );
  }
  let edge: SignalAnalysisStackProps['edge'];
  let env: SignalAnalysisStackProps['env'];
  let edgeFirewall: EdgeFirewallStack | undefined;
  if (edgeProtection) {
    const region = String(app.node.tryGetContext('region') ?? process.env.CDK_DEFAULT_REGION ?? EDGE_FIREWALL_REGION);
    if (!/^[a-z]{2}(-[a-z]+)+-\d+$/.test(region)) {
      throw new Error(`context region must be an AWS region such as eu-west-1, got ${JSON.stringify(region)}`);
    }
    env = { account: process.env.CDK_DEFAULT_ACCOUNT, region };
    edge = { ipRateLimit: intContext(app, 'edgeIpRateLimit'), secretVersionId: secretVersionContext(app) };
    if (originOnExecuteApi) edge.originOnExecuteApi = true;
    if (region !== EDGE_FIREWALL_REGION) {
      edgeFirewall = new EdgeFirewallStack(app, `${stackNameFor(stage)}-edge-firewall`, {
        description: `Signal Analysis Service (${stage}): the WAF web ACL in front of its CloudFront distribution`,
        env: { account: env.account, region: EDGE_FIREWALL_REGION },
        crossRegionReferences: true,
        ipRateLimit: edge.ipRateLimit,
      });
      edge.webAclArn = edgeFirewall.webAclArn;
    }
  }

  // Without edge protection, no env: the stack is environment-agnostic, so `cdk synth` needs no credentials;
  // deploy uses the CLI's.
  const stack = new SignalAnalysisStack(app, stackNameFor(stage), {
    env,
    edge,
    crossRegionReferences: edgeFirewall ? true : undefined,
    description: `Signal Analysis Service (${stage})`,
    stage,
    throttlingRateLimit: intContext(app, 'throttlingRateLimit'),
    throttlingBurstLimit: intContext(app, 'throttlingBurstLimit'),
    decisionRetentionDays: intContext(app, 'decisionRetentionDays'),
    authCacheTtlSeconds: intContext(app, 'authCacheTtlSeconds'),
    workspaceCacheTtlSeconds: intContext(app, 'workspaceCacheTtlSeconds'),
    tracing: booleanContext(app, 'tracing', BOOLEAN_CONTEXT.tracing),
    traceSampleRate: fractionContext(app, 'traceSampleRate'),
    logRetention: logRetentionDays,
    logsKmsKeyArn: kmsKeyArnContext(app, 'logsKmsKeyArn'),
  });

  // Both are policy-validation plugins: synth fails with their report while a finding is not acknowledged
  // (`Validations.of(construct).acknowledge`). The CfnGuard plugin runs the cfn-guard binary its npm package ships,
  // on the synthesized templates, with the Control Tower rules it bundles that apply to them (control-tower-checks.ts).
  if (options.validate !== false) Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new ControlTowerChecks());
  if (edgeFirewall) {
    Annotations.of(stack).acknowledgeWarning(
      '@aws-cdk/core:crossStackReferencesDefaultStrong',
      'Strong is wanted: the web ACL cannot be deleted while the distribution of the API stack still uses it.',
    );
  }
  return { app, stack, stage, edgeFirewall };
}
