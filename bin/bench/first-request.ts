// Part of section "bundles": module load plus the first request, in a fresh `node` process, for the Lambdas that
// bundle the decision engine, against the DocumentClient-only reference's load plus its first PutItem (issue 31: a
// model loaded on first use must not hide its cost behind a quick module init).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { lambdaContext } from '../../lib/local/server';
import { JavaMissingError } from '../../lib/local/dynamodb-local';
import { startScratch } from '../../lib/local/scratch';
import { ENV } from '../../lambdas/contract/settings';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ITEM_PREFIX } from '../../lambdas/contract/tables';
import { type Figures, median, progress } from './common';
import { makeEmails } from './emails';
import { type ApiRequest, apiEvents, authorizeAtGateway, decisionItem, inProcess, okBody } from './requests';
import type { Decision } from '../../lambdas/domain/decision';
import type { Signal } from '../../lambdas/domain/signal';

const WORKSPACE = 'ws_first';
/** The reference's name in the figures (bundles.ts builds it as `docclient_only`). */
const REFERENCE = 'docclient_only';
/** The import teaches a workspace of its own, so what the analyze requests' workspace learned stays the same. */
const IMPORT_WORKSPACE = 'ws_first_import';

/** The signal every first request carries: a ~2 KB e-mail to the bench's workspace, received an hour before `nowMs`. */
export function firstRequestSignal(nowMs = Date.now()): Signal {
  const [email] = makeEmails(1, 2_000, 13);
  return { ...email, workspace_id: WORKSPACE, received_at: new Date(nowMs - 3_600_000).toISOString() };
}

/**
 * The Lambdas that bundle the decision engine (by their bundle's name) and the request each one's first invocation
 * answers: one signal, as a partner's first call. goals.ts reads the names for the engine's bundle allowance.
 */
const FIRST_REQUESTS = {
  analyze: (signal) => ({ method: 'POST', path: '/api/v1/signals/analyze', body: JSON.stringify(signal) }),
  analyze_batch: (signal) => ({
    method: 'POST',
    path: '/api/v1/signals/analyze-batch',
    body: JSON.stringify({ signals: [signal] }),
  }),
  import_examples: (signal) => ({
    method: 'POST',
    path: `/api/v1/workspaces/${IMPORT_WORKSPACE}/examples`,
    body: JSON.stringify({
      examples: [{ signal: { ...signal, workspace_id: IMPORT_WORKSPACE }, labels: { priority: 'high' } }],
    }),
  }),
} satisfies Record<string, (signal: Signal) => Omit<ApiRequest, 'key'>>;
type FirstRequestRoute = keyof typeof FIRST_REQUESTS;

export const ENGINE_LAMBDAS = Object.keys(FIRST_REQUESTS) as FirstRequestRoute[];
export const isFirstRequestRoute = (name: string): name is FirstRequestRoute => Object.hasOwn(FIRST_REQUESTS, name);

/**
 * The child: reads its event, then times require() and the handler's first answer. It writes the two times on stderr
 * (stdout carries the Lambda's own log lines) and exits at once (the clients keep sockets open).
 */
function childCode(file: string, eventFile: string, functionName: string): string {
  return [
    // Binary attributes travel as {"$b64": ...} (the reference's item holds the learning sketch).
    `const ev=JSON.parse(require('node:fs').readFileSync(${JSON.stringify(eventFile)},'utf8'),(k,v)=>v&&typeof v.$b64==='string'?Buffer.from(v.$b64,'base64'):v);`,
    // JSON keeps the context's fields and drops its functions, written here.
    `const ctx={...${JSON.stringify(lambdaContext(functionName, 'bench'))},getRemainingTimeInMillis:()=>10000,done(){},fail(){},succeed(){}};`,
    `const t=process.hrtime.bigint();const m=require(${JSON.stringify(file)});const t1=process.hrtime.bigint();`,
    `Promise.resolve(m.handler(ev,ctx)).then((r)=>{const t2=process.hrtime.bigint();`,
    // The reference's handler answers the PutCommand's output, a route's handler its HTTP answer.
    `const status=r&&r.statusCode!==undefined?r.statusCode:200;`,
    `if(status!==200)process.stderr.write('answered '+status+': '+String(r.body).slice(0,300));`,
    `process.stderr.write('\\n@@first '+Number(t1-t)/1e6+','+Number(t2-t1)/1e6+','+status+'\\n');process.exit(0);},`,
    `(e)=>{process.stderr.write(String(e&&e.stack));process.exit(1);});`,
  ].join('');
}

function runChild(file: string, eventFile: string, functionName: string, env: NodeJS.ProcessEnv) {
  const run = spawnSync(process.execPath, ['-e', childCode(file, eventFile, functionName)], {
    encoding: 'utf8',
    timeout: 30_000,
    env,
  });
  const m = /@@first ([\d.]+),([\d.]+),(\d+)/.exec(run.stderr);
  if (run.status !== 0 || !m || m[3] !== '200')
    throw new Error(`first request of ${functionName} failed: ${run.stderr.slice(-800)}`);
  return { init: Number(m[1]), first: Number(m[2]) };
}

/**
 * `bundles`: index.js files by name, each with the route whose request it answers (`context`: printed, outside the
 * worst ratio); `reference`: the DocumentClient-only bundle, whose handler sends `event.put` as a PutCommand.
 * `baseEnv`: the environment module init is measured with.
 */
export async function benchFirstRequests(
  bundles: { name: string; file: string; route: FirstRequestRoute; context?: boolean }[],
  reference: string,
  baseEnv: Record<string, string>,
  runs: number,
  out: string,
): Promise<Figures> {
  const scratch = await startScratch({
    name: 'bench-first',
    partner: 'bench',
    workspaces: [WORKSPACE, IMPORT_WORKSPACE],
    fullJit: true,
    // The in-process requests that set the scene would log to the bench's stdout, which --json and --markdown own.
    settings: { logLevel: 'WARN' },
  }).catch((err: unknown) => {
    if (!(err instanceof JavaMissingError)) throw err;
    console.error(`${err.message}\nSkipping the first-request figures, which need DynamoDB Local.`);
    return undefined;
  });
  if (!scratch) return {};
  try {
    const key = await scratch.newKey();
    const signal = firstRequestSignal();
    // The analyze requests' workspace learned priorities first (the costlier cold path: the learned priority reads
    // the signal against its history and generic text), from 20 e-mails like the one analyzed.
    const history = makeEmails(20, 2_000, 17).map((email, i) => ({
      signal: { ...email, workspace_id: WORKSPACE },
      labels: { priority: (['low', 'medium', 'high'] as const)[i % 3] },
    }));
    const teach = { method: 'POST' as const, path: `/api/v1/workspaces/${WORKSPACE}/examples` };
    okBody(
      await inProcess(scratch.service, apiEvents({ key, ...teach, body: JSON.stringify({ examples: history }) })),
      'import',
    );
    // Each route's event as the gateway hands it over: the authorizer's verdict already on it (the authorizer is a
    // Lambda of its own, measured by module init). Answered once in process first, which also warms DynamoDB Local.
    const events = new Map<string, string>();
    for (const b of bundles) {
      const request = { key, ...FIRST_REQUESTS[b.route](signal) };
      okBody(await inProcess(scratch.service, apiEvents(request)), b.name);
      // A fresh event: the route's handler, in process, parsed the body of the one it answered in place.
      const gateway = apiEvents(request);
      await authorizeAtGateway(scratch.service, gateway);
      const file = path.join(out, `first-${b.name}.json`);
      writeFileSync(file, JSON.stringify(gateway.route));
      events.set(b.name, file);
    }
    // The reference writes the item analyze stores, the learning sketch beside the decision included.
    const template = okBody<Decision>(
      await inProcess(scratch.service, apiEvents({ key, ...FIRST_REQUESTS.analyze(signal) })),
    );
    const stored = await scratch.client.send(
      new GetCommand({ TableName: scratch.names.decisions, Key: { pk: ITEM_PREFIX.decision + template.decision_id } }),
    );
    const extra = stored.Item?.sketch !== undefined ? { sketch: stored.Item.sketch as unknown } : {};
    const {
      dynamodbEndpoint: endpoint = '',
      dynamodbLocalAccessKeyId: localAccessKeyId = '',
      region,
    } = scratch.db.settings;
    const env = {
      ...baseEnv,
      [ENV.region]: region,
      [ENV.accessTableName]: scratch.names.access,
      [ENV.decisionsTableName]: scratch.names.decisions,
      [ENV.learningTableName]: scratch.names.learning,
      [ENV.dynamodbEndpoint]: endpoint,
      [ENV.dynamodbLocalAccessKeyId]: localAccessKeyId,
    };
    // The reference reads the SDK's own settings: the same database through its default chain and endpoint setting
    // (the Lambdas' bundles read static credentials for DynamoDB Local, so the reference resolves a little more).
    const referenceEnv = {
      ...env,
      AWS_ACCESS_KEY_ID: localAccessKeyId,
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_ENDPOINT_URL_DYNAMODB: endpoint,
    };
    // A new decision item for each of the reference's runs, as analyze writes one.
    const binary = (_k: string, v: unknown) =>
      v instanceof Uint8Array ? { $b64: Buffer.from(v).toString('base64') } : v;
    const referenceEvent = (r: number) => {
      const file = path.join(out, `first-reference-${r}.json`);
      const item = decisionItem(template, 'bench', 'key_bench', extra);
      const put = { TableName: scratch.names.decisions, Item: item, ConditionExpression: 'attribute_not_exists(pk)' };
      writeFileSync(file, JSON.stringify({ put }, binary));
      return file;
    };
    const all = [
      { name: REFERENCE, file: reference, env: referenceEnv, event: referenceEvent },
      ...bundles.map((b) => ({ name: b.name, file: b.file, env, event: () => events.get(b.name)! })),
    ];
    const totals = new Map<string, number[]>(all.map((b) => [b.name, []]));
    const firsts = new Map<string, number[]>(all.map((b) => [b.name, []]));
    progress(`  first request: ${runs} fresh node processes per engine Lambda and the reference, interleaved ...`);
    for (let r = 0; r < runs; r++) {
      for (const b of all) {
        const t = runChild(b.file, b.event(r), b.name, b.env);
        totals.get(b.name)!.push(t.init + t.first);
        firsts.get(b.name)!.push(t.first);
      }
    }
    const ref = median(totals.get(REFERENCE)!);
    const figures: Figures = {
      [`first_request_${REFERENCE}_ms`]: ref,
      [`first_request_${REFERENCE}_call_ms`]: median(firsts.get(REFERENCE)!),
    };
    let worst = 0;
    for (const b of bundles) {
      const total = median(totals.get(b.name)!);
      figures[`first_request_${b.name}_ms`] = total;
      figures[`first_request_${b.name}_call_ms`] = median(firsts.get(b.name)!);
      if (b.context) continue;
      figures[`first_request_${b.name}_ratio`] = total / ref;
      worst = Math.max(worst, total / ref);
    }
    figures.first_request_ratio_max = worst;
    return figures;
  } finally {
    await scratch.stop();
  }
}
