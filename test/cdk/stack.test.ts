// The synthesized template, as `cdk synth` makes it (lib/app.ts): routes, authorizer, tables, least privilege,
// stage settings, log groups and their key, alarms and outputs. One synthesis per stage for the whole file (a synth
// takes about a second without bundling, more on a loaded machine), which is why this file stays one file past 500
// lines.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnResource } from 'aws-cdk-lib';
import { buildApp } from '../../lib/app';
import { ROUTES } from '../../lambdas/contract/routes';
import {
  ACCESS_TABLE,
  DECISIONS_TABLE,
  LEARNING_TABLE,
  TABLES,
  type TableDefinition,
} from '../../lambdas/contract/tables';
import { parseSettings } from '../../lambdas/contract/settings';
import { OUTPUT_KEYS } from '../../lib/stack-outputs';
import { ALARM_TOPIC_OUTPUT_KEY, LAMBDA_RUNTIME, type SignalAnalysisStack, isDisposableStage } from '../../lib/stack';
import { BOOLEAN_CONTEXT, CONTEXT_DEFAULTS } from '../../lib/stack-context';
import { AUTHORIZER_ACCESS, type TableGrant, routeAccess } from '../../lib/stack/access';
import { LAMBDA_MEMORY_MB, LAMBDA_NODE_OPTIONS } from '../../lib/lambda-bundling';

type Json = any;
type Resources = Record<
  string,
  { Type: string; Properties: Json; DeletionPolicy?: string; UpdateReplacePolicy?: string }
>;

/** The stack's defaults (lib/stack-context.ts): what a synth without `-c` gets. */
const defaults = CONTEXT_DEFAULTS as Json;

interface Synth {
  stack: SignalAnalysisStack;
  template: Template;
  json: { Resources: Resources; Outputs: Record<string, Json> };
  outdir: string;
}

/** Every synthesis's folder, removed after the file whatever its tests did. */
const outdirs: string[] = [];
function synth(context: Record<string, unknown>): Synth {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'sas-cdk-stack-'));
  outdirs.push(outdir);
  try {
    // The policy-validation plugins (nag.test.ts, control-tower.test.ts) change no template.
    const { stack } = buildApp({ context, outdir, bundle: false, validate: false });
    const template = Template.fromStack(stack);
    return { stack, template, json: template.toJSON() as Synth['json'], outdir };
  } catch (err) {
    fs.rmSync(outdir, { recursive: true, force: true });
    throw err;
  }
}

const logicalId = (stack: SignalAnalysisStack, construct: { node: { defaultChild?: unknown } }) =>
  stack.getLogicalId(construct.node.defaultChild as CfnResource);

let dev: Synth;
let prod: Synth;
/** A kept stage not named prod (until the thirty-third pass only prod kept its data). */
let staging: Synth;

beforeAll(() => {
  // Without bundling the Lambdas (about 13 s of esbuild here): the template differs only in the assets' hashes, which
  // test/e2e/lambda-bundles.test.ts checks on the bundled synth it serves. Prod with `-c` style string overrides.
  dev = synth({ stage: 'dev' });
  prod = synth({ stage: 'prod', throttlingRateLimit: '7', throttlingBurstLimit: '9', authCacheTtlSeconds: '0' });
  staging = synth({ stage: 'staging' });
});

afterAll(() => {
  for (const outdir of outdirs) fs.rmSync(outdir, { recursive: true, force: true });
});

const ofType = (s: Synth, type: string) => Object.entries(s.json.Resources).filter(([, r]) => r.Type === type);

describe('HTTP API routes and authorizer', () => {
  it('has exactly the routes of ROUTES plus $default', () => {
    const keys = ofType(dev, 'AWS::ApiGatewayV2::Route')
      .map(([, r]) => r.Properties.RouteKey)
      .sort();
    expect(keys).toEqual([...ROUTES.map((r) => `${r.method} ${r.path}`), '$default'].sort());
  });

  it('has one REQUEST authorizer: simple responses, no identity source, no cache, payload 2.0', () => {
    const authorizers = ofType(dev, 'AWS::ApiGatewayV2::Authorizer');
    expect(authorizers).toHaveLength(1);
    const [, authorizer] = authorizers[0];
    expect(authorizer.Properties).toMatchObject({
      AuthorizerType: 'REQUEST',
      EnableSimpleResponses: true,
      IdentitySource: [],
      AuthorizerResultTtlInSeconds: 0,
      AuthorizerPayloadFormatVersion: '2.0',
    });
    const uri = JSON.stringify(authorizer.Properties.AuthorizerUri);
    expect(uri).toContain(logicalId(dev.stack, dev.stack.functions.Authorizer));
  });

  it('puts the authorizer on every route, $default included (it never denies, so 404/405 need no key)', () => {
    const [[authorizerId]] = ofType(dev, 'AWS::ApiGatewayV2::Authorizer');
    const routes = ofType(dev, 'AWS::ApiGatewayV2::Route');
    expect(routes).toHaveLength(ROUTES.length + 1);
    for (const [, route] of routes) {
      expect(route.Properties.AuthorizationType).toBe('CUSTOM');
      expect(route.Properties.AuthorizerId).toEqual({ Ref: authorizerId });
    }
  });

  it('invokes the authorizer and every Lambda through one role, with no resource-based permission', () => {
    const roleArn = { 'Fn::GetAtt': [logicalId(dev.stack, dev.stack.apiInvokeRole), 'Arn'] };
    const [[, authorizer]] = ofType(dev, 'AWS::ApiGatewayV2::Authorizer');
    expect(authorizer.Properties.AuthorizerCredentialsArn).toEqual(roleArn);
    for (const [, integration] of ofType(dev, 'AWS::ApiGatewayV2::Integration')) {
      expect(integration.Properties.CredentialsArn).toEqual(roleArn);
    }
    expect(ofType(dev, 'AWS::Lambda::Permission')).toEqual([]);

    const role = dev.json.Resources[logicalId(dev.stack, dev.stack.apiInvokeRole)].Properties;
    expect(role.AssumeRolePolicyDocument.Statement).toEqual([
      { Action: 'sts:AssumeRole', Effect: 'Allow', Principal: { Service: 'apigateway.amazonaws.com' } },
    ]);
    expect(role.ManagedPolicyArns).toBeUndefined();
    const statements = role.Policies.flatMap((p: Json) => p.PolicyDocument.Statement);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatchObject({ Effect: 'Allow', Action: 'lambda:InvokeFunction' });
    // Exactly the stack's functions, unqualified (API Gateway invokes $LATEST through the integration URI).
    expect(
      [...statements[0].Resource].sort((a: Json, b: Json) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    ).toEqual(
      Object.values(dev.stack.functions)
        .map((fn) => ({ 'Fn::GetAtt': [logicalId(dev.stack, fn), 'Arn'] }))
        .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    );
  });

  it('integrates each route with its own Lambda, payload format 2.0', () => {
    const integrations = Object.fromEntries(ofType(dev, 'AWS::ApiGatewayV2::Integration'));
    const expected = [
      ...ROUTES.map((r) => [`${r.method} ${r.path}`, r.id] as const),
      ['$default', 'Fallback'] as const,
    ];
    for (const [routeKey, functionName] of expected) {
      const [, route] = ofType(dev, 'AWS::ApiGatewayV2::Route').find(([, r]) => r.Properties.RouteKey === routeKey)!;
      const target = JSON.stringify(route.Properties.Target);
      const integrationId = Object.keys(integrations).find((id) => target.includes(`"${id}"`))!;
      const integration = integrations[integrationId];
      expect(integration.Properties).toMatchObject({ IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
      expect(integration.Properties.IntegrationUri).toEqual({
        'Fn::GetAtt': [logicalId(dev.stack, dev.stack.functions[functionName]), 'Arn'],
      });
    }
  });
});

describe('DynamoDB tables', () => {
  const tableOf = (s: Synth, def: TableDefinition) => {
    const table =
      def === ACCESS_TABLE
        ? s.stack.accessTable
        : def === LEARNING_TABLE
          ? s.stack.learningTable
          : s.stack.decisionsTable;
    return s.json.Resources[logicalId(s.stack, table)];
  };

  it('are built from lib/tables.ts: key, GSIs with their projections, TTL', () => {
    expect(ofType(dev, 'AWS::DynamoDB::GlobalTable')).toHaveLength(TABLES.length);
    for (const def of TABLES) {
      const props = tableOf(dev, def).Properties;
      expect(props.KeySchema).toEqual([
        { AttributeName: def.partitionKey, KeyType: 'HASH' },
        ...(def.sortKey ? [{ AttributeName: def.sortKey, KeyType: 'RANGE' }] : []),
      ]);
      expect(props.GlobalSecondaryIndexes ?? []).toEqual(
        def.indexes.map((index) => ({
          IndexName: index.indexName,
          KeySchema: [
            { AttributeName: index.partitionKey, KeyType: 'HASH' },
            ...(index.sortKey ? [{ AttributeName: index.sortKey, KeyType: 'RANGE' }] : []),
          ],
          Projection: index.projected
            ? { ProjectionType: 'INCLUDE', NonKeyAttributes: [...index.projected] }
            : { ProjectionType: 'ALL' },
        })),
      );
      if (def.ttlAttribute) {
        expect(props.TimeToLiveSpecification).toEqual({ AttributeName: def.ttlAttribute, Enabled: true });
      } else {
        expect(props.TimeToLiveSpecification).toBeUndefined();
      }
    }
    expect(tableOf(dev, DECISIONS_TABLE).Properties.TimeToLiveSpecification.AttributeName).toBe('expires_at');
  });

  it('keep the retired listing index only for the first step of an upgrade (-c keepRetiredIndexes=true)', () => {
    const indexesOf = (s: Synth) =>
      (
        tableOf(s, DECISIONS_TABLE).Properties.GlobalSecondaryIndexes as { IndexName: string; Projection: unknown }[]
      ).map((index) => [index.IndexName, index.Projection]);
    const upgrading = synth({ stage: 'dev', keepRetiredIndexes: 'true' });
    // One index more than the plain template: CloudFormation creates or deletes one index per update.
    expect(indexesOf(upgrading)).toEqual([
      ...indexesOf(dev),
      ['decision_list', { ProjectionType: 'INCLUDE', NonKeyAttributes: ['decision', 'expires_at'] }],
    ]);
    expect(() => synth({ stage: 'dev', keepRetiredIndexes: 'yes' })).toThrow(/keepRetiredIndexes/);
  });

  it('are on demand, with point-in-time recovery and KMS encryption (AWS managed key)', () => {
    for (const def of TABLES) {
      const props = tableOf(dev, def).Properties;
      expect(props.BillingMode).toBe('PAY_PER_REQUEST');
      expect(props.SSESpecification).toEqual({ SSEEnabled: true, SSEType: 'KMS' });
      expect(props.SSESpecification.KMSMasterKeyId).toBeUndefined();
      expect(props.Replicas).toHaveLength(1);
      expect(props.Replicas[0].PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    }
  });

  it('are retained and deletion-protected in every stage but dev and dev-*, whatever its name', () => {
    for (const def of TABLES) {
      for (const kept of [prod, staging]) {
        const p = tableOf(kept, def);
        expect(p.DeletionPolicy).toBe('Retain');
        expect(p.UpdateReplacePolicy).toBe('Retain');
        expect(p.Properties.Replicas[0].DeletionProtectionEnabled).toBe(true);
      }
      const d = tableOf(dev, def);
      expect(d.DeletionPolicy).toBe('Delete');
      expect(d.Properties.Replicas[0].DeletionProtectionEnabled).toBe(false);
    }
    expect(['dev', 'dev-alice'].map(isDisposableStage)).toEqual([true, true]);
    expect(['prod', 'production', 'staging', 'devops', 'qa-dev'].map(isDisposableStage)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('keep the logical ids of the deployed tables and logs key: a new id would replace them, and their data', () => {
    // The ids the stacks deployed since version 1 carry (lib/stack/tables.ts says why they are the stack's own).
    const ids = {
      AccessTable13A21DD9: 'AWS::DynamoDB::GlobalTable',
      DecisionsTable2B2636B5: 'AWS::DynamoDB::GlobalTable',
      LearningTableEF207AA9: 'AWS::DynamoDB::GlobalTable',
      LogsKeyA6AB43B2: 'AWS::KMS::Key',
    };
    for (const s of [dev, prod]) {
      for (const [id, type] of Object.entries(ids)) expect(s.json.Resources[id]?.Type).toBe(type);
    }
    expect(
      [dev.stack.accessTable, dev.stack.decisionsTable, dev.stack.learningTable].map((t) => logicalId(dev.stack, t)),
    ).toEqual(Object.keys(ids).slice(0, 3));
  });
});

describe('Lambdas', () => {
  const names = ['Authorizer', 'Fallback', ...ROUTES.map((r) => r.id)];

  it('are one per route plus the authorizer and the fallback', () => {
    expect(Object.keys(dev.stack.functions).sort()).toEqual([...names].sort());
    expect(ofType(dev, 'AWS::Lambda::Function')).toHaveLength(names.length);
  });

  it("bounds every Lambda's V8 heap to fit its memory (NODE_OPTIONS), so a container cannot grow until it is killed", () => {
    for (const name of names) {
      const fn = dev.json.Resources[logicalId(dev.stack, dev.stack.functions[name])].Properties;
      const flags = String(fn.Environment.Variables.NODE_OPTIONS ?? '');
      const mbOf = (flag: string) => Number(new RegExp(`--${flag}=(\\d+)`).exec(flags)?.[1] ?? NaN);
      const oldSpace = mbOf('max-old-space-size');
      const semiSpace = mbOf('max-semi-space-size');
      // Old space plus the young generation (three semi-spaces), with a quarter of the memory left for code,
      // buffers and the runtime (docs/operations.md, "Memory").
      expect([name, oldSpace + 3 * semiSpace <= LAMBDA_MEMORY_MB * 0.75]).toEqual([name, true]);
      expect(fn.MemorySize).toBe(LAMBDA_MEMORY_MB);
    }
  });

  it('run the latest Node.js on arm64 with 512 MB, 10 s, JSON logs without platform lines, their own log group and the runtime settings', () => {
    for (const name of names) {
      const fn = dev.json.Resources[logicalId(dev.stack, dev.stack.functions[name])].Properties;
      expect(fn.Runtime).toBe(LAMBDA_RUNTIME.name);
      expect(Number(fn.Runtime.match(/^nodejs(\d+)/)[1])).toBeGreaterThanOrEqual(22);
      expect(fn.Architectures).toEqual(['arm64']);
      expect(fn.MemorySize).toBe(512);
      expect(fn.Timeout).toBe(10);
      // Lambda's own START/END/REPORT lines (INFO) would cost more log ingestion per request than ours. Ours stay at
      // INFO: EMF metric lines have no level (read as INFO), so a WARN filter would drop the ServerErrors metric.
      expect(fn.LoggingConfig).toEqual({
        LogFormat: 'JSON',
        SystemLogLevel: 'WARN',
        ApplicationLogLevel: 'INFO',
        LogGroup: expect.anything(),
      });
      expect(fn.Handler).toBe('index.handler');
      expect(fn.Environment.Variables).toEqual({
        ACCESS_TABLE_NAME: { Ref: logicalId(dev.stack, dev.stack.accessTable) },
        DECISIONS_TABLE_NAME: { Ref: logicalId(dev.stack, dev.stack.decisionsTable) },
        LEARNING_TABLE_NAME: { Ref: logicalId(dev.stack, dev.stack.learningTable) },
        AUTH_CACHE_TTL_SECONDS: String(defaults.authCacheTtlSeconds),
        DECISION_RETENTION_DAYS: String(defaults.decisionRetentionDays),
        WORKSPACE_CACHE_TTL_SECONDS: String(defaults.workspaceCacheTtlSeconds),
        POWERTOOLS_LOG_LEVEL: 'INFO',
        NODE_OPTIONS: LAMBDA_NODE_OPTIONS,
        TRACING_ENABLED: String(BOOLEAN_CONTEXT.tracing),
        TRACE_SAMPLE_RATE: String(defaults.traceSampleRate),
        SAS_STAGE: 'dev',
      });
      // Tracing on (context `tracing`), Lambda's own in PassThrough: it records nothing (API Gateway samples no
      // request), so only the handlers' own choice is traced, at TRACE_SAMPLE_RATE (lambdas/tracing.ts).
      expect(fn.TracingConfig).toEqual({ Mode: 'PassThrough' });
      // What the stack writes is what the Lambdas' settings parser reads back (table names stand in for the Refs).
      const written = {
        ...fn.Environment.Variables,
        ACCESS_TABLE_NAME: 'access',
        DECISIONS_TABLE_NAME: 'decisions',
        LEARNING_TABLE_NAME: 'learning',
      };
      expect(parseSettings(written)).toMatchObject({
        accessTableName: 'access',
        decisionsTableName: 'decisions',
        authCacheTtlSeconds: defaults.authCacheTtlSeconds,
        workspaceCacheTtlSeconds: defaults.workspaceCacheTtlSeconds,
        decisionRetentionDays: defaults.decisionRetentionDays,
        logLevel: 'INFO',
        metricsEnabled: true,
        tracingEnabled: true,
        traceSampleRate: 0.05,
      });
      const logGroupId = fn.LoggingConfig.LogGroup.Ref as string;
      expect(dev.json.Resources[logGroupId]).toMatchObject({
        Type: 'AWS::Logs::LogGroup',
        Properties: {
          RetentionInDays: defaults.logRetentionDays,
          KmsKeyId: { 'Fn::GetAtt': [logicalId(dev.stack, dev.stack.logsKey as Json), 'Arn'] },
        },
      });
    }
    const logGroups = names.map(
      (n) => dev.json.Resources[logicalId(dev.stack, dev.stack.functions[n])].Properties.LoggingConfig.LogGroup.Ref,
    );
    expect(new Set(logGroups).size).toBe(names.length);
  });

  it('take context overrides given as -c strings', () => {
    const fn = prod.json.Resources[logicalId(prod.stack, prod.stack.functions.Authorizer)].Properties;
    expect(fn.Environment.Variables.AUTH_CACHE_TTL_SECONDS).toBe('0');
  });

  // A value the Lambdas' settings parser refuses would synthesize and deploy, and then every Lambda would throw
  // SettingsError at start: the authorizer included, so every request an API Gateway 500. The synth must refuse it.
  it('refuse a context value the Lambdas would refuse at start, and take the largest they accept', () => {
    const largest = { decisionRetentionDays: '3650', authCacheTtlSeconds: '86400', workspaceCacheTtlSeconds: '86400' };
    for (const [key, value] of Object.entries(largest)) {
      expect(() => synth({ stage: 'dev', [key]: String(Number(value) + 1) })).toThrow(
        new RegExp(`context ${key} must be an integer from`),
      );
    }
    // Digits only, as the Lambdas read them: Number() alone took hex and exponents.
    for (const value of ['0x1e', '9e1', '1.5', '-1', 'ten']) {
      expect(() => synth({ stage: 'dev', workspaceCacheTtlSeconds: value })).toThrow(
        /context workspaceCacheTtlSeconds must be an integer from/,
      );
    }
    const top = synth({ stage: 'dev', ...largest });
    try {
      const env =
        top.json.Resources[logicalId(top.stack, top.stack.functions.Analyze)].Properties.Environment.Variables;
      expect(
        parseSettings({ ...env, ACCESS_TABLE_NAME: 'acc', DECISIONS_TABLE_NAME: 'dec', LEARNING_TABLE_NAME: 'lrn' }),
      ).toMatchObject({ decisionRetentionDays: 3650, authCacheTtlSeconds: 86_400, workspaceCacheTtlSeconds: 86_400 });
    } finally {
      fs.rmSync(top.outdir, { recursive: true, force: true });
    }
  });

  // Read by nothing, a slip of the key deployed the default without a word: 90 days of decisions, not 30.
  it('refuse a context key one slip away from a setting, naming the setting, and leave other keys alone', () => {
    for (const [key, meant] of [
      ['decisionRetentionDay', 'decisionRetentionDays'],
      ['authCacheTTLSeconds', 'authCacheTtlSeconds'],
      ['edgeprotection', 'edgeProtection'],
      ['traceSampelRate', 'traceSampleRate'],
      ['stgae', 'stage'],
      ['regoin', 'region'],
    ])
      expect(() => synth({ stage: 'dev', [key]: '30' })).toThrow(
        `context ${key} is not a setting of this app: did you mean ${meant}?`,
      );
    // The CDK CLI's own keys, feature flags, cached lookups, and words a short name is close to.
    const other = synth({
      stage: 'dev',
      stack: 'payments',
      state: 'on',
      regions: 'eu',
      'aws:cdk:enable-path-metadata': true,
      '@aws-cdk/aws-lambda:recognizeLayerVersion': true,
      'acknowledged-issue-numbers': [34892],
      'availability-zones:account=123456789012:region=eu-west-1': ['eu-west-1a'],
    });
    fs.rmSync(other.outdir, { recursive: true, force: true });
  });

  it('trace the share of requests context traceSampleRate names, and nothing, with no X-Ray permission, with tracing off', () => {
    const rare = synth({ stage: 'dev', traceSampleRate: '0.001' });
    const off = synth({ stage: 'dev', tracing: 'false' });
    try {
      for (const fn of Object.values(rare.stack.functions)) {
        const props = rare.json.Resources[logicalId(rare.stack, fn)].Properties;
        const { TRACING_ENABLED, TRACE_SAMPLE_RATE } = props.Environment.Variables;
        expect(parseSettings({ TRACING_ENABLED, TRACE_SAMPLE_RATE })).toMatchObject({
          tracingEnabled: true,
          traceSampleRate: 0.001,
        });
      }
      for (const fn of Object.values(off.stack.functions)) {
        const props = off.json.Resources[logicalId(off.stack, fn)].Properties;
        expect(props.TracingConfig).toBeUndefined();
        expect(props.Environment.Variables.TRACING_ENABLED).toBe('false');
      }
      expect(JSON.stringify(off.json.Resources)).not.toContain('xray:');
    } finally {
      for (const s of [rare, off]) fs.rmSync(s.outdir, { recursive: true, force: true });
    }
    for (const bad of ['5%', '1.5', '-0.1', 'x'])
      expect(() => synth({ stage: 'dev', traceSampleRate: bad })).toThrow(/traceSampleRate/);
  });
});

describe('least privilege', () => {
  interface Statement {
    Effect: string;
    Action: string | string[];
    Resource: Json;
    Condition?: Json;
  }

  /** Every statement of every identity policy attached to a role: inline in the role, or AWS::IAM::Policy. */
  function statementsByRole(s: Synth): Map<string, Statement[]> {
    const byRole = new Map<string, Statement[]>();
    const add = (roleId: string, doc: Json) => {
      const list = byRole.get(roleId) ?? [];
      list.push(...(doc.Statement as Statement[]));
      byRole.set(roleId, list);
    };
    for (const [id, role] of ofType(s, 'AWS::IAM::Role')) {
      byRole.set(id, byRole.get(id) ?? []);
      for (const policy of role.Properties.Policies ?? []) add(id, policy.PolicyDocument);
    }
    for (const [, policy] of [...ofType(s, 'AWS::IAM::Policy'), ...ofType(s, 'AWS::IAM::ManagedPolicy')]) {
      for (const ref of policy.Properties.Roles ?? []) add(ref.Ref, policy.Properties.PolicyDocument);
    }
    return byRole;
  }

  const actionsOf = (st: Statement) => (Array.isArray(st.Action) ? st.Action : [st.Action]);
  const resourcesOf = (st: Statement) => (Array.isArray(st.Resource) ? st.Resource : [st.Resource]);

  function roleStatements(s: Synth, name: string): Statement[] {
    const fn = s.json.Resources[logicalId(s.stack, s.stack.functions[name])].Properties;
    const roleId = fn.Role['Fn::GetAtt'][0] as string;
    return statementsByRole(s).get(roleId)!;
  }

  /** DynamoDB grants of a function as `action -> resources`, resources as JSON text. */
  function dynamoGrants(s: Synth, name: string): Record<string, string[]> {
    const grants: Record<string, string[]> = {};
    for (const st of roleStatements(s, name)) {
      expect(st.Effect).toBe('Allow');
      for (const action of actionsOf(st).filter((a) => a.toLowerCase().startsWith('dynamodb:'))) {
        grants[action] = [...(grants[action] ?? []), ...resourcesOf(st).map((r) => JSON.stringify(r))];
      }
    }
    return grants;
  }

  const arnOf = (s: Synth, table: 'access' | 'decisions' | 'learning') =>
    JSON.stringify({
      'Fn::GetAtt': [
        logicalId(
          s.stack,
          table === 'access'
            ? s.stack.accessTable
            : table === 'learning'
              ? s.stack.learningTable
              : s.stack.decisionsTable,
        ),
        'Arn',
      ],
    });

  it('gives each Lambda its own role, with no managed policies', () => {
    const roles = Object.keys(dev.stack.functions).map(
      (n) => dev.json.Resources[logicalId(dev.stack, dev.stack.functions[n])].Properties.Role['Fn::GetAtt'][0],
    );
    expect(new Set(roles).size).toBe(roles.length);
    for (const [, role] of ofType(dev, 'AWS::IAM::Role')) expect(role.Properties.ManagedPolicyArns).toBeUndefined();
  });

  const leadingKeys = (...prefixes: string[]) => ({
    'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': prefixes.map((p) => `${p}*`) },
  });
  /** A function's DynamoDB statements as plain data: actions, table or index, condition. */
  function dynamoStatements(s: Synth, name: string) {
    return roleStatements(s, name)
      .filter((st) => actionsOf(st).some((a) => a.startsWith('dynamodb:')))
      .map((st) => ({
        actions: actionsOf(st).sort(),
        resources: resourcesOf(st).map((r) => JSON.stringify(r)),
        condition: st.Condition,
      }));
  }

  it('lets the authorizer only GetItem the key and partner items of the access table', () => {
    expect(dynamoStatements(dev, 'Authorizer')).toEqual([
      { actions: ['dynamodb:GetItem'], resources: [arnOf(dev, 'access')], condition: leadingKeys('key#', 'partner#') },
    ]);
  });

  it("writes each Lambda's table access of lib/stack/access.ts, every table statement limited to its items", () => {
    const expected = (grants: readonly TableGrant[]) =>
      grants
        .map((g) => ({
          actions: g.actions.map((a) => `dynamodb:${a}`).sort(),
          resources: [
            g.index
              ? JSON.stringify({ 'Fn::Join': ['', [JSON.parse(arnOf(dev, g.table)), `/index/${g.index}`]] })
              : arnOf(dev, g.table),
          ],
          condition: g.leadingKeys ? leadingKeys(...g.leadingKeys) : undefined,
        }))
        .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    const sorted = (xs: ReturnType<typeof dynamoStatements>) =>
      [...xs].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    for (const route of ROUTES) {
      expect(sorted(dynamoStatements(dev, route.id))).toEqual(expected(routeAccess(route)));
      // Only an index Query and the learning table (its partition keys are workspace ids) go without a condition.
      for (const st of dynamoStatements(dev, route.id)) {
        if (st.actions.join() !== 'dynamodb:Query' && st.resources[0] !== arnOf(dev, 'learning'))
          expect(st.condition).toBeDefined();
      }
    }
    expect(dynamoStatements(dev, 'Authorizer')).toEqual(expected(AUTHORIZER_ACCESS));
  });

  it('limits each route to the decisions-table items its stores touch', () => {
    // Read off lambdas/stores/: which calls each route makes on which `pk` prefixes (rate counters are every route's).
    const decisionsStatements = (name: string) =>
      dynamoStatements(dev, name)
        .filter((st) => st.resources[0] === arnOf(dev, 'decisions'))
        .map(
          (st) =>
            `${st.actions.map((a) => a.slice('dynamodb:'.length)).join('+')} ${st.condition['ForAllValues:StringLike']['dynamodb:LeadingKeys'].join(' ')}`,
        )
        .sort();
    // What workspaces learned is in the learning table: here only the policy a load reads.
    const expected: Record<string, string[]> = {
      Analyze: ['GetItem decision#* idem#* policy#* wsmodel#*', 'PutItem decision#* idem#*', 'UpdateItem rate#*'],
      GetDecision: ['GetItem decision#*', 'UpdateItem rate#*'],
      ListDecisions: ['GetItem decision#*', 'UpdateItem rate#*'],
      // A replay of a batch whose writes failed: the record marked failed, each missing decision put conditionally.
      AnalyzeBatch: [
        'BatchGetItem+BatchWriteItem decision#*',
        'GetItem decision#* idem#* policy#* wsmodel#*',
        'PutItem decision#* idem#*',
        'UpdateItem idem#*',
        'UpdateItem rate#*',
      ],
      GetPolicy: ['GetItem policy#*', 'UpdateItem rate#*'],
      // The policy's read and conditional update and its audit event, in one transaction (with a learning entry).
      PutPolicy: ['GetItem+UpdateItem policy#*', 'PutItem audit#*', 'UpdateItem rate#*'],
      // The decision read and updated, in one transaction with the learning entry.
      Feedback: ['GetItem decision#* policy#* wsmodel#*', 'UpdateItem decision#*', 'UpdateItem rate#*'],
    };
    for (const [name, statements] of Object.entries(expected))
      expect([name, decisionsStatements(name)]).toEqual([name, statements.sort()]);
  });

  it('lets the list Lambda Query the decisions_by_priority index (and the one it replaced) and nothing else: no Scan, no table Query', () => {
    const grants = dynamoGrants(dev, 'ListDecisions');
    expect(grants['dynamodb:Query']).toHaveLength(2);
    expect(grants['dynamodb:Query'][0]).toContain('/index/decisions_by_priority');
    expect(grants['dynamodb:Query'][1]).toContain('/index/decision_list');
    for (const grant of grants['dynamodb:Query'])
      expect(grant).toContain(logicalId(dev.stack, dev.stack.decisionsTable));
    expect(grants['dynamodb:Scan']).toBeUndefined();
    // Other routes Query only the learning table (a workspace's item collection).
    for (const route of ROUTES.filter((r) => r.id !== 'ListDecisions'))
      for (const grant of dynamoGrants(dev, route.id)['dynamodb:Query'] ?? [])
        expect(grant).toBe(JSON.stringify({ 'Fn::GetAtt': [logicalId(dev.stack, dev.stack.learningTable), 'Arn'] }));
    const index = dev.json.Resources[logicalId(dev.stack, dev.stack.decisionsTable)].Properties.GlobalSecondaryIndexes;
    expect(index).toEqual([
      // Only what a listed decision needs: a feedback's update of its decision writes nothing to the index.
      expect.objectContaining({
        IndexName: 'decisions_by_priority',
        KeySchema: [
          { AttributeName: 'workspace_priority', KeyType: 'HASH' },
          { AttributeName: 'decision_id', KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['decision', 'expires_at'] },
      }),
      // `admin audit list` (an operator's Query; no route may read it).
      expect.objectContaining({
        IndexName: 'audit_by_time',
        KeySchema: [
          { AttributeName: 'audit_log', KeyType: 'HASH' },
          { AttributeName: 'event_id', KeyType: 'RANGE' },
        ],
      }),
    ]);
  });

  it('limits the route roles to rate counters on the decisions table and grant items on the access table', () => {
    for (const route of ROUTES) {
      const statements = roleStatements(dev, route.id);
      const updates = statements.filter((st) => actionsOf(st).includes('dynamodb:UpdateItem'));
      expect(updates.map((st) => st.Condition)).toContainEqual(leadingKeys('rate#'));
      for (const st of statements.filter((x) =>
        JSON.stringify(x.Resource).includes(logicalId(dev.stack, dev.stack.accessTable)),
      )) {
        expect(actionsOf(st).sort()).toEqual(['dynamodb:BatchGetItem', 'dynamodb:GetItem']);
        expect(st.Condition).toEqual(leadingKeys('grant#', 'prefixes#'));
      }
    }
    expect(JSON.stringify(roleStatements(dev, 'Authorizer'))).not.toContain(
      logicalId(dev.stack, dev.stack.decisionsTable),
    );
  });

  it('gives the fallback no DynamoDB access at all', () => {
    expect(dynamoGrants(dev, 'Fallback')).toEqual({});
    const text = JSON.stringify(roleStatements(dev, 'Fallback'));
    expect(text).not.toContain(logicalId(dev.stack, dev.stack.accessTable));
    expect(text).not.toContain(logicalId(dev.stack, dev.stack.decisionsTable));
  });

  it('lets each Lambda write only to its own log group', () => {
    for (const [name, fn] of Object.entries(dev.stack.functions)) {
      const logGroupId = dev.json.Resources[logicalId(dev.stack, fn)].Properties.LoggingConfig.LogGroup.Ref;
      const logStatements = roleStatements(dev, name).filter((st) => actionsOf(st).some((a) => a.startsWith('logs:')));
      expect(logStatements).toHaveLength(1);
      expect(actionsOf(logStatements[0]).sort()).toEqual(['logs:CreateLogStream', 'logs:PutLogEvents']);
      expect(logStatements[0].Resource).toEqual({ 'Fn::GetAtt': [logGroupId, 'Arn'] });
    }
  });

  it('lets every Lambda send its trace segments (PutTraceSegments, the one X-Ray call lambdas/trace-sinks.ts makes)', () => {
    for (const name of Object.keys(dev.stack.functions)) {
      const xray = roleStatements(dev, name).filter((st) => actionsOf(st).some((a) => a.startsWith('xray:')));
      expect([name, xray.map((st) => [actionsOf(st), resourcesOf(st)])]).toEqual([
        name,
        [[['xray:PutTraceSegments'], ['*']]],
      ]);
    }
  });

  it('has no wildcard action and no "*" or index resource anywhere in the identity policies, but the named index the list Queries and X-Ray', () => {
    for (const [, statements] of statementsByRole(dev)) {
      for (const st of statements) {
        // X-Ray's PutTraceSegments has no resource-level permissions: `*` is the only resource it takes.
        if (actionsOf(st).every((a) => a.startsWith('xray:'))) {
          expect(actionsOf(st)).toEqual(['xray:PutTraceSegments']);
          expect(resourcesOf(st)).toEqual(['*']);
          continue;
        }
        for (const action of actionsOf(st)) expect(action).not.toContain('*');
        const indexQuery = actionsOf(st).join() === 'dynamodb:Query';
        for (const resource of resourcesOf(st)) {
          expect(resource).not.toBe('*');
          expect(JSON.stringify(resource)).not.toMatch(/"\*"|\/index\/\*/);
          if (!indexQuery) expect(JSON.stringify(resource)).not.toMatch(/\/index\//);
          else expect(JSON.stringify(resource)).toMatch(/\/index\/(decisions_by_priority|decision_list)"/);
        }
        if (actionsOf(st).some((a) => a.startsWith('dynamodb:'))) {
          for (const resource of resourcesOf(st)) expect(typeof resource).toBe('object'); // a table's GetAtt
        }
      }
    }
  });
});

describe('log groups and their KMS key', () => {
  const keyId = (s: Synth) => logicalId(s.stack, s.stack.logsKey);
  const keyStatements = (s: Synth): Json[] => s.json.Resources[keyId(s)].Properties.KeyPolicy.Statement;

  it('keep logs a year or more by default, every group encrypted with the stack key', () => {
    expect(defaults.logRetentionDays).toBeGreaterThanOrEqual(365);
    for (const s of [dev, prod]) {
      const groups = ofType(s, 'AWS::Logs::LogGroup');
      expect(groups).toHaveLength(Object.keys(s.stack.functions).length + 1); // one per Lambda and the access log
      for (const [, group] of groups) {
        expect(group.Properties.RetentionInDays).toBe(defaults.logRetentionDays);
        expect(group.Properties.KmsKeyId).toEqual({ 'Fn::GetAtt': [keyId(s), 'Arn'] });
      }
    }
  });

  it('retain the groups and the key together in every stage but dev and dev-*, and delete both in those', () => {
    for (const [s, policy] of [
      [dev, 'Delete'],
      [prod, 'Retain'],
      [staging, 'Retain'],
    ] as const) {
      const resources = [...ofType(s, 'AWS::Logs::LogGroup'), ...ofType(s, 'AWS::KMS::Key')];
      expect(resources).toHaveLength(Object.keys(s.stack.functions).length + 2);
      for (const [, r] of resources) {
        expect(r.DeletionPolicy).toBe(policy);
        expect(r.UpdateReplacePolicy).toBe(policy);
      }
    }
  });

  it('uses a rotated key that CloudWatch Logs of this account and region may use for log groups only', () => {
    const key = dev.json.Resources[keyId(dev)].Properties;
    expect(key.EnableKeyRotation).toBe(true);
    const logs = keyStatements(dev).find((st) => st.Sid === 'CloudWatchLogsOfThisAccountAndRegion');
    expect(logs).toMatchObject({ Effect: 'Allow', Resource: '*' });
    expect(JSON.stringify(logs.Principal)).toBe(
      JSON.stringify({ Service: { 'Fn::Join': ['', ['logs.', { Ref: 'AWS::Region' }, '.amazonaws.com']] } }),
    );
    for (const action of logs.Action)
      expect(action).toMatch(/^kms:(Encrypt|Decrypt|ReEncrypt|GenerateDataKey|Describe)/);
    const arnPattern = JSON.stringify(logs.Condition.ArnLike['kms:EncryptionContext:aws:logs:arn']);
    for (const part of [':logs:', 'AWS::Region', 'AWS::AccountId', ':log-group:*']) expect(arnPattern).toContain(part);
  });

  it('lets no one but AWS services create grants on the key', () => {
    expect(keyStatements(dev)).toContainEqual({
      Sid: 'GrantsOnlyForAwsServices',
      Effect: 'Deny',
      Principal: { AWS: '*' },
      Action: 'kms:CreateGrant',
      Resource: '*',
      Condition: { BoolIfExists: { 'kms:GrantIsForAWSResource': 'false', 'aws:PrincipalIsAWSService': 'false' } },
    });
  });

  it('take retention and an existing key ARN from context instead', () => {
    const keyArn = 'arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab';
    const custom = synth({ stage: 'prod', logRetentionDays: '731', logsKmsKeyArn: keyArn });
    try {
      expect(ofType(custom, 'AWS::KMS::Key')).toEqual([]);
      const groups = ofType(custom, 'AWS::Logs::LogGroup');
      expect(groups.length).toBeGreaterThan(0);
      for (const [, group] of groups) {
        expect(group.Properties).toMatchObject({ RetentionInDays: 731, KmsKeyId: keyArn });
      }
    } finally {
      fs.rmSync(custom.outdir, { recursive: true, force: true });
    }
  });

  it('refuse a key that is not a KMS key ARN, and a retention CloudWatch does not offer', () => {
    expect(() => synth({ logsKmsKeyArn: 'alias/my-logs-key' })).toThrow(/logsKmsKeyArn must be a KMS key ARN/);
    expect(() => synth({ logRetentionDays: 366 })).toThrow(/logRetentionDays must be one of/);
  });
});

describe('stage', () => {
  const stageOf = (s: Synth) => {
    const stages = ofType(s, 'AWS::ApiGatewayV2::Stage');
    expect(stages).toHaveLength(1);
    return stages[0][1].Properties;
  };

  it('is $default, auto-deployed, throttled from context', () => {
    expect(stageOf(dev)).toMatchObject({
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: {
        ThrottlingRateLimit: defaults.throttlingRateLimit,
        ThrottlingBurstLimit: defaults.throttlingBurstLimit,
      },
    });
    expect(stageOf(prod).DefaultRouteSettings).toEqual({ ThrottlingRateLimit: 7, ThrottlingBurstLimit: 9 });
  });

  it('logs access in JSON to its own log group, with the partner and key ids, without headers, bodies, scopes or limits', () => {
    const { AccessLogSettings } = stageOf(dev);
    const groupId = AccessLogSettings.DestinationArn['Fn::GetAtt'][0] as string;
    expect(dev.json.Resources[groupId].Type).toBe('AWS::Logs::LogGroup');
    const functionGroups = Object.values(dev.stack.functions).map(
      (fn) => dev.json.Resources[logicalId(dev.stack, fn)].Properties.LoggingConfig.LogGroup.Ref,
    );
    expect(functionGroups).not.toContain(groupId);

    const format = JSON.parse(AccessLogSettings.Format) as Record<string, string>;
    const variables = Object.values(format);
    for (const variable of [
      '$context.requestId',
      '$context.identity.sourceIp',
      '$context.httpMethod',
      '$context.routeKey',
      '$context.status',
      '$context.protocol',
      '$context.responseLength',
      '$context.integrationLatency',
      '$context.authorizer.error',
      '$context.authorizer.partner_id',
      '$context.authorizer.key_id',
      '$context.integrationErrorMessage',
    ]) {
      expect(variables).toContain(variable);
    }
    for (const variable of variables) {
      expect(variable).toMatch(/^\$context\.[A-Za-z._]+$/);
      expect(variable.toLowerCase()).not.toMatch(/header|body|querystring|useragent|requestoverride/);
      // The path would log an API key a partner put in a URL by mistake (the route key names the route).
      expect(variable).not.toMatch(/^\$context\.(path|resourcePath)$/);
      // Of the authorizer's context its outcome (a code: FORBIDDEN is edge protection's bypass alarm) and the ids
      // of the partner and key it allowed (on-call's "what did partner X get?"), never scopes or rate limits.
      if (variable.startsWith('$context.authorizer.'))
        expect([
          '$context.authorizer.error',
          '$context.authorizer.outcome',
          '$context.authorizer.partner_id',
          '$context.authorizer.key_id',
        ]).toContain(variable);
    }
  });
});

describe('alarms', () => {
  const alarms = () => ofType(dev, 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
  /** Metric stats an alarm reads, single-metric or math. */
  const metricsOf = (alarm: Json): Json[] =>
    alarm.MetricName
      ? [{ Namespace: alarm.Namespace, MetricName: alarm.MetricName, Dimensions: alarm.Dimensions }]
      : alarm.Metrics.filter((m: Json) => m.MetricStat).map((m: Json) => m.MetricStat.Metric);
  const find = (predicate: (metric: Json) => boolean) => alarms().filter((a) => metricsOf(a).some(predicate));
  const dim = (metric: Json, name: string) => metric.Dimensions?.find((d: Json) => d.Name === name)?.Value;

  it('all notify the alarm topic, whose ARN is an output', () => {
    const topicId = logicalId(dev.stack, dev.stack.alarmTopic);
    expect(alarms().length).toBeGreaterThan(0);
    for (const alarm of alarms()) expect(alarm.AlarmActions).toEqual([{ Ref: topicId }]);
    expect(dev.json.Outputs[ALARM_TOPIC_OUTPUT_KEY].Value).toEqual({ Ref: topicId });
  });

  it('watch the API stage 5xx', () => {
    const apiId = ofType(dev, 'AWS::ApiGatewayV2::Api')[0][0];
    const matches = find(
      (m) =>
        m.Namespace === 'AWS/ApiGateway' &&
        m.MetricName === '5xx' &&
        JSON.stringify(dim(m, 'ApiId')) === JSON.stringify({ Ref: apiId }) &&
        dim(m, 'Stage') === '$default',
    );
    expect(matches).toHaveLength(1);
  });

  it('watch Errors and Throttles of every Lambda, the authorizer included', () => {
    for (const fn of Object.values(dev.stack.functions)) {
      const ref = JSON.stringify({ Ref: logicalId(dev.stack, fn) });
      for (const metricName of ['Errors', 'Throttles']) {
        const matches = find(
          (m) =>
            m.Namespace === 'AWS/Lambda' &&
            m.MetricName === metricName &&
            JSON.stringify(dim(m, 'FunctionName')) === ref,
        );
        expect(matches).toHaveLength(1);
      }
    }
  });

  // The retired listing index still takes every write during the first step of an upgrade (-c keepRetiredIndexes).
  let upgradingSynth: Synth | undefined;
  const upgrading = () => (upgradingSynth ??= synth({ stage: 'dev', keepRetiredIndexes: 'true' }));
  const alarmsIn = (s: Synth) => ofType(s, 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);

  it('watch DynamoDB throttling on each table and each of its indexes, retired ones too while an upgrade keeps them', () => {
    for (const s of [dev, upgrading()]) {
      for (const table of [s.stack.accessTable, s.stack.decisionsTable, s.stack.learningTable]) {
        const id = logicalId(s.stack, table);
        const ref = JSON.stringify({ Ref: id });
        const matches = alarmsIn(s).filter((a) =>
          metricsOf(a).some(
            (m) =>
              m.Namespace === 'AWS/DynamoDB' &&
              /Throttle/.test(m.MetricName) &&
              JSON.stringify(dim(m, 'TableName')) === ref,
          ),
        );
        expect(matches).toHaveLength(1);
        // A table's series leave out its indexes' throttling: each index's reads and writes are in the same alarm.
        const deployed = ((s.json.Resources[id].Properties.GlobalSecondaryIndexes ?? []) as Json[]).map(
          (index) => index.IndexName as string,
        );
        const watched = metricsOf(matches[0])
          .filter((m) => /Throttle/.test(m.MetricName))
          .map((m) => `${dim(m, 'GlobalSecondaryIndexName') ?? '(table)'} ${m.MetricName}`);
        expect(watched.sort()).toEqual(
          ['(table)', ...deployed]
            .flatMap((name) => [`${name} ReadThrottleEvents`, `${name} WriteThrottleEvents`])
            .sort(),
        );
      }
    }
  });

  it('each read at most the 10 metrics CloudWatch allows a math alarm (a deploy would fail, a synth does not)', () => {
    for (const s of [dev, prod, upgrading()])
      for (const alarm of alarmsIn(s))
        expect([alarm.AlarmName, metricsOf(alarm).length <= 10]).toEqual([alarm.AlarmName, true]);
  });

  it('watch the ServerErrors EMF metric for every 5xx code, with the dimensions Powertools emits', () => {
    const matches = find((m) => m.Namespace === 'SignalAnalysis/dev' && m.MetricName === 'ServerErrors');
    expect(matches).toHaveLength(1);
    // Each stage's alarm reads its own stage's metrics (they share an account), which its Lambdas emit under.
    const serverErrorNamespaces = (s: Synth) =>
      alarmsIn(s).flatMap((a) =>
        metricsOf(a)
          .filter((m) => m.MetricName === 'ServerErrors')
          .map((m) => m.Namespace),
      );
    expect(new Set(serverErrorNamespaces(prod))).toEqual(new Set(['SignalAnalysis/prod']));
    for (const [s, stage] of [
      [dev, 'dev'],
      [prod, 'prod'],
    ] as const)
      for (const fn of Object.values(s.stack.functions)) {
        const { Variables } = s.json.Resources[logicalId(s.stack, fn)].Properties.Environment;
        expect(Variables.SAS_STAGE).toBe(stage);
      }
    const codes = metricsOf(matches[0]).map((m) => dim(m, 'code'));
    expect(codes.sort()).toEqual(['INTERNAL_ERROR', 'SERVICE_UNAVAILABLE']);
    for (const m of metricsOf(matches[0])) expect(dim(m, 'service')).toBe('signal-analysis');
  });

  // An operator paged by an alarm looks it up by name in docs/operations.md (what to do) and docs/deploy.md (when it
  // fires): every alarm the stack makes must be in both tables, the per-Lambda ones as `<Lambda>Errors`/`Throttles`.
  it('are each named in the alarm tables of docs/deploy.md and docs/operations.md', () => {
    const docs = ['deploy.md', 'operations.md'].map((name) => {
      const text = fs.readFileSync(path.join(__dirname, '../../docs', name), 'utf8');
      const table = text.split('\n').filter((line) => line.startsWith('| `'));
      return [name, table.join('\n')] as const;
    });
    const functions = Object.keys(dev.stack.functions);
    const prefix = `${dev.stack.stackName}-`;
    const names = alarms().map((a) => (a.AlarmName as string).slice(prefix.length));
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) {
      const perLambda = /^(\w+?)(Errors|Throttles)$/.exec(name);
      const documentedAs =
        perLambda && functions.includes(perLambda[1]) ? `\`<Lambda>${perLambda[2]}\`` : `\`${name}\``;
      for (const [doc, table] of docs) expect([doc, name, table.includes(documentedAs)]).toEqual([doc, name, true]);
    }
  });

  it("go to a topic that refuses publishing without TLS and lets this account's alarms publish", () => {
    const [[, policy]] = ofType(dev, 'AWS::SNS::TopicPolicy');
    const statements = policy.Properties.PolicyDocument.Statement as Json[];
    expect(statements).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          Effect: 'Deny',
          Action: 'sns:Publish',
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        }),
        expect.objectContaining({
          Effect: 'Allow',
          Action: 'sns:Publish',
          Principal: { Service: 'cloudwatch.amazonaws.com' },
        }),
      ]),
    );
  });
});

describe('outputs', () => {
  it('has the API base URL ending in /api/v1, the table names and the alarm topic', () => {
    const outputs = dev.json.Outputs;
    const always = Object.values(OUTPUT_KEYS).filter((k) => k !== OUTPUT_KEYS.protectedApiBaseUrl);
    for (const key of [...always, ALARM_TOPIC_OUTPUT_KEY]) expect(outputs[key]).toBeDefined();
    // Edge protection only (test/cdk/edge.test.ts).
    expect(outputs[OUTPUT_KEYS.protectedApiBaseUrl]).toBeUndefined();
    const [, parts] = outputs[OUTPUT_KEYS.apiBaseUrl].Value['Fn::Join'];
    const apiId = ofType(dev, 'AWS::ApiGatewayV2::Api')[0][0];
    expect(parts[0]).toEqual({ 'Fn::GetAtt': [apiId, 'ApiEndpoint'] });
    expect(parts[parts.length - 1]).toMatch(/\/api\/v1$/);
    expect(outputs[OUTPUT_KEYS.accessTable].Value).toEqual({ Ref: logicalId(dev.stack, dev.stack.accessTable) });
    expect(outputs[OUTPUT_KEYS.decisionsTable].Value).toEqual({ Ref: logicalId(dev.stack, dev.stack.decisionsTable) });
  });

  // The outputs an operator reads after `cdk deploy`: README.md's Deploy section and docs/deploy.md's Outputs table
  // name every one (the table names too: the admin CLI's --aws reads LearningTableName).
  it('are each named in README.md and in the outputs table of docs/deploy.md', () => {
    const readme = fs.readFileSync(path.join(__dirname, '../../README.md'), 'utf8');
    const readmeOutputs = readme.slice(readme.indexOf('\n## Deploy\n'), readme.indexOf('-c edgeProtection=true'));
    const guide = fs.readFileSync(path.join(__dirname, '../../docs/deploy.md'), 'utf8');
    for (const key of Object.keys(dev.json.Outputs)) {
      expect(['README.md', key, readmeOutputs.includes(`\`${key}\``)]).toEqual(['README.md', key, true]);
      expect(['docs/deploy.md', key, guide.includes(`| \`${key}\` |`)]).toEqual(['docs/deploy.md', key, true]);
    }
  });

  it('names the stack after the stage', () => {
    expect(dev.stack.stackName).toBe('SignalAnalysisService-dev');
    expect(prod.stack.stackName).toBe('SignalAnalysisService-prod');
  });
});
