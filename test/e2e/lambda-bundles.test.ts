// The Lambda bundles exactly as `cdk synth` ships them, run outside the TypeScript sources: served behind local
// mode's HTTP server in a process with a Lambda-like environment, against DynamoDB Local. The served bundles reach
// DynamoDB Local with its fixed credentials (DYNAMODB_ENDPOINT is set); the bundles' own credential provider, which
// replaces the SDK's default chain (lib/lambda-bundling.ts), is checked with a client built with the same options.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { rebuiltCode, resolveFrames } from '../../bin/resolve-frames';
import { AdminService } from '../../lib/admin';
import { buildApp } from '../../lib/app';
import {
  LAMBDA_ESBUILD_OPTIONS,
  LAZY_BUNDLES,
  type LambdaBundle,
  lambdaBundles,
  lazyBundleFile,
} from '../../lib/lambda-bundling';
import { ROUTES } from '../../lambdas/contract/routes';
import { DynamoAccessStore } from '../../lambdas/stores/access-store';
import { lambdaEnvironment } from '../../lambdas/contract/settings';
import { type TestTables, createTestTables, testEndpoint } from '../support/dynamodb';
import { call, expectError } from '../support/http';
import { TSX_NODE_ARGS } from '../support/tsx';

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const run = promisify(execFile);

/**
 * Strings only the SDK's default credential chain holds (web identity, SSO, credential processes, ECS metadata), and
 * one only its event-stream codec holds (a header name): both are left out of the bundles (lib/lambda-bundling.ts).
 */
const CHAIN_MARKERS = [
  'AWS_WEB_IDENTITY_TOKEN_FILE',
  'sso_start_url',
  'credential_process',
  'AWS_CONTAINER_CREDENTIALS_FULL_URI',
  ':event-type',
];

/** What the stack sets in a function's environment, pointed at this file's tables, plus Lambda's region. */
function functionEnvironment(tables: TestTables, home: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: home, // an empty home: no ~/.aws files to fall back on
    AWS_REGION: 'us-east-1',
    ...lambdaEnvironment({
      accessTableName: tables.names.access,
      decisionsTableName: tables.names.decisions,
      learningTableName: tables.names.learning,
      authCacheTtlSeconds: 30,
      decisionRetentionDays: 90,
      logLevel: 'INFO',
      stage: 'bundles',
    }),
    // Only here, not on AWS: DynamoDB Local, with room for a JVM pause on a loaded machine.
    DYNAMODB_ENDPOINT: testEndpoint(),
    DYNAMODB_REQUEST_TIMEOUT_MS: '4000',
  };
}

/** Waits, up to a deadline, for the host's output to satisfy `ready` (its logs travel apart from the replies). */
async function outputWhere(ready: (output: string) => boolean, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (!ready(hostOutput)) {
    if (Date.now() > deadline)
      throw new Error(`bundle host output never matched; its tail: ${hostOutput.slice(-1500)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return hostOutput;
}

/** The host's EMF lines (CloudWatch embedded metric format), parsed. */
function emfLines(output: string): Record<string, any>[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{"_aws"'))
    .map((line) => JSON.parse(line) as Record<string, any>);
}

const hasMetric = (output: string, name: string, dimension: string, value: string) =>
  emfLines(output).some((m) => {
    const [directive] = m._aws.CloudWatchMetrics;
    return (
      m[name] === 1 &&
      m[dimension] === value &&
      directive.Namespace === 'SignalAnalysis/bundles' && // the stage's own (SAS_STAGE from the stack)
      directive.Dimensions[0].includes(dimension) &&
      directive.Metrics[0].Name === name
    );
  });

const urgentSignal = (
  text = 'Our production checkout has been down for all customers since 09:10. Please help urgently.',
) => ({
  workspace_id: 'ws_a',
  source: 'email',
  subject: 'Checkout is down',
  body: text,
  sender: 'ops@customer.example',
});

let work: string;
let tables: TestTables;
let bundles: LambdaBundle[];
/** The template of the bundled synth, as `cdk deploy` would send it. */
let bundledTemplate: unknown;
let host: ChildProcess | undefined;
let hostOutput = '';
let baseUrl: string;
let key: string;
/** Stands in for X-Ray's endpoint (the bundles reach it through AWS_ENDPOINT_URL_XRAY): the segments it was sent. */
let xray: Server;
const segments: { name: string; trace_id: string; annotations?: Record<string, string> }[] = [];

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'sas-bundles-'));
  tables = await createTestTables('bundles');
  const admin = new AdminService(new DynamoAccessStore(tables.client, tables.names.access, tables.names.decisions));
  await admin.createPartner({ id: 'acme', name: 'Acme' });
  key = (await admin.createKey({ partnerId: 'acme', workspaces: ['ws_a'] })).key;

  const assembly = path.join(work, 'cdk.out');
  // As `cdk synth` runs it: the CLI also turns on the asset metadata that names each function's bundle.
  const built = buildApp({
    context: { stage: 'dev', 'aws:cdk:enable-asset-metadata': true },
    outdir: assembly,
    bundle: true,
    validate: false,
  });
  bundledTemplate = built.app.synth().getStackArtifact(built.stack.artifactId).template;
  bundles = lambdaBundles(assembly);
  const file = (id: string) => bundles.find((b) => b.id === id)?.file ?? `(no bundle for ${id})`;
  const files = {
    authorizer: file('Authorizer'),
    fallback: file('Fallback'),
    routes: Object.fromEntries(ROUTES.map((r) => [r.id, file(r.id)])),
  };

  xray = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/TraceSegments')
        for (const doc of (JSON.parse(body) as { TraceSegmentDocuments: string[] }).TraceSegmentDocuments)
          segments.push(JSON.parse(doc) as (typeof segments)[number]);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"UnprocessedTraceSegments":[]}');
    });
  });
  await new Promise<void>((resolve) => xray.listen(0, '127.0.0.1', resolve));

  const child = spawn(
    process.execPath,
    [...TSX_NODE_ARGS, path.join(__dirname, '../support/bundle-host.ts'), JSON.stringify(files)],
    {
      cwd: REPO_ROOT,
      env: {
        ...functionEnvironment(tables, work),
        // Every request traced, its segments sent to the stand-in with the credentials Lambda would provide.
        TRACING_ENABLED: 'true',
        TRACE_SAMPLE_RATE: '1',
        AWS_ENDPOINT_URL_XRAY: `http://127.0.0.1:${(xray.address() as AddressInfo).port}`,
        AWS_ACCESS_KEY_ID: 'ASIAEXAMPLEBUNDLETEST',
        AWS_SECRET_ACCESS_KEY: 'bundle-test-secret',
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  host = child;
  const collect = (chunk: Buffer) => {
    hostOutput += chunk.toString('utf8');
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<never>((_, reject) =>
    child.on('exit', (code) => reject(new Error(`bundle host exited (${code}): ${hostOutput.slice(-2000)}`))),
  );
  exited.catch(() => undefined); // also rejects at the normal stop in afterAll
  const ready = outputWhere((output) => /^listening \S+$/m.test(output), 60_000);
  await Promise.race([ready, exited]);
  baseUrl = /^listening (\S+)$/m.exec(hostOutput)![1];
}, 300_000); // cdk synth bundles every Lambda (nine of them): minutes on a loaded machine

afterAll(async () => {
  const child = host;
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.stdin!.end(); // the host exits when its stdin closes
    const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(killer);
  }
  xray?.closeAllConnections();
  await new Promise((resolve) => (xray ? xray.close(resolve) : resolve(undefined)));
  await tables?.drop();
  if (work) rmSync(work, { recursive: true, force: true });
});

it('bundles every Lambda of the stack', () => {
  expect(bundles.map((b) => b.id).sort()).toEqual(['Authorizer', 'Fallback', ...ROUTES.map((r) => r.id)].sort());
});

// The CDK tests synthesize without bundling (test/cdk/): what they check of the template is what this synth ships.
it("ships the template a synth without bundling makes, apart from the assets' hashes", () => {
  const unbundled = buildApp({
    context: { stage: 'dev', 'aws:cdk:enable-asset-metadata': true },
    outdir: path.join(work, 'cdk.out.unbundled'),
    bundle: false,
    validate: false,
  });
  const template = unbundled.app.synth().getStackArtifact(unbundled.stack.artifactId).template;
  // The asset metadata (for local tools such as SAM) names the bundle's folder, or the sources without bundling.
  const hashesMasked = (t: unknown) =>
    JSON.stringify(t, null, 1)
      .replace(/\b[0-9a-f]{64}\b/g, '<hash>')
      .replace(/"aws:asset:path": "[^"]*"/g, '"aws:asset:path": "<path>"');
  expect(hashesMasked(bundledTemplate)).toBe(hashesMasked(template));
  expect(JSON.stringify(bundledTemplate)).not.toBe(JSON.stringify(template));
});

it('answers analyze, get-decision and refusals from the shipped bundles', async () => {
  const analyzed = await call(baseUrl, 'POST', '/signals/analyze', { key, body: urgentSignal() });
  expect(analyzed.status).toBe(200);
  expect(analyzed.json.priority).toBe('critical');

  const fetched = await call(baseUrl, 'GET', `/decisions/${analyzed.json.decision_id}`, { key });
  expect(fetched.status).toBe(200);
  expect(fetched.json).toEqual(analyzed.json);

  expectError(await call(baseUrl, 'POST', '/signals/analyze', { body: urgentSignal() }), 401, 'UNAUTHORIZED');
  expectError(await call(baseUrl, 'GET', '/nowhere', { key }), 404, 'NOT_FOUND');
});

it('traces from the shipped bundles: a request is one trace of two segments, sent by the X-Ray client beside index.js', async () => {
  segments.length = 0;
  const analyzed = await call(baseUrl, 'POST', '/signals/analyze', { key, body: urgentSignal() });
  expect(analyzed.status).toBe(200);
  // Sent before each invocation returned: both are in by the time the reply is.
  const [authorizer, route] = segments;
  expect(segments).toHaveLength(2);
  expect(authorizer).toMatchObject({
    name: 'authorizer',
    annotations: { request_id: analyzed.headers.get('x-request-id') },
  });
  expect(route).toMatchObject({
    name: 'POST /api/v1/signals/analyze',
    trace_id: authorizer.trace_id,
    annotations: { decision_id: analyzed.json.decision_id },
  });
  // The client is a file of its own beside each index.js, never inside it.
  for (const b of bundles) {
    expect(readFileSync(b.file, 'utf8')).not.toContain('PutTraceSegments');
    for (const importPath of Object.keys(LAZY_BUNDLES))
      expect(readFileSync(path.join(path.dirname(b.file), lazyBundleFile(importPath)), 'utf8')).toContain(
        'PutTraceSegments',
      );
  }
});

it('loads the spam model inside the analyze bundle', async () => {
  // The model's JSON is a require() inside the bundle, run on the first signal that reaches the model.
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

it('publishes decisions by priority and refusals by code as CloudWatch metrics (EMF)', async () => {
  expect((await call(baseUrl, 'POST', '/signals/analyze', { key, body: urgentSignal() })).status).toBe(200);
  expectError(
    await call(baseUrl, 'GET', '/decisions/dec_01JD2X5R8Q4T7W9Y3K6M1N0P2S', {
      headers: { authorization: 'Bearer nope' },
    }),
    401,
    'UNAUTHORIZED',
  );
  const output = await outputWhere(
    (o) => hasMetric(o, 'Decisions', 'priority', 'critical') && hasMetric(o, 'AuthRefusals', 'code', 'UNAUTHORIZED'),
  );
  // Each line carries the service and its own dimension only: nothing left over from the count before.
  for (const m of emfLines(output)) expect(m._aws.CloudWatchMetrics[0].Dimensions[0]).toHaveLength(2);
});

it("publishes a mixed batch's decisions as one count per priority, each under its own dimension", async () => {
  const spam = {
    workspace_id: 'ws_a',
    source: 'support_message',
    body: 'WINNER!! You have been selected to receive a 900 GBP prize reward! To claim call 09061701461 now',
  };
  const before = hostOutput.length;
  const reply = await call(baseUrl, 'POST', '/signals/analyze-batch', {
    key,
    body: { signals: [urgentSignal(), urgentSignal(), spam, urgentSignal()] },
  });
  expect(reply.status).toBe(200);
  const priorities = reply.json.data.map((item: { decision: { priority: string } }) => item.decision.priority);
  expect(priorities).toEqual(['critical', 'critical', 'low', 'critical']);
  // The batch's output is all in once the next request's log line is (the analyze after it logs its decision id).
  const next = await call(baseUrl, 'POST', '/signals/analyze', { key, body: urgentSignal() });
  const all = await outputWhere((o) => o.includes(next.json.decision_id));
  const output = all.slice(before, all.indexOf(next.json.decision_id));
  const decisions = emfLines(output)
    .filter((m) => m._aws.CloudWatchMetrics[0].Metrics.some((d: { Name: string }) => d.Name === 'Decisions'))
    .map((m) => ({ priority: m.priority, count: m.Decisions, dimensions: m._aws.CloudWatchMetrics[0].Dimensions }));
  expect(decisions.sort((a, b) => a.priority.localeCompare(b.priority))).toEqual([
    { priority: 'critical', count: 3, dimensions: [['service', 'priority']] },
    { priority: 'low', count: 1, dimensions: [['service', 'priority']] },
  ]);
  expect(output).not.toContain('has already been added');
});

it('writes nothing for a request that counted no metric: no Powertools warning line each such answer', async () => {
  const analyzed = await call(baseUrl, 'POST', '/signals/analyze', { key, body: urgentSignal() });
  const before = hostOutput.length;
  // GET counts no metric; the analyze after it logs its decision id, so GET's output is in once that line is.
  expect((await call(baseUrl, 'GET', `/decisions/${analyzed.json.decision_id}`, { key })).status).toBe(200);
  const next = await call(baseUrl, 'POST', '/signals/analyze', { key, body: urgentSignal() });
  const output = (await outputWhere((o) => o.includes(next.json.decision_id))).slice(before);
  expect(output).toContain('"message":"decision stored"');
  expect(output).not.toContain('No application metrics');
});

it("logs the decision id, never the key or the signal's text", async () => {
  const marker = `unmistakable-${Date.now()}`;
  const reply = await call(baseUrl, 'POST', '/signals/analyze', {
    key,
    body: urgentSignal(`Checkout is down, ${marker}. Please help.`),
  });
  expect(reply.status).toBe(200);
  const output = await outputWhere((o) => o.includes(reply.json.decision_id));
  expect(output).not.toContain(key);
  expect(output).not.toContain(marker);
});

describe('credentials: the environment Lambda provides, and nothing else', () => {
  it('ships no default credential chain nor event-stream codec, which a plain DocumentClient bundle carries', async () => {
    const esbuild = await import('esbuild');
    const { alias: _aliases, ...plainOptions } = LAMBDA_ESBUILD_OPTIONS;
    const plain = await esbuild.build({
      ...plainOptions,
      stdin: {
        contents: "export { DynamoDBClient } from '@aws-sdk/client-dynamodb';",
        resolveDir: REPO_ROOT,
        loader: 'ts',
      },
      write: false,
      logLevel: 'silent',
    });
    const plainText = plain.outputFiles[0].text;
    for (const marker of CHAIN_MARKERS)
      expect({ marker, inPlainBundle: plainText.includes(marker) }).toEqual({ marker, inPlainBundle: true });
    const lazy = Object.keys(LAZY_BUNDLES).map(lazyBundleFile);
    for (const b of bundles) {
      for (const file of [b.file, ...lazy.map((name) => path.join(path.dirname(b.file), name))]) {
        const text = readFileSync(file, 'utf8');
        for (const marker of CHAIN_MARKERS)
          expect({ file, marker, found: text.includes(marker) }).toEqual({ file, marker, found: false });
      }
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
    const bare: NodeJS.ProcessEnv = { ...functionEnvironment(tables, work), PROBE_ENDPOINT: testEndpoint() };
    const withCredentials = await run(process.execPath, [probe], {
      env: {
        ...bare,
        AWS_ACCESS_KEY_ID: 'ASIAEXAMPLEBUNDLETEST',
        AWS_SECRET_ACCESS_KEY: 'bundle-test-secret',
        AWS_SESSION_TOKEN: 'bundle-test-session',
      },
    });
    expect(withCredentials.stdout.trim()).toBe('signed and answered');

    // Without them the full chain would go on to files, SSO and metadata endpoints; the bundles stop and say why.
    const without = await run(process.execPath, [probe], { env: bare });
    expect(without.stdout.trim()).toMatch(
      /^failed: No AWS credentials in AWS_ACCESS_KEY_ID \/ AWS_SECRET_ACCESS_KEY\./,
    );
  });
});

describe('frames of a minified bundle, resolved to the source (npm run frames)', () => {
  it('rebuilds exactly the code cdk synth shipped, and maps a place in it back to its source line', async () => {
    const analyze = readFileSync(bundles.find((b) => b.id === 'Analyze')!.file, 'utf8');
    expect(await rebuiltCode('Analyze')).toBe(analyze);
    // A place only one source line holds: the analyze route's log message, as a frame would point at it.
    const at = analyze.indexOf('"decision stored"');
    const before = analyze.slice(0, at).split('\n');
    const frame = `at x (/var/task/index.js:${before.length}:${before[before.length - 1].length + 1})`;
    const source = readFileSync(path.join(REPO_ROOT, 'lambdas/analyze/route.ts'), 'utf8').split('\n');
    const line = source.findIndex((l) => l.includes("'decision stored'")) + 1;
    expect(await resolveFrames('Analyze', [frame])).toEqual([
      expect.stringMatching(new RegExp(`-> lambdas/analyze/route\\.ts:${line}:\\d+$`)),
    ]);
  });
});
