// The first step of an upgrade from version 3 (`cdk deploy -c keepRetiredIndexes=true`, docs/deploy.md) runs while
// the service serves, and CloudFormation updates each role before its function's code: for a while version 3 code
// runs under the new role. This checks every DynamoDB call version 3 makes (fixtures/version-3-dynamodb-calls.json,
// recorded by version 3's own iam-in-use test at 1e9d79a) against the roles of that step's template, as IAM would
// (action, table or index, dynamodb:LeadingKeys), and that a template without the flag holds none of version 3's
// retired grants (lib/stack/access.ts, VERSION_3_RETIRED_ACCESS).
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnResource } from 'aws-cdk-lib';
import { buildApp } from '../../lib/app';
import { type TableName, VERSION_3_RETIRED_ACCESS } from '../../lib/stack/access';
import { ITEM_PREFIX } from '../../lambdas/contract/tables';
import { temporaryOutdirs } from '../support/cdk';
import recordedVersion3 from './fixtures/version-3-dynamodb-calls.json';

interface Call {
  fn: string;
  table: TableName;
  action: string;
  keys: string[];
  index?: string;
}

type Json = any;
interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: Json;
  Condition?: Json;
}

const version3Calls = recordedVersion3.calls as Call[];
const outdir = temporaryOutdirs('iam-upgrade');

interface Roles {
  /** Whether the role of function `fn` allows the call, by its inline policies as IAM reads them. */
  allows(call: Call): boolean;
}

function rolesOf(context: Record<string, unknown>): Roles {
  const { stack } = buildApp({ context, outdir: outdir(), bundle: false, validate: false });
  const resources = (Template.fromStack(stack).toJSON() as { Resources: Record<string, Json> }).Resources;
  const idOf = (construct: { node: { defaultChild?: unknown } }) =>
    stack.getLogicalId(construct.node.defaultChild as CfnResource);
  const tableIds: Record<TableName, string> = {
    access: idOf(stack.accessTable),
    decisions: idOf(stack.decisionsTable),
    learning: idOf(stack.learningTable),
  };
  const statementsOf = (fn: string): Statement[] => {
    const roleId = resources[idOf(stack.functions[fn])].Properties.Role['Fn::GetAtt'][0];
    return (resources[roleId].Properties.Policies ?? []).flatMap((p: Json) => p.PolicyDocument.Statement);
  };
  /** A resource as `<table logical id>` or `<table logical id>/index/<name>`. */
  const resourceOf = (r: Json): string =>
    r['Fn::GetAtt']
      ? r['Fn::GetAtt'][0]
      : (r['Fn::Join'][1] as Json[]).map((p) => (typeof p === 'string' ? p : p['Fn::GetAtt'][0])).join('');
  const like = (pattern: string, value: string) =>
    new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test(value);
  return {
    allows: (call) => {
      const want = tableIds[call.table] + (call.index ? `/index/${call.index}` : '');
      return statementsOf(call.fn).some((s) => {
        if (s.Effect !== 'Allow' || ![s.Action].flat().includes(`dynamodb:${call.action}`)) return false;
        if (![s.Resource].flat().map(resourceOf).includes(want)) return false;
        const condition = Object.keys(s.Condition ?? {});
        if (condition.some((c) => c !== 'ForAllValues:StringLike')) return false;
        const patterns: string[] | undefined = s.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'];
        return !patterns || call.keys.every((k) => patterns.some((p) => like(p, k)));
      });
    },
  };
}

/** Each retired grant as a one-key call on an item of its kind. */
const retiredCalls: Call[] = Object.entries(VERSION_3_RETIRED_ACCESS).flatMap(([fn, actions]) =>
  Object.entries(actions).flatMap(([action, items]) =>
    items.map((item) => ({ fn, table: 'decisions' as const, action, keys: [`${ITEM_PREFIX[item]}ws_upgrade`] })),
  ),
);

let upgrading: Roles;
let plain: Roles;
beforeAll(() => {
  upgrading = rolesOf({ stage: 'prod', keepRetiredIndexes: 'true' });
  plain = rolesOf({ stage: 'prod' });
});

const signature = (c: Call) =>
  `${c.fn} ${c.action} ${c.table}${c.index ? `/${c.index}` : ''} [${[...new Set(c.keys.map((k) => k.replace(/#.*/, '#')))].join()}]`;

it("allows every DynamoDB call of version 3 under the first step's roles (keepRetiredIndexes=true)", () => {
  // Every function and the kinds that moved: a recording that lost them would check nothing.
  expect(new Set(version3Calls.map((c) => c.fn)).size).toBe(10);
  for (const prefix of ['wsmodel#', 'wshead#', 'wsjournal#', 'wslabel#'])
    expect(version3Calls.some((c) => c.keys.some((k) => k.startsWith(prefix)))).toBe(true);
  expect(version3Calls.filter((c) => !upgrading.allows(c)).map(signature)).toEqual([]);
});

it('gives the roles without the flag (the last step, and every new stack) none of the retired grants', () => {
  expect(retiredCalls.length).toBeGreaterThan(0);
  expect(retiredCalls.filter((c) => plain.allows(c)).map(signature)).toEqual([]);
  expect(retiredCalls.filter((c) => !upgrading.allows(c)).map(signature)).toEqual([]);
});
