// The Lambda bundles exactly as `cdk synth` ships them, run outside the TypeScript sources: served behind local
// mode's HTTP server in a process with a Lambda-like environment, against DynamoDB Local. The bundles replace the
// SDK's default credential chain (lib/lambda-bundling.ts), so this also checks that what they keep is enough.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { buildApp } from '../../lib/app';
import { LAMBDA_ESBUILD_OPTIONS, type LambdaBundle, lambdaBundles } from '../../lib/lambda-bundling';
import { ROUTES } from '../../lib/routes';
import { call, expectError } from '../support/http';
import { type TestTables, createTestTables, testEndpoint } from '../support/dynamodb';
import { AdminService } from '../../lib/admin';
import { DynamoAccessStore } from '../../lambdas/stores/access-store';

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const run = promisify(execFile);

/** Strings only the SDK's default credential chain holds: web identity, SSO, credential processes, ECS metadata. */
const CHAIN_MARKERS = ['AWS_WEB_IDENTITY_TOKEN_FILE', 'sso_start_url', 'credential_process', 'AWS_CONTAINER_CREDENTIALS_FULL_URI'];

/** What Lambda puts in a function's environment, plus what the stack sets, pointed at this file's tables. */
function lambdaEnvironment(tables: TestTables, home: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: home, // an empty home: no ~/.aws files to fall back on
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'ASIAEXAMPLEBUNDLETEST',
    AWS_SECRET_ACCESS_KEY: 'bundle-test-secret',
    AWS_SESSION_TOKEN: 'bundle-test-session',
    DYNAMODB_ENDPOINT: testEndpoint(),
    ACCESS_TABLE_NAME: tables.names.access,
    DECISIONS_TABLE_NAME: tables.names.decisions,
    AUTH_CACHE_TTL_SECONDS: '30',
    DECISION_RETENTION_DAYS: '90',
    POWERTOOLS_SERVICE_NAME: 'signal-analysis',
    POWERTOOLS_METRICS_NAMESPACE: 'SignalAnalysis',
    POWERTOOLS_LOG_LEVEL: 'INFO',
  };
}

let work: string;
let tables: TestTables;
let bundles: LambdaBundle[];
let host: ChildProcess | undefined;
let hostOutput = '';
let baseUrl: string;
let key: string;

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'sas-bundles-'));
  tables = await createTestTables('bundles');
  const admin = new AdminService(new DynamoAccessStore(tables.client, tables.names.access));
  await admin.createPartner({ id: 'acme', name: 'Acme' });
  key = (await admin.createKey({ partnerId: 'acme', workspaces: ['ws_a'] })).key;

  const assembly = path.join(work, 'cdk.out');
  // As `cdk synth` runs it: the CLI also turns on the asset metadata that names each function's bundle.
  buildApp({ context: { stage: 'dev', 'aws:cdk:enable-asset-metadata': true }, outdir: assembly, bundle: true }).app.synth();
  bundles = lambdaBundles(assembly);
  const file = (id: string) => bundles.find((b) => b.id === id)?.file ?? `(no bundle for ${id})`;
  const files = {
    authorizer: file('Authorizer'),
    fallback: file('Fallback'),
    routes: Object.fromEntries(ROUTES.map((r) => [r.id, file(r.id)])),
  };

  host = spawn(process.execPath, ['--conditions=import', '--import', 'tsx', path.join(__dirname, '../support/bundle-host.ts'), JSON.stringify(files)], {
    cwd: REPO_ROOT,
    env: lambdaEnvironment(tables, work),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  baseUrl = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      hostOutput += chunk.toString('utf8');
      const ready = /^listening (\S+)$/m.exec(hostOutput);
      if (ready) resolve(ready[1]);
    };
    host!.stdout!.on('data', onData);
    host!.stderr!.on('data', onData);
    host!.on('exit', (code) => reject(new Error(`bundle host exited (${code}): ${hostOutput.slice(-2000)}`)));
  });
}, 120_000);

afterAll(async () => {
  if (host && host.exitCode === null) {
    const exited = new Promise((resolve) => host!.on('exit', resolve));
    host.stdin!.end();
    await exited;
  }
  await tables?.drop();
  if (work) rmSync(work, { recursive: true, force: true });
});

it('bundles every Lambda of the stack', () => {
  expect(bundles.map((b) => b.id).sort()).toEqual(['Authorizer', 'Fallback', ...ROUTES.map((r) => r.id)].sort());
});

it('answers analyze, get-decision and refusals from the shipped bundles', async () => {
  const analyzed = await call(baseUrl, 'POST', '/signals/analyze', {
    key,
    body: {
      workspace_id: 'ws_a',
      source: 'email',
      subject: 'Checkout is down',
      body: 'Our production checkout has been down for all customers since 09:10. Please help urgently.',
      sender: 'ops@customer.example',
    },
  });
  expect(analyzed.status).toBe(200);
  expect(analyzed.json.priority).toBe('critical');

  const fetched = await call(baseUrl, 'GET', `/decisions/${analyzed.json.decision_id}`, { key });
  expect(fetched.status).toBe(200);
  expect(fetched.json).toEqual(analyzed.json);

  expectError(await call(baseUrl, 'POST', '/signals/analyze', { body: { workspace_id: 'ws_a' } }), 401, 'UNAUTHORIZED');
  expectError(await call(baseUrl, 'GET', '/nowhere', { key }), 404, 'NOT_FOUND');
});

it('loads the spam model inside the analyze bundle', async () => {
  // The model's JSON is required on first use only: this is the first signal that reaches it.
  const reply = await call(baseUrl, 'POST', '/signals/analyze', {
    key,
    body: {
      workspace_id: 'ws_a',
      source: 'support_message',
      body: 'WINNER!! You have been selected to receive a 900 GBP prize reward! To claim call 09061701461 now',
    },
  });
  expect(reply.status).toBe(200);
  expect(reply.json.recommended_action).toBe('archive');
  expect(reply.json.reasons.map((r: { code: string }) => r.code)).toContain('SPAM_MODEL');
});

it('publishes decisions by priority and refusals by code as CloudWatch metrics (EMF)', () => {
  const emf = hostOutput
    .split('\n')
    .filter((line) => line.startsWith('{"_aws"'))
    .map((line) => JSON.parse(line) as Record<string, any>);
  const metric = (name: string, dimension: string, value: string) =>
    emf.some(
      (m) =>
        m[name] === 1 &&
        m[dimension] === value &&
        m._aws.CloudWatchMetrics[0].Namespace === 'SignalAnalysis' &&
        m._aws.CloudWatchMetrics[0].Dimensions[0].includes(dimension) &&
        m._aws.CloudWatchMetrics[0].Metrics[0].Name === name,
    );
  expect(metric('Decisions', 'priority', 'critical')).toBe(true);
  expect(metric('Decisions', 'priority', 'low')).toBe(true);
  expect(metric('AuthRefusals', 'code', 'UNAUTHORIZED')).toBe(true);
  // Each line carries its own dimension only: nothing left over from the line before.
  for (const m of emf) expect(m._aws.CloudWatchMetrics[0].Dimensions[0]).toHaveLength(2);
});

it("never logs the key or the signal's text", () => {
  expect(hostOutput).toContain('decision_id');
  expect(hostOutput).not.toContain(key);
  expect(hostOutput).not.toContain('09061701461');
  expect(hostOutput).not.toContain('Checkout is down');
});

describe('credentials: the environment Lambda provides, and nothing else', () => {
  it('ships no default credential chain, which a plain DocumentClient bundle carries', async () => {
    const esbuild = await import('esbuild');
    const { alias: _aliases, ...plainOptions } = LAMBDA_ESBUILD_OPTIONS;
    const plain = await esbuild.build({
      ...plainOptions,
      stdin: { contents: "export { DynamoDBClient } from '@aws-sdk/client-dynamodb';", resolveDir: REPO_ROOT, loader: 'ts' },
      write: false,
      logLevel: 'silent',
    });
    const plainText = plain.outputFiles[0].text;
    for (const marker of CHAIN_MARKERS) expect({ marker, inPlainBundle: plainText.includes(marker) }).toEqual({ marker, inPlainBundle: true });
    for (const b of bundles) {
      const text = readFileSync(b.file, 'utf8');
      for (const marker of CHAIN_MARKERS) expect({ bundle: b.id, marker, found: text.includes(marker) }).toEqual({ bundle: b.id, marker, found: false });
    }
  });

  it('signs with AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, and says so when they are missing', async () => {
    // A client built with the Lambdas' esbuild options and no credentials of its own, as on AWS (where no endpoint
    // is set either); DynamoDB Local checks that a request is signed, not by whom.
    const esbuild = await import('esbuild');
    const probe = path.join(work, 'credentials-probe.js');
    await esbuild.build({
      ...LAMBDA_ESBUILD_OPTIONS,
      stdin: {
        contents: `
          import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
          new DynamoDBClient({ endpoint: process.env.PROBE_ENDPOINT, region: 'us-east-1', maxAttempts: 1 })
            .send(new ListTablesCommand({ Limit: 1 }))
            .then(() => console.log('signed and answered'), (e) => console.log('failed: ' + e.message));`,
        resolveDir: REPO_ROOT,
        loader: 'ts',
      },
      outfile: probe,
      logLevel: 'silent',
    });
    const env: NodeJS.ProcessEnv = { ...lambdaEnvironment(tables, work), PROBE_ENDPOINT: testEndpoint() };
    const withCredentials = await run(process.execPath, [probe], { env });
    expect(withCredentials.stdout.trim()).toBe('signed and answered');

    const { AWS_ACCESS_KEY_ID: _id, AWS_SECRET_ACCESS_KEY: _secret, AWS_SESSION_TOKEN: _token, ...bare } = env;
    const without = await run(process.execPath, [probe], { env: bare });
    expect(without.stdout.trim()).toMatch(/^failed: No AWS credentials in AWS_ACCESS_KEY_ID \/ AWS_SECRET_ACCESS_KEY\./);
  });
});
