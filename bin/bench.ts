// What a request costs, in figures (printed, not asserted).
//   npm run bench                      every section, a table with the goal and PASS/MISS beside each figure
//   npm run --silent bench -- --json   exactly one JSON object on stdout (progress goes to stderr)
//   npm run bench -- --quick           shorter runs of every section (rougher figures)
//   npm run bench -- --only=scorer,ddb --skip=http   choose sections: scorer, ddb, inprocess, http, bundles
//   npm run bench -- --digest          a SHA-256 over the scorer's decisions on fixed inputs (compare across commits)
// Sections are plain functions returning named figures; main() collects them. To add a section, write another
// bench function, call it in main(), and give its figures a row in GOALS.
//
// Everything runs on this machine: one DynamoDB Local (in memory, on a free loopback port) serves every section
// that needs a database, and is stopped at the end, as are the HTTP servers and child processes.
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { AdminService } from '../lib/admin';
import { JavaMissingError, type RunningDynamoDb, startDynamoDbLocal } from '../lib/local/dynamodb-local';
import { ensureTables, tableNamesWithPrefix, type TableNames } from '../lib/local/provision';
import { mulberry32 } from './seeded-random';
import { type Handlers, type RunningServer, lambdaContext, loadHandlers, startLocalServer } from '../lib/local/server';
import { LAMBDA_ESBUILD_OPTIONS, lambdaBundles } from '../lib/lambda-bundling';
import { ITEM_PREFIX } from '../lib/tables';
import type { Decision } from '../lambdas/domain/decision';
import { newDecisionId } from '../lambdas/domain/ids';
import { scoreSignal } from '../lambdas/domain/scorer';
import type { Signal } from '../lambdas/domain/signal';
import { DynamoAccessStore } from '../lambdas/stores/access-store';
import { createDocumentClient, sharedDocumentClient } from '../lambdas/stores/dynamodb-client';

type Figures = Record<string, number>;

interface Goal {
  /** Shown beside the figure. */
  text: string;
  /** PASS/MISS; figures without a check are context. */
  check?: (value: number) => boolean;
}

const atMost = (limit: number) => (v: number) => v <= limit;
const atLeast = (limit: number) => (v: number) => v >= limit;
const exactly = (n: number) => (v: number) => v === n;

/** Goal text (and check) shown beside each figure in the table. */
const GOALS: Record<string, Goal> = {
  scorer_signals_per_second: { text: '>= 50,000 /s on one core', check: atLeast(50_000) },
  scorer_slowest_round_per_second: { text: 'context: the slowest of the 5 rounds (the figure above is the median)' },
  scorer_avg_body_chars: { text: '~2,000' },
  machine_char_loop_ns_per_char: { text: 'reference: a bare charCodeAt loop on this machine' },

  ddb_reads_cold: { text: 'key not cached: key + partner read' },
  ddb_writes_cold: { text: 'write items' },
  ddb_reads_warm: { text: '0 (authorizer cache hit)', check: exactly(0) },
  ddb_writes_warm: { text: 'exactly 1 write item', check: exactly(1) },
  ddb_write_calls_warm: { text: '1 PutItem' },
  ddb_reads_warm_idempotent: { text: '0', check: exactly(0) },
  ddb_writes_warm_idempotent: { text: 'exactly 2 write items (record + decision)', check: exactly(2) },
  ddb_write_calls_warm_idempotent: { text: '1 TransactWriteItems call' },
  ddb_reads_cold_idempotent: { text: 'key + partner read' },
  ddb_writes_cold_idempotent: { text: 'write items' },
  ddb_reads_replay: { text: 'idempotent replay: old record comes back with the cancelled write' },
  ddb_write_calls_replay: { text: 'the cancelled TransactWriteItems' },

  inprocess_p50_ms: { text: 'authorizer + analyze handlers, warm key, context' },
  inprocess_p99_ms: { text: 'context' },
  putitem_p50_ms: { text: 'bare DocumentClient PutItem, same item, same DynamoDB Local' },
  putitem_p99_ms: { text: 'context' },
  inprocess_vs_putitem_p50_ratio: { text: '<= 1.3x', check: atMost(1.3) },
  inprocess_vs_putitem_p99_ratio: { text: '<= 1.3x', check: atMost(1.3) },
  inprocess_iterations: { text: 'sequential, each path, interleaved, after warm-up' },

  http_rps: { text: 'local mode (npm start), POST analyze, autocannon on loopback' },
  http_p99_ms: { text: 'context' },
  bare_http_rps: { text: 'bare node:http server doing the same single PutItem' },
  bare_http_p99_ms: { text: 'context' },
  http_vs_bare_rps_ratio: { text: '>= 0.7', check: atLeast(0.7) },
  http_vs_bare_p99_ratio: { text: 'context (lower is better)' },
  http_connections: { text: 'same for both' },
  http_seconds_per_round: { text: 'rounds alternate bare/local' },
  http_rounds: { text: 'per server' },
  http_non_2xx: { text: '0', check: exactly(0) },

  bundle_docclient_only_kib: { text: 'reference: esbuild bundle holding only the DocumentClient' },
  bundle_docclient_only_gzip_kib: { text: 'reference' },
  init_docclient_only_ms: { text: 'reference: median of fresh node processes (client constructed at load)' },
  init_docclient_only_lazy_client_ms: { text: 'context: same bundle, client constructed on first use, as our handlers do' },
  bundle_docclient_only_trimmed_kib: { text: "context: the reference with our bundles' aliases (no default credential chain)" },
  bundle_docclient_only_trimmed_gzip_kib: { text: 'context: the same, gzip' },
  init_docclient_only_trimmed_ms: { text: 'context: the same, module init' },
  scorer_init_ms: { text: 'context: the scorer alone (its lexicon index, tables), fresh process' },
  scorer_first_call_ms: { text: 'context: first scoreSignal of a 2 KB e-mail after load (lazy trie branches, cold code)' },
  bundle_analyze_without_scorer_gzip_kib: { text: 'context: analyze with the decision engine (scorer, lexicon, spam model) stubbed out' },
  bundle_analyze_without_scorer_ratio: { text: 'context: the same, worst of minified and gzip, against the reference' },
  bundle_size_overhead_ratio_max: { text: '<= 1.25 (worst Lambda / DocumentClient-only, minified and gzip)', check: atMost(1.25) },
  init_time_overhead_ratio_max: { text: '<= 1.25 (worst Lambda / DocumentClient-only)', check: atMost(1.25) },
  bundle_size_ratio_max_vs_trimmed: { text: 'context: worst Lambda / trimmed reference: the weight of our own code' },
  init_time_ratio_max_vs_trimmed: { text: 'context: worst Lambda / trimmed reference, module init' },
  init_runs_per_bundle: { text: 'fresh node processes per bundle, interleaved' },

  goals_missed: { text: 'figures above that miss their goal', check: exactly(0) },
};

/** Per-Lambda bundle rows get their goal text from their suffix. */
function goalFor(key: string): Goal | undefined {
  if (GOALS[key]) return GOALS[key];
  if (/^bundle_\w+_gzip_kib$/.test(key)) return { text: 'cdk synth asset index.js, gzip -9' };
  if (/^bundle_\w+_kib$/.test(key)) return { text: 'cdk synth asset index.js, minified' };
  if (/^init_\w+_ms$/.test(key)) return { text: 'module init, median' };
  if (/^(bundle|init)_\w+_ratio$/.test(key)) return { text: '<= 1.25', check: atMost(1.25) };
  return undefined;
}

// ---- options ------------------------------------------------------------------------------------

const SECTIONS = ['scorer', 'ddb', 'inprocess', 'http', 'bundles'] as const;
type Section = (typeof SECTIONS)[number];

function options() {
  const { values } = parseArgs({
    options: {
      json: { type: 'boolean', default: false },
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      skip: { type: 'string' },
      digest: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log('usage: npm run bench -- [--json] [--quick] [--only=SECTIONS] [--skip=SECTIONS]   (sections: ' + SECTIONS.join(', ') + ')');
    console.log('       npm run bench -- --digest   one SHA-256 over the decisions of a fixed set of signals (compare across commits)');
    process.exit(0);
  }
  const list = (raw: string | undefined) => {
    const names = (raw ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    for (const n of names) if (!(SECTIONS as readonly string[]).includes(n)) fail(`unknown section "${n}" (sections: ${SECTIONS.join(', ')})`);
    return names as Section[];
  };
  const only = list(values.only);
  const skip = list(values.skip);
  const sections = new Set<Section>(SECTIONS.filter((s) => (only.length === 0 || only.includes(s)) && !skip.includes(s)));
  const quick = values.quick;
  return {
    json: values.json,
    digest: values.digest,
    quick,
    sections,
    inprocessIterations: quick ? 500 : 2_000,
    httpSeconds: quick ? 3 : 5,
    httpRounds: quick ? 1 : 2,
    httpConnections: 16,
    initRuns: quick ? 7 : 15,
  };
}

type Options = ReturnType<typeof options>;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

let progress: (line: string) => void = () => undefined;

// ---- synthetic e-mails (deterministic; no data-set text) ----------------------------------------

const FILLER = (
  'we the our your team project update meeting schedule review report quarter budget plan customer account ' +
  'please thanks regards attached document version draft change request timeline next week monday friday ' +
  'proposal contract partner service product feature release integration data export dashboard access user ' +
  'question answer follow call notes agenda item status progress risk owner deadline approval sign invoice ' +
  'support ticket order delivery shipment office travel lunch conference room available tomorrow morning'
).split(' ');

const SENTENCES = [
  'Our production site is down for all customers since this morning.',
  'I cannot log in to the dashboard, it keeps showing an error message.',
  'We were charged twice for the same invoice this month.',
  'We want to cancel our subscription at the end of the term.',
  'Could you send us a quote for 200 seats of the enterprise plan?',
  'Our lawyer will be in touch regarding the breach of contract.',
  'We found leaked credentials in a public repository.',
  'Thanks, that fixed it, you can close this ticket.',
  'This is not urgent, whenever you have time.',
  'URGENT: please respond ASAP!!',
  'To unsubscribe from this newsletter, click here. View in browser.',
  'I am currently out of the office with limited access to email.',
  'Die Seite ist nicht erreichbar, bitte dringend prüfen.',
  'Nous voulons résilier notre contrat.',
];

function makeEmails(count: number, targetChars: number, seed: number): Signal[] {
  const rnd = mulberry32(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  const out: Signal[] = [];
  for (let n = 0; n < count; n++) {
    const parts: string[] = [];
    let length = 0;
    while (length < targetChars) {
      let sentence: string;
      if (rnd() < 0.08) sentence = pick(SENTENCES);
      else {
        const words: string[] = [];
        const len = 6 + Math.floor(rnd() * 14);
        for (let w = 0; w < len; w++) words.push(pick(FILLER));
        words[0] = words[0][0].toUpperCase() + words[0].slice(1);
        sentence = `${words.join(' ')}${rnd() < 0.15 ? '?' : '.'}`;
      }
      parts.push(sentence);
      length += sentence.length + 1;
      if (rnd() < 0.12) {
        parts.push('\n\n');
        length += 2;
      }
    }
    out.push({
      workspace_id: 'ws_bench',
      source: 'email',
      subject: `Re: ${pick(FILLER)} ${pick(FILLER)} ${n}`,
      body: parts.join(' '),
      sender: `person${n % 97}@${rnd() < 0.3 ? 'gmail.com' : 'example-corp.com'}`,
      received_at: '2026-11-21T08:00:00Z',
      metadata: n % 3 === 0 ? { customer_tier: pick(['enterprise', 'pro', 'free']), tags: ['billing'] } : {},
    });
  }
  return out;
}

// ---- sections -----------------------------------------------------------------------------------

function benchScorer(): Figures {
  const emails = makeEmails(2_000, 2_000, 42);
  const now = new Date('2026-11-21T10:00:00Z');
  let sink = 0;
  // Warm up the JIT, then time 5 rounds of whole passes, at least 0.4 s each, and report the median round: the
  // VM's speed drifts (other tenants), and one slow stretch should not decide the figure, nor one fast one.
  for (let r = 0; r < 3; r++) for (const e of emails) sink += scoreSignal(e, now).score;
  const rates: number[] = [];
  for (let round = 0; round < 5; round++) {
    let scored = 0;
    const start = process.hrtime.bigint();
    let elapsed = 0;
    while (elapsed < 0.4) {
      for (const e of emails) sink += scoreSignal(e, now).score;
      scored += emails.length;
      elapsed = Number(process.hrtime.bigint() - start) / 1e9;
    }
    rates.push(scored / elapsed);
  }
  rates.sort((a, b) => a - b);
  // Machine speed reference: the cheapest possible pass over the same characters. The scorer's
  // tokenizer costs a small multiple of it, so this puts the figure above in context.
  let chars = 0;
  const loopStart = process.hrtime.bigint();
  for (let r = 0; r < 20; r++) {
    for (const e of emails) {
      const body = e.body ?? '';
      for (let i = 0; i < body.length; i++) sink = (sink + body.charCodeAt(i)) | 0;
      chars += body.length;
    }
  }
  const loopNs = Number(process.hrtime.bigint() - loopStart) / chars;
  if (sink === 0.5) console.error(sink); // keeps the work observable
  const avgChars = emails.reduce((s, e) => s + (e.body?.length ?? 0), 0) / emails.length;
  return {
    scorer_signals_per_second: Math.round(rates[2]),
    scorer_slowest_round_per_second: Math.round(rates[0]),
    scorer_avg_body_chars: Math.round(avgChars),
    machine_char_loop_ns_per_char: Math.round(loopNs * 100) / 100,
  };
}

// ---- the request path: DynamoDB Local, tables, a partner and its keys, the real handlers ---------

/** Counts what the handlers ask of DynamoDB: calls, and items read and written (a transaction's Puts count each). */
class CallCounter {
  calls = 0;
  readCalls = 0;
  readItems = 0;
  writeCalls = 0;
  writeItems = 0;
  readonly commands = new Map<string, number>();

  reset(): void {
    this.calls = this.readCalls = this.readItems = this.writeCalls = this.writeItems = 0;
  }

  record(commandName: string, input: Record<string, unknown>): void {
    const name = commandName.replace(/Command$/, '').replace(/Item(s)?$/, '');
    this.calls++;
    this.commands.set(commandName, (this.commands.get(commandName) ?? 0) + 1);
    const length = (v: unknown) => (Array.isArray(v) ? v.length : 0);
    switch (name) {
      case 'Get':
      case 'Query':
      case 'Scan':
        this.readCalls++;
        this.readItems++;
        break;
      case 'BatchGet':
        this.readCalls++;
        for (const t of Object.values((input.RequestItems ?? {}) as Record<string, { Keys?: unknown }>)) this.readItems += length(t.Keys);
        break;
      case 'TransactGet':
        this.readCalls++;
        this.readItems += length(input.TransactItems);
        break;
      case 'Put':
      case 'Update':
      case 'Delete':
        this.writeCalls++;
        this.writeItems++;
        break;
      case 'BatchWrite':
        this.writeCalls++;
        for (const t of Object.values((input.RequestItems ?? {}) as Record<string, unknown>)) this.writeItems += length(t);
        break;
      case 'TransactWrite':
        this.writeCalls++;
        // ConditionCheck entries are not writes.
        for (const item of (input.TransactItems ?? []) as Record<string, unknown>[]) if (!item.ConditionCheck) this.writeItems++;
        break;
      default:
        break;
    }
  }
}

interface World {
  db: RunningDynamoDb;
  names: TableNames;
  admin: AdminService;
  adminClient: ReturnType<typeof createDocumentClient>;
  handlers: Handlers;
  counter: CallCounter;
  workspace: string;
  /** A warm key: the authorizer has it cached once the first request passed. */
  key: string;
  newKey(): Promise<string>;
  /** A typical request body: a ~2 KB e-mail. */
  body: string;
}

const ANALYZE_PATH = '/api/v1/signals/analyze';

async function startWorld(): Promise<World> {
  progress('starting DynamoDB Local (in memory) ...');
  const db = await startDynamoDbLocal({ port: 0, dataDir: ':memory:' });
  const names = tableNamesWithPrefix(`bench-${Date.now().toString(36)}-`);
  // The handlers read these on first use (and Powertools on import): set before loadHandlers().
  Object.assign(process.env, {
    DYNAMODB_ENDPOINT: db.endpoint,
    ACCESS_TABLE_NAME: names.access,
    DECISIONS_TABLE_NAME: names.decisions,
    AUTH_CACHE_TTL_SECONDS: '300',
    POWERTOOLS_METRICS_DISABLED: 'true',
    POWERTOOLS_LOG_LEVEL: 'WARN',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    AWS_REGION: process.env.AWS_REGION || 'us-east-1',
  });
  const adminClient = createDocumentClient({ endpoint: db.endpoint });
  try {
    await ensureTables(adminClient, names);
    const admin = new AdminService(new DynamoAccessStore(adminClient, names.access));
    const workspace = 'ws_bench';
    await admin.createPartner({ id: 'bench', name: 'Bench partner' });
    const newKey = async () => (await admin.createKey({ partnerId: 'bench', workspaces: [workspace], env: 'test' })).key;
    const handlers = await loadHandlers();
    // The handlers' own client (the module singleton of lambdas/stores/dynamodb-client.ts), counted in-process.
    const counter = new CallCounter();
    sharedDocumentClient().middlewareStack.add(
      (next, context) => async (args) => {
        counter.record(String(context.commandName ?? 'unknown'), (args.input ?? {}) as Record<string, unknown>);
        return next(args);
      },
      { step: 'initialize', name: 'benchCallCounter' },
    );
    const [email] = makeEmails(1, 2_000, 7);
    const body = JSON.stringify({ ...email, workspace_id: workspace, received_at: new Date(Date.now() - 3_600_000).toISOString() });
    return { db, names, admin, adminClient, handlers, counter, workspace, key: await newKey(), newKey, body };
  } catch (err) {
    adminClient.destroy();
    await db.stop();
    throw err;
  }
}

async function stopWorld(world: World): Promise<void> {
  sharedDocumentClient().destroy();
  world.adminClient.destroy();
  await world.db.stop();
}

/** The payload 2.0 events lib/local/server.ts builds for POST analyze: the authorizer's, then the route's. */
function analyzeEvents(key: string, body: string, idempotencyKey?: string) {
  const requestId = randomBytes(10).toString('base64');
  const now = new Date();
  const routeKey = `POST ${ANALYZE_PATH}`;
  const headers: Record<string, string> = {
    host: '127.0.0.1',
    'user-agent': 'bench',
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    authorization: `Bearer ${key}`,
  };
  if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
  const requestContext = {
    accountId: '000000000000',
    apiId: 'local',
    domainName: '127.0.0.1',
    domainPrefix: 'local',
    http: { method: 'POST', path: ANALYZE_PATH, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' },
    requestId,
    routeKey,
    stage: '$default',
    time: now.toUTCString(),
    timeEpoch: now.getTime(),
  };
  const authorizer = {
    version: '2.0',
    type: 'REQUEST',
    routeArn: `arn:aws:execute-api:local:000000000000:local/$default/POST${ANALYZE_PATH}`,
    identitySource: [],
    routeKey,
    rawPath: ANALYZE_PATH,
    rawQueryString: '',
    cookies: [],
    headers,
    queryStringParameters: {},
    requestContext,
    pathParameters: {},
    stageVariables: {},
  };
  const route = {
    version: '2.0',
    routeKey,
    rawPath: ANALYZE_PATH,
    rawQueryString: '',
    headers,
    requestContext: { ...requestContext, authorizer: { lambda: {} as unknown } },
    body,
    isBase64Encoded: false,
  };
  return { authorizer, route };
}

interface HandlerResult {
  statusCode: number;
  headers?: Record<string, string>;
  body: string;
}

/** Authorizer handler, then the analyze handler, as API Gateway (and local mode) chains them. */
async function analyzeInProcess(handlers: Handlers, events: ReturnType<typeof analyzeEvents>): Promise<HandlerResult> {
  const verdict = (await handlers.authorizer(events.authorizer, lambdaContext('authorizer', 'bench'))) as { isAuthorized?: boolean; context?: unknown };
  if (verdict?.isAuthorized !== true) throw new Error('the authorizer refused at the gateway');
  events.route.requestContext.authorizer = { lambda: verdict.context ?? {} };
  return (await handlers.routes.Analyze(events.route, lambdaContext('Analyze', 'bench'))) as HandlerResult;
}

async function expectOk(result: HandlerResult, replayed = false): Promise<Decision> {
  if (result.statusCode !== 200) throw new Error(`analyze answered ${result.statusCode}: ${result.body.slice(0, 200)}`);
  if (replayed !== (result.headers?.['Idempotent-Replayed'] === 'true')) throw new Error(`expected replayed=${replayed}`);
  return JSON.parse(result.body) as Decision;
}

// ---- section: DynamoDB calls per request ---------------------------------------------------------

async function benchDynamoDbCalls(world: World): Promise<Figures> {
  const { counter, handlers, body } = world;
  const per = 10;
  // Warm the key (and the modules, the connection) first; that request is not counted.
  await expectOk(await analyzeInProcess(handlers, analyzeEvents(world.key, body)));

  const measure = async (run: (i: number) => Promise<void>) => {
    counter.reset();
    for (let i = 0; i < per; i++) await run(i);
    return { reads: counter.readItems / per, writes: counter.writeItems / per, writeCalls: counter.writeCalls / per, calls: counter.calls / per };
  };
  const coldKeys = await Promise.all(Array.from({ length: 2 * per }, () => world.newKey()));

  const cold = await measure(async (i) => void (await expectOk(await analyzeInProcess(handlers, analyzeEvents(coldKeys[i], body)))));
  const warm = await measure(async () => void (await expectOk(await analyzeInProcess(handlers, analyzeEvents(world.key, body)))));
  const warmIdem = await measure(async () => void (await expectOk(await analyzeInProcess(handlers, analyzeEvents(world.key, body, `bench-${randomUUID()}`)))));
  const coldIdem = await measure(async (i) => void (await expectOk(await analyzeInProcess(handlers, analyzeEvents(coldKeys[per + i], body, `bench-${randomUUID()}`)))));
  const replayKey = `bench-${randomUUID()}`;
  await expectOk(await analyzeInProcess(handlers, analyzeEvents(world.key, body, replayKey)));
  const replay = await measure(async () => void (await expectOk(await analyzeInProcess(handlers, analyzeEvents(world.key, body, replayKey)), true)));
  progress(`  DynamoDB commands seen: ${[...counter.commands].map(([n, c]) => `${n} x${c}`).join(', ')}`);
  return {
    ddb_reads_cold: cold.reads,
    ddb_writes_cold: cold.writes,
    ddb_reads_warm: warm.reads,
    ddb_writes_warm: warm.writes,
    ddb_write_calls_warm: warm.writeCalls,
    ddb_reads_warm_idempotent: warmIdem.reads,
    ddb_writes_warm_idempotent: warmIdem.writes,
    ddb_write_calls_warm_idempotent: warmIdem.writeCalls,
    ddb_reads_cold_idempotent: coldIdem.reads,
    ddb_writes_cold_idempotent: coldIdem.writes,
    ddb_reads_replay: replay.reads,
    ddb_write_calls_replay: replay.writeCalls,
  };
}

// ---- section: in-process request path versus a bare PutItem ---------------------------------------

const round2 = (x: number) => Math.round(x * 100) / 100;
const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** Nearest-rank percentile of an ascending array. */
function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

/** The item DynamoDecisionStore writes for a decision (lambdas/stores/decision-store.ts), with a fresh id. */
function decisionItem(template: Decision, partnerId: string, keyId: string) {
  const created = new Date();
  const decision: Decision = { ...template, decision_id: newDecisionId(created.getTime()), created_at: created.toISOString() };
  return {
    pk: ITEM_PREFIX.decision + decision.decision_id,
    decision,
    partner_id: partnerId,
    key_id: keyId,
    expires_at: Math.floor(created.getTime() / 1000) + 90 * 86_400,
  };
}

async function benchInProcess(world: World, iterations: number): Promise<Figures> {
  const { handlers, body } = world;
  const client = createDocumentClient({ endpoint: world.db.endpoint });
  try {
    const template = await expectOk(await analyzeInProcess(handlers, analyzeEvents(world.key, body)));
    const bare = async () => {
      const item = decisionItem(template, 'bench', 'key_bench');
      const t = process.hrtime.bigint();
      await client.send(new PutCommand({ TableName: world.names.decisions, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
      return Number(process.hrtime.bigint() - t) / 1e6;
    };
    const full = async () => {
      const events = analyzeEvents(world.key, body);
      const t = process.hrtime.bigint();
      const result = await analyzeInProcess(handlers, events);
      const ms = Number(process.hrtime.bigint() - t) / 1e6;
      if (result.statusCode !== 200) throw new Error(`analyze answered ${result.statusCode}`);
      return ms;
    };
    // Warm-up: JIT, connections, DynamoDB Local's own JIT.
    for (let i = 0; i < Math.min(300, iterations / 4); i++) {
      await full();
      await bare();
    }
    const a: number[] = [];
    const b: number[] = [];
    // Interleaved, alternating which goes first, so drift on the shared machine hits both alike.
    for (let i = 0; i < iterations; i++) {
      if (i % 2 === 0) {
        a.push(await full());
        b.push(await bare());
      } else {
        b.push(await bare());
        a.push(await full());
      }
    }
    a.sort((x, y) => x - y);
    b.sort((x, y) => x - y);
    const [a50, a99, b50, b99] = [percentile(a, 0.5), percentile(a, 0.99), percentile(b, 0.5), percentile(b, 0.99)];
    return {
      inprocess_p50_ms: round3(a50),
      inprocess_p99_ms: round3(a99),
      putitem_p50_ms: round3(b50),
      putitem_p99_ms: round3(b99),
      inprocess_vs_putitem_p50_ratio: round2(a50 / b50),
      inprocess_vs_putitem_p99_ratio: round2(a99 / b99),
      inprocess_iterations: iterations,
    };
  } finally {
    client.destroy();
  }
}

// ---- section: local mode over HTTP versus a bare node:http server ---------------------------------

interface CannonResult {
  rps: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/** autocannon in its own process (the server's event loop stays the server's), loopback only, bounded time. */
function autocannon(url: string, seconds: number, connections: number, headers: Record<string, string>, bodyFile: string): Promise<CannonResult> {
  const bin = require.resolve('autocannon/autocannon.js');
  const args = [bin, '--json', '-n', '-c', String(connections), '-d', String(seconds), '-t', '10', '-m', 'POST', '-i', bodyFile];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}=${v}`);
  args.push(url);
  return new Promise((done, failed) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), (seconds + 30) * 1000);
    child.on('close', (code) => {
      clearTimeout(timer);
      try {
        const r = JSON.parse(out) as { requests: { total: number }; duration: number; latency: { p99: number }; non2xx: number; errors: number; timeouts: number };
        done({ rps: r.requests.total / r.duration, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors + r.timeouts });
      } catch {
        failed(new Error(`autocannon failed (exit ${code}): ${err.slice(-500)}`));
      }
    });
  });
}

/** The least any server must do for this request: read and parse the body, write the item once, answer JSON. */
async function startBareServer(world: World, template: Decision): Promise<{ url: string; close(): Promise<void> }> {
  const client = createDocumentClient({ endpoint: world.db.endpoint });
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        try {
          const signal = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { workspace_id?: string };
          const item = decisionItem({ ...template, workspace_id: String(signal.workspace_id) }, 'bench', 'key_bench');
          await client.send(new PutCommand({ TableName: world.names.decisions, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
          const out = JSON.stringify(item.decision);
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) });
          res.end(out);
        } catch {
          res.writeHead(500, { 'content-length': '0' });
          res.end();
        }
      })();
    });
  });
  server.keepAliveTimeout = 65_000; // as lib/local/server.ts
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}${ANALYZE_PATH}`,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
        client.destroy();
      }),
  };
}

async function benchHttp(world: World, opts: Options): Promise<Figures> {
  const template = await expectOk(await analyzeInProcess(world.handlers, analyzeEvents(world.key, world.body)));
  const dir = mkdtempSync(path.join(tmpdir(), 'sas-bench-'));
  const bodyFile = path.join(dir, 'body.json');
  writeFileSync(bodyFile, world.body);
  let local: RunningServer | undefined;
  let bare: Awaited<ReturnType<typeof startBareServer>> | undefined;
  try {
    local = await startLocalServer({ port: 0, handlers: world.handlers });
    bare = await startBareServer(world, template);
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${world.key}` };
    const targets = { local: `http://127.0.0.1:${local.port}${ANALYZE_PATH}`, bare: bare.url };
    const c = opts.httpConnections;
    // Warm-up (not counted): JIT on both sides, connection pools to DynamoDB Local.
    await autocannon(targets.bare, 1, c, headers, bodyFile);
    await autocannon(targets.local, 1, c, headers, bodyFile);
    const runs: Record<'local' | 'bare', CannonResult[]> = { local: [], bare: [] };
    for (let r = 0; r < opts.httpRounds; r++) {
      const order: ('local' | 'bare')[] = r % 2 === 0 ? ['bare', 'local'] : ['local', 'bare'];
      for (const which of order) {
        progress(`  autocannon: ${which} server, ${c} connections, ${opts.httpSeconds} s`);
        runs[which].push(await autocannon(targets[which], opts.httpSeconds, c, headers, bodyFile));
      }
    }
    const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
    const rps = { local: mean(runs.local.map((r) => r.rps)), bare: mean(runs.bare.map((r) => r.rps)) };
    const p99 = { local: mean(runs.local.map((r) => r.p99)), bare: mean(runs.bare.map((r) => r.p99)) };
    const bad = [...runs.local, ...runs.bare].reduce((n, r) => n + r.non2xx + r.errors, 0);
    return {
      http_rps: Math.round(rps.local),
      http_p99_ms: round2(p99.local),
      bare_http_rps: Math.round(rps.bare),
      bare_http_p99_ms: round2(p99.bare),
      http_vs_bare_rps_ratio: round2(rps.local / rps.bare),
      http_vs_bare_p99_ratio: round2(p99.local / p99.bare),
      http_connections: c,
      http_seconds_per_round: opts.httpSeconds,
      http_rounds: opts.httpRounds,
      http_non_2xx: bad,
    };
  } finally {
    await local?.close();
    await bare?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---- section: Lambda bundles (what `cdk synth` ships) versus a DocumentClient-only bundle ---------

const REPO_ROOT = path.resolve(__dirname, '..');

/**
 * The reference bundles use the Lambdas' esbuild options (lib/lambda-bundling.ts) without their module aliases: the
 * DocumentClient with the SDK as it comes. The `_trimmed` reference keeps the aliases, for context.
 */
const { alias: LAMBDA_ALIAS, ...PLAIN_ESBUILD_OPTIONS } = LAMBDA_ESBUILD_OPTIONS;

const DOCCLIENT_ONLY_LAZY_ENTRY = `
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
let client;
export const handler = async (event) => {
  client ??= DynamoDBDocumentClient.from(new DynamoDBClient({}), { marshallOptions: { removeUndefinedValues: true } });
  return event.put ? client.send(new PutCommand(event.put)) : client.send(new GetCommand(event.get));
};
`;

const DOCCLIENT_ONLY_ENTRY = `
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
const client = DynamoDBDocumentClient.from(new DynamoDBClient({}), { marshallOptions: { removeUndefinedValues: true } });
export const handler = async (event) =>
  event.put ? client.send(new PutCommand(event.put)) : client.send(new GetCommand(event.get));
`;

/**
 * Module init of a bundle: require() time in a fresh `node` process, the environment as the stack sets it. With
 * `firstCall`, the bundle is the scorer alone and the time of its first scoreSignal() follows, after a comma.
 */
function initTimeMs(file: string, firstCall?: { signal: Signal; now: string }): number[] {
  const call = firstCall
    ? `;const s=process.hrtime.bigint();m.scoreSignal(${JSON.stringify(firstCall.signal)},new Date(${JSON.stringify(firstCall.now)}));process.stdout.write(','+String(Number(process.hrtime.bigint()-s)/1e6))`
    : '';
  const code = `const t=process.hrtime.bigint();const m=require(${JSON.stringify(file)});process.stdout.write(String(Number(process.hrtime.bigint()-t)/1e6))${call}`;
  const run = spawnSync(process.execPath, ['-e', code], {
    encoding: 'utf8',
    timeout: 20_000,
    env: {
      PATH: process.env.PATH,
      AWS_REGION: 'us-east-1',
      ACCESS_TABLE_NAME: 'sas-access',
      DECISIONS_TABLE_NAME: 'sas-decisions',
      AUTH_CACHE_TTL_SECONDS: '30',
      DECISION_RETENTION_DAYS: '90',
      POWERTOOLS_SERVICE_NAME: 'signal-analysis',
      POWERTOOLS_METRICS_NAMESPACE: 'SignalAnalysis',
      POWERTOOLS_LOG_LEVEL: 'INFO',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
  });
  const ms = run.stdout.split(',').map(Number);
  if (run.status !== 0 || ms.length === 0 || !ms.every(Number.isFinite)) throw new Error(`loading ${file} failed: ${run.stderr.slice(-500)}`);
  return ms;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const snake = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

async function benchBundles(opts: Options): Promise<Figures> {
  const out = mkdtempSync(path.join(tmpdir(), 'sas-bench-synth-'));
  try {
    progress('  cdk synth (bundles every Lambda with esbuild) ...');
    const cdk = spawnSync(process.execPath, [require.resolve('aws-cdk/bin/cdk'), 'synth', '-q', '--no-notices', '-o', path.join(out, 'cdk.out')], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      timeout: 180_000,
      env: { ...process.env, CDK_DISABLE_VERSION_CHECK: 'true' },
    });
    if (cdk.status !== 0) throw new Error(`cdk synth failed: ${(cdk.stderr || cdk.stdout).slice(-1500)}`);
    const assembly = path.join(out, 'cdk.out');
    const bundles = lambdaBundles(assembly).map((b) => ({ name: snake(b.id), file: b.file }));

    // The reference bundles, built with the stack's esbuild options (packages from the project's node_modules), and
    // the scorer alone (for its first-call figure).
    const esbuild = await import('esbuild');
    const build = async (name: string, source: string, plugins: import('esbuild').Plugin[] = [], alias = LAMBDA_ALIAS) => {
      const entry = path.join(out, `${name}-entry.ts`);
      writeFileSync(entry, source);
      const file = path.join(out, name, 'index.js');
      await esbuild.build({
        ...PLAIN_ESBUILD_OPTIONS,
        alias,
        entryPoints: [entry],
        outfile: file,
        nodePaths: [path.join(REPO_ROOT, 'node_modules')],
        plugins,
        logLevel: 'silent',
      });
      return { name, file };
    };
    const reference = await build('docclient_only', DOCCLIENT_ONLY_ENTRY, [], {});
    const lazyReference = await build('docclient_only_lazy_client', DOCCLIENT_ONLY_LAZY_ENTRY, [], {});
    const trimmedReference = await build('docclient_only_trimmed', DOCCLIENT_ONLY_ENTRY);
    const scorer = await build('scorer', `export { scoreSignal } from ${JSON.stringify(path.join(REPO_ROOT, 'lambdas/domain/scorer'))};\n`);
    // What the analyze Lambda weighs without the decision engine (scorer, lexicon, spam model): the same entry with
    // the scorer module replaced by a stub.
    const withoutScorer = await build('analyze_without_scorer', `export { handler } from ${JSON.stringify(path.join(REPO_ROOT, 'lambdas/analyze/handler'))};\n`, [
      {
        name: 'stub-scorer',
        setup(b) {
          b.onResolve({ filter: /\/domain\/scorer$/ }, () => ({ path: 'scorer-stub', namespace: 'stub' }));
          b.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({ contents: 'export function scoreSignal() { throw new Error("stub"); }', loader: 'ts' }));
        },
      },
    ]);
    const [email] = makeEmails(1, 2_000, 11);

    const all = [reference, lazyReference, trimmedReference, ...bundles];
    const size = (file: string) => statSync(file).size;
    const gzip = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length;
    progress(`  module init: ${opts.initRuns} fresh node processes per bundle, interleaved ...`);
    const times = new Map<string, number[]>(all.map((b) => [b.name, []]));
    const scorerInit: number[] = [];
    const scorerFirst: number[] = [];
    for (let r = 0; r < opts.initRuns; r++) {
      for (const b of all) times.get(b.name)!.push(initTimeMs(b.file)[0]);
      const [init, first] = initTimeMs(scorer.file, { signal: email, now: '2026-11-21T10:00:00Z' });
      scorerInit.push(init);
      scorerFirst.push(first);
    }

    const kib = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
    const refSize = size(reference.file);
    const refGzip = gzip(reference.file);
    const refInit = median(times.get(reference.name)!);
    const trimmedSize = size(trimmedReference.file);
    const trimmedGzip = gzip(trimmedReference.file);
    const trimmedInit = median(times.get(trimmedReference.name)!);
    const figures: Figures = {
      bundle_docclient_only_kib: kib(refSize),
      bundle_docclient_only_gzip_kib: kib(refGzip),
      init_docclient_only_ms: round2(refInit),
      init_docclient_only_lazy_client_ms: round2(median(times.get(lazyReference.name)!)),
      bundle_docclient_only_trimmed_kib: kib(trimmedSize),
      bundle_docclient_only_trimmed_gzip_kib: kib(trimmedGzip),
      init_docclient_only_trimmed_ms: round2(trimmedInit),
      scorer_init_ms: round2(median(scorerInit)),
      scorer_first_call_ms: round2(median(scorerFirst)),
      bundle_analyze_without_scorer_gzip_kib: kib(gzip(withoutScorer.file)),
      bundle_analyze_without_scorer_ratio: round2(Math.max(size(withoutScorer.file) / refSize, gzip(withoutScorer.file) / refGzip)),
    };
    let worstSize = 0;
    let worstInit = 0;
    let worstSizeTrimmed = 0;
    let worstInitTrimmed = 0;
    for (const b of bundles) {
      const s = size(b.file);
      const g = gzip(b.file);
      const init = median(times.get(b.name)!);
      const sizeRatio = Math.max(s / refSize, g / refGzip);
      figures[`bundle_${b.name}_kib`] = kib(s);
      figures[`bundle_${b.name}_gzip_kib`] = kib(g);
      figures[`bundle_${b.name}_ratio`] = round2(sizeRatio);
      figures[`init_${b.name}_ms`] = round2(init);
      figures[`init_${b.name}_ratio`] = round2(init / refInit);
      worstSize = Math.max(worstSize, sizeRatio);
      worstSizeTrimmed = Math.max(worstSizeTrimmed, s / trimmedSize, g / trimmedGzip);
      worstInitTrimmed = Math.max(worstInitTrimmed, init / trimmedInit);
      worstInit = Math.max(worstInit, init / refInit);
    }
    figures.bundle_size_overhead_ratio_max = round2(worstSize);
    figures.init_time_overhead_ratio_max = round2(worstInit);
    figures.bundle_size_ratio_max_vs_trimmed = round2(worstSizeTrimmed);
    figures.init_time_ratio_max_vs_trimmed = round2(worstInitTrimmed);
    figures.init_runs_per_bundle = opts.initRuns;
    return figures;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

// ---- decisions digest (is an optimization free of behavior changes?) -----------------------------

/**
 * One SHA-256 over the scorer's decisions on a fixed set of inputs: generated e-mails through every source, random
 * text over a hostile alphabet (every tokenizer path: folds, combining marks, surrogates, apostrophes, currency,
 * line breaks, texts past the scan and token limits), and, when present, the bodies of the shared data sets
 * (../shared/data or $SAS_DATA_DIR). Run it before and after a change: equal digests, equal decisions. Each signal
 * is scored twice, and a different second decision is counted (the scorer must not depend on what it saw before).
 * Only hashes and counts are printed, never data-set text.
 */
function decisionsDigest(): { signals: number; data_set_signals: number; nondeterministic: number; sha256: string } {
  const sources: Signal['source'][] = ['email', 'task', 'crm_event', 'support_message', 'internal'];
  const now = new Date('2026-11-21T10:00:00Z');
  const all = createHash('sha256');
  let signals = 0;
  let dataSet = 0;
  let nondeterministic = 0;
  const score = (signal: Signal) => {
    const decision = JSON.stringify(scoreSignal(signal, now));
    // The same signal again must get the same decision, whatever the scorer has seen in between.
    if (JSON.stringify(scoreSignal(signal, now)) !== decision) nondeterministic++;
    all.update(createHash('sha256').update(decision).digest('hex'));
    signals++;
  };
  makeEmails(3_000, 2_000, 42).forEach((e, i) => score({ ...e, source: sources[i % 5] }));
  const rnd = mulberry32(7);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  const alphabet = [
    'a', 'b', 'e', 'o', 'n', 's', 't', ' ', ' ', '  ', '.', '. ', ',', ', ', '!', '!!', '?', ';', ':', '\n', '\r\n', '\t', "'",
    '\u2019', '-', '0', '1', '9', '%', '$', '\u20ac', '\u00a3', '\u00e9', '\u00fc', '\u00df', '\u00e6', '\u00c6', '\u00f8',
    '\u00fe', '\u0130', '\u0131', 'e\u0301', '\u0301', '\u4e2d', '\u{1F600}', '\u0436', '\u03a9', '\u0133', '\ufb01', '\u00a0',
    '\u2028', 'A', 'Z', '\u01c5', '\u1e9e', '\u216b', '\u0663', '\ud800', '\udc00',
  ];
  const words = (
    'down outage urgent asap not no payment invoice refund cancel subscription lawyer breach security phishing ' +
    'unsubscribe newsletter thanks fixed error cpu at 98 % latency 3500 ms disk 96% sev1 p1 critical warning resolved ' +
    'back to normal quote demo seats enterprise prize won lottery claim birthday dinner k\u00fcndigen dringend ' +
    'r\u00e9silier urgente isn\u2019t l\u2019\u00e9quipe don\'t can\'t Stra\u00dfe'
  ).split(' ');
  const text = (length: number) => {
    let t = '';
    while (t.length < length) t += rnd() < 0.5 ? pick(words) + pick([' ', '. ', ', ', '! ', '\n', '\u2019', "'"]) : pick(alphabet);
    return t;
  };
  const metadata: Signal['metadata'][] = [
    undefined,
    {},
    { customer_tier: 'enterprise' },
    { vip: true, tags: ['billing', 'urgent'] },
    { severity: 'sev2', amount: 50_000, due_at: '2026-11-21T20:00:00Z' },
    { event: 'backup failed', tags: 'spam' },
    { customer_tier: 'free', deal_value: '120,000' },
  ];
  for (let k = 0; k < 4_000; k++) {
    const length = k % 50 === 0 ? 25_000 + Math.floor(rnd() * 20_000) : Math.floor(rnd() * 3_000);
    score({
      workspace_id: 'w',
      source: sources[k % 5],
      subject: text(Math.floor(rnd() * 80)),
      body: text(length),
      sender: pick(['a@gmail.com', 'noreply@x.com', 'Ann <news@corp.example>', undefined, 'bad']),
      received_at: pick(['2026-11-20T01:00:00Z', '2026-11-21T09:00:00Z']),
      metadata: pick(metadata),
    });
  }
  score({ workspace_id: 'w', source: 'email', body: 'a b '.repeat(9_000) + 'site is down', received_at: '2026-11-21T09:00:00Z' });
  const dir = process.env.SAS_DATA_DIR ?? path.resolve(REPO_ROOT, '..', 'shared', 'data');
  const read = (name: string) => {
    try {
      return readFileSync(path.join(dir, name), 'utf8');
    } catch {
      return '';
    }
  };
  for (const line of read('enron-berkeley.jsonl').split('\n')) {
    if (!line.trim()) continue;
    const m = JSON.parse(line) as { subject?: string; body?: string; sender?: string; received_at?: string };
    for (const source of ['email', 'support_message', 'internal'] as const) {
      score({ workspace_id: 'w', source, subject: m.subject ?? undefined, body: m.body ?? undefined, sender: m.sender ?? undefined, received_at: m.received_at ?? '2026-11-21T09:00:00Z' });
      dataSet++;
    }
  }
  for (const line of read('sms-spam-collection.tsv').split('\n').slice(1)) {
    if (!line.trim()) continue;
    score({ workspace_id: 'w', source: 'support_message', body: line.slice(line.indexOf('\t') + 1), received_at: '2026-11-21T09:00:00Z' });
    dataSet++;
  }
  return { signals, data_set_signals: dataSet, nondeterministic, sha256: all.digest('hex') };
}

// ---- output -------------------------------------------------------------------------------------

function printTable(results: Figures): void {
  const rows = Object.entries(results).map(([k, v]) => {
    const goal = goalFor(k);
    const status = goal?.check ? (goal.check(v) ? 'PASS' : 'MISS') : '';
    return [k, v.toLocaleString('en-US'), status, goal?.text ?? ''];
  });
  const heads = ['figure', 'value', 'status', 'goal'];
  const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i].length), heads[i].length));
  const line = (r: string[]) => console.log(`${r[0].padEnd(widths[0])}  ${r[1].padStart(widths[1])}  ${r[2].padEnd(widths[2])}  ${r[3]}`.trimEnd());
  line(heads);
  line(widths.map((w) => '-'.repeat(w)));
  rows.forEach(line);
}

async function main(): Promise<void> {
  const opts = options();
  // The SDK's notice about Node 20 would land in the middle of the progress lines.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  progress = (line) => console.error(line);
  if (opts.digest) {
    const digest = decisionsDigest();
    console.log(
      opts.json
        ? JSON.stringify(digest)
        : `decisions digest ${digest.sha256} over ${digest.signals.toLocaleString('en-US')} signals ` +
            `(${digest.data_set_signals.toLocaleString('en-US')} from the data sets); scored differently the second time: ${digest.nondeterministic}`,
    );
    return;
  }
  const results: Figures = {};
  const started = Date.now();
  const section = async (name: Section, run: () => Promise<Figures> | Figures) => {
    if (!opts.sections.has(name)) return;
    progress(`[${Math.round((Date.now() - started) / 1000)} s] ${name} ...`);
    Object.assign(results, await run());
  };

  await section('scorer', benchScorer);

  const needDb = opts.sections.has('ddb') || opts.sections.has('inprocess') || opts.sections.has('http');
  if (needDb) {
    let world: World | undefined;
    try {
      world = await startWorld();
    } catch (err) {
      if (!(err instanceof JavaMissingError)) throw err;
      console.error(`${err.message}\nSkipping the sections that need DynamoDB Local (ddb, inprocess, http).`);
    }
    if (world) {
      const w = world;
      const onSignal = () => void stopWorld(w).finally(() => process.exit(130));
      process.once('SIGINT', onSignal);
      try {
        await section('ddb', () => benchDynamoDbCalls(w));
        await section('inprocess', () => benchInProcess(w, opts.inprocessIterations));
        await section('http', () => benchHttp(w, opts));
      } finally {
        await stopWorld(w);
        process.removeListener('SIGINT', onSignal);
      }
    }
  }

  // After DynamoDB Local is gone: the JVM would otherwise share the two cores with the init measurements.
  await section('bundles', () => benchBundles(opts));

  let missed = 0;
  for (const [k, v] of Object.entries(results)) if (goalFor(k)?.check?.(v) === false) missed++;
  results.goals_missed = missed;
  progress(`[${Math.round((Date.now() - started) / 1000)} s] done`);
  if (opts.json) process.stdout.write(JSON.stringify(results) + '\n');
  else printTable(results);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exitCode = 1;
});
