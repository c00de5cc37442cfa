// AWS Control Tower's proactive controls as a CDK policy-validation plugin: the CfnGuard rules that
// @cdklabs/cdk-validator-cfnguard bundles, run by the cfn-guard binary it ships, on the synthesized templates.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { IPolicyValidationContext, IPolicyValidationPlugin, PolicyValidationPluginReport } from 'aws-cdk-lib';
import { CfnGuardValidator } from '@cdklabs/cdk-validator-cfnguard';

/** The Control Tower rule files the plugin bundles (the folder its controlTowerRulesEnabled option reads). */
const CONTROL_TOWER_RULES_DIR = path.join(
  path.dirname(require.resolve('@cdklabs/cdk-validator-cfnguard/package.json')),
  'rules/control-tower/cfn-guard',
);

const RESOURCE_TYPE = /AWS::[A-Za-z0-9]+::[A-Za-z0-9]+/g;

interface ControlTowerRule {
  file: string;
  /** The resource types its code (comments aside) names: it selects resources of these types only. */
  types: string[];
}

let bundledRules: ControlTowerRule[] | undefined;
/** Every bundled rule file, with the resource types its code names. */
export function controlTowerRules(): ControlTowerRule[] {
  bundledRules ??= fs
    .readdirSync(CONTROL_TOWER_RULES_DIR, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.guard'))
    .sort()
    .map((name) => {
      const file = path.join(CONTROL_TOWER_RULES_DIR, name);
      const code = fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => !/^\s*#/.test(line))
        .join('\n');
      return { file, types: [...new Set(code.match(RESOURCE_TYPE) ?? [])] };
    });
  return bundledRules;
}

/**
 * The rules that can judge templates holding `types`: those whose code names one of them, and any that names none.
 * A rule selects resources by type and skips a template without them, so the others cannot report anything, and
 * cfn-guard spends about 40 ms on each (10 s a synthesis for all 237, 1 s for the ~30 that apply here).
 */
export function applicableRules(types: ReadonlySet<string>): string[] {
  return controlTowerRules()
    .filter((rule) => rule.types.length === 0 || rule.types.some((t) => types.has(t)))
    .map((rule) => rule.file);
}

/** The resource types in CloudFormation templates on disk. */
export function templateResourceTypes(templatePaths: readonly string[]): Set<string> {
  const types = new Set<string>();
  for (const file of templatePaths) {
    const template = JSON.parse(fs.readFileSync(file, 'utf8')) as { Resources?: Record<string, { Type?: unknown }> };
    for (const resource of Object.values(template.Resources ?? {}))
      if (typeof resource.Type === 'string') types.add(resource.Type);
  }
  return types;
}

/**
 * The CfnGuard plugin with its Control Tower rules, every violation marked an error. The plugin reports violations
 * without a severity, and once any violation of a plugin is acknowledged CDK recomputes that plugin's verdict from
 * severities alone: without this, the acknowledged VPC finding would let every other Control Tower violation pass.
 */
export class ControlTowerChecks implements IPolicyValidationPlugin {
  private readonly guard = new CfnGuardValidator({ controlTowerRulesEnabled: true });
  /** `cdk-validator-cfnguard`: the prefix of acknowledgment ids (`cdk-validator-cfnguard::<rule name>`). */
  readonly name = this.guard.name;
  readonly version = this.guard.version;
  readonly ruleIds = this.guard.ruleIds;

  validate(context: IPolicyValidationContext): PolicyValidationPluginReport {
    const rules = applicableRules(templateResourceTypes(context.templatePaths));
    const report = new CfnGuardValidator({ controlTowerRulesEnabled: false, rules }).validate(context);
    return { ...report, violations: report.violations.map((v) => ({ ...v, severity: v.severity ?? 'error' })) };
  }
}
