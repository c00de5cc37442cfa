// cdk-nag's AwsSolutions checks over the app exactly as `cdk synth` builds it: no finding may be left
// unacknowledged, and every acknowledgment must say why.
import { Validations } from 'aws-cdk-lib';
import type { Policy } from 'aws-cdk-lib/aws-iam';
import { AwsSolutionsChecks } from 'cdk-nag';
import { XRAY_WILDCARD_FINDING } from '../../lib/stack/functions';
import { buildApp, type BuiltApp } from '../../lib/app';
import { temporaryOutdirs } from '../support/cdk';

const tempDir = temporaryOutdirs('nag');

/** Findings as `rule at construct path`, readable in a failed expectation. */
function findings(built: BuiltApp): string[] {
  const report = new AwsSolutionsChecks().validateScope(built.app);
  return report.violations.flatMap((v) => v.violatingResources.map((r) => `${v.ruleName} at ${r.constructPath}`));
}

function acknowledgments(built: BuiltApp): { path: string; id: string; reason: unknown }[] {
  const out: { path: string; id: string; reason: unknown }[] = [];
  for (const construct of built.app.node.findAll()) {
    for (const entry of construct.node.metadata) {
      if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY) continue;
      for (const [id, reason] of Object.entries(entry.data as Record<string, unknown>)) {
        out.push({ path: construct.node.path, id: id.replace(/^annotation::/i, ''), reason });
      }
    }
  }
  return out;
}

// Without bundling (about 15 s a synthesis): cdk-nag reads the constructs, not the code, and bundling changes only the
// assets' hashes (stack.test.ts and lambda-bundles.test.ts bundle).
describe.each(['dev', 'prod'])('cdk-nag AwsSolutions on the %s stage', (stage) => {
  let built: BuiltApp;
  beforeAll(() => {
    built = buildApp({ context: { stage }, outdir: tempDir(), bundle: false });
  });

  it('has no unacknowledged finding', () => {
    // The same checks as the plugin buildApp registers, which fails synthesis on any finding. That synthesis, with
    // both plugins as `cdk synth` runs them, is control-tower.test.ts's on the same stages (about 4 s each, not
    // spent twice); validation-live.test.ts shows a finding fails it.
    expect(findings(built)).toEqual([]);
  });

  it("acknowledges of AwsSolutions only X-Ray's Resource *, and every acknowledgment (any plugin) states its reason", () => {
    const acks = acknowledgments(built);
    for (const ack of acks) {
      expect(typeof ack.reason).toBe('string');
      expect((ack.reason as string).trim().length).toBeGreaterThanOrEqual(40);
    }
    // The Control Tower (CfnGuard) acknowledgments are checked in control-tower.test.ts. Of AwsSolutions, only the
    // X-Ray policy's Resource * (no resource-level permissions exist for it), on each function's tracing policy.
    const nag = acks.filter((a) => /AwsSolutions/i.test(a.id));
    expect(nag.filter((a) => a.id !== XRAY_WILDCARD_FINDING || !a.path.endsWith('TracingPolicy'))).toEqual([]);
    expect(nag).toHaveLength(Object.keys(built.stack.functions).length);
    for (const ack of nag) {
      const policy = built.app.node.findAll().find((c) => c.node.path === ack.path) as Policy;
      const statements = policy.document.toJSON().Statement as { Action: string[]; Resource: string }[];
      expect(statements).toEqual([expect.objectContaining({ Action: 'xray:PutTraceSegments', Resource: '*' })]);
    }
  });
});
