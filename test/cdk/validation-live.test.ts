// The policy-validation plugins lib/app.ts registers (cdk-nag's AwsSolutions and Control Tower's CfnGuard rules) are
// live: a stack with findings fails `cdk synth`, and the failure names each finding. One synthesis with both plugins
// serves every check here: the app with two findings no stage has, a route without authorization and log groups that
// keep less than a year. nag.test.ts and control-tower.test.ts check that the real stages synthesize with none.
// The plugin runs only the rules that can judge the template (lib/control-tower-checks.ts); here all 237 run once on
// the same template (about 10 s) and must find exactly what the selected ones found.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PolicyValidationPluginReport } from 'aws-cdk-lib';
import { CfnGuardValidator } from '@cdklabs/cdk-validator-cfnguard';
import { HttpMethod, HttpRoute, HttpRouteKey } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { AwsSolutionsChecks } from 'cdk-nag';
import { buildApp, type BuiltApp } from '../../lib/app';
import { applicableRules, controlTowerRules, templateResourceTypes } from '../../lib/control-tower-checks';
import { temporaryOutdirs } from '../support/cdk';

const tempDir = temporaryOutdirs('live');

/** Synthesis must fail: returns the error's text (the in-memory report), keeping the console quiet. */
function synthFailure(built: BuiltApp): string {
  // Depending on the terminal the report goes to stderr or into the error's message.
  const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
  try {
    built.app.synth();
  } catch (err) {
    return String(err);
  } finally {
    error.mockRestore();
    log.mockRestore();
  }
  throw new Error('synthesis passed');
}

let built: BuiltApp;
let outdir: string;
let failure: string;
beforeAll(() => {
  // Without bundling: both plugins read the constructs and the template, not the code.
  outdir = tempDir();
  built = buildApp({ context: { stage: 'dev', logRetentionDays: 30 }, outdir, bundle: false });
  new HttpRoute(built.stack, 'UnguardedRoute', {
    httpApi: built.stack.api,
    routeKey: HttpRouteKey.with('/api/v1/unguarded', HttpMethod.GET),
    integration: new HttpLambdaIntegration('UnguardedIntegration', built.stack.functions.Fallback),
  });
  failure = synthFailure(built);
});

it('cdk-nag reports the route without authorization, and only it', () => {
  const report = new AwsSolutionsChecks().validateScope(built.app);
  const findings = report.violations.flatMap((v) =>
    v.violatingResources.map((r) => `${v.ruleName} at ${r.constructPath}`),
  );
  expect(findings).toEqual([`AwsSolutions-APIG4 at ${built.stack.stackName}/UnguardedRoute/Resource`]);
  expect(failure).toContain('AwsSolutions-APIG4');
});

it('the Control Tower rules fail synthesis on the route without authorization, whose Lambda has a resource-based permission', () => {
  expect(failure).toContain('api_gw_v2_authorization_type_configured_check');
  expect(failure).toContain('lambda_function_public_access_prohibited_check');
});

it('the Control Tower rules fail synthesis on log groups that keep less than a year, and on nothing acknowledged', () => {
  // With the VPC acknowledgment in place, a Lambda's rule in the report would mean lib/app.ts stopped honouring it.
  expect(failure).toContain('cloudwatch_log_group_retention_period_check');
  expect(failure).not.toContain('cloudwatch_log_group_encrypted_check');
  expect(failure).not.toContain('lambda_inside_vpc_check');
});

it('the Control Tower rules left out on this template find nothing the selected ones do not', () => {
  // The template is written before the plugins judge it, so it is there after the failed synthesis.
  const templatePaths = [path.join(outdir, `${built.stack.stackName}.template.json`)];
  const context = { templatePaths, appConstruct: built.app };
  const findings = (report: PolicyValidationPluginReport) =>
    report.violations
      .flatMap((v) =>
        v.violatingResources.map((r) => `${v.ruleName} at ${r.resourceLogicalId} ${r.locations.join(',')}`),
      )
      .sort();
  const selected = applicableRules(templateResourceTypes(templatePaths));
  expect(selected.length).toBeLessThan(controlTowerRules().length / 2);
  const all = findings(new CfnGuardValidator({ controlTowerRulesEnabled: true }).validate(context));
  expect(all.length).toBeGreaterThanOrEqual(3);
  expect(
    findings(new CfnGuardValidator({ controlTowerRulesEnabled: false, rules: selected }).validate(context)),
  ).toEqual(all);
  expect(fs.existsSync(templatePaths[0])).toBe(true);
});
