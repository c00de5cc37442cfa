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
import { type Figures, median, progress, round2 } from './common';
import { makeEmails } from './emails';
import { type ApiRequest, apiEvents, decisionItem, inProcess, okBody } from './requests';
import type { Decision } from '../../lambdas/domain/decision';
import type { Signal } from '../../lambdas/domain/signal';

const WORKSPACE = 'ws_first';

/** The signal every first request carries: a ~2 KB e-mail to the bench's workspace, received an hour ago. */
export function firstRequestSignal(): Signal {
  const [email] = makeEmails(1, 2_000, 13);
  return { ...email, workspace_id: WORKSPACE, received_at: new Date(Date.now() - 3_600_000).toISOString() };
}

/** The engine's Lambdas and the request each one's first invocation answers (one signal, as a partner's first call). */
const FIRST_REQUESTS = {
  analyze: (_ws, signal) => ({ method: 'POST', path: '/api/v1/signals/analyze', body: JSON.stringify(signal) }),
  analyze_batch: (_ws, signal) => ({
    method: 'POST',
    path: '/api/v1/signals/analyze-batch',
    body: JSON.stringify({ signals: [signal] }),
  }),
  import_examples: (ws, signal) => ({
    method: 'POST',
    path: `/api/v1/workspaces/${ws}/examples`,
    body: JSON.stringify({ examples: [{ signal, labels: { priority: 'high' } }] }),
  }),
} satisfies Record<string, (workspace: string, signal: Signal) => Omit<ApiRequest, 'key'>>;
type FirstRequestRoute = keyof typeof FIRST_REQUESTS;

export const isFirstRequestRoute = (name: string): name is FirstRequestRoute => Object.hasOwn(FIRST_REQUESTS, name);

/**
 * The child: reads its event, then times require() and the handler's first answer. It writes the two times on stderr
 * (stdout carries the Lambda's own log lines) and exits at once (the clients keep sockets open).
 */
function childCode(file: string, eventFile: string, functionName: string): string {
  return [
    `const ev=JSON.parse(require('node:fs').readFileSync(${JSON.stringify(eventFile)},'utf8'));`,
    // JSON keeps the context's fields and drops its functions, written here.
    `const ctx={...${JSON.stringify(lambdaContext(functionName, 'bench'))},getRemainingTimeInMillis:()=>10000,done(){},fail(){},succeed(){}};`,
    `const t=process.hrtime.bigint();const m=require(${JSON.stringify(file)});const t1=process.hrtime.bigint();`,
    `Promise.resolve(m.handler(ev,ctx)).then((r)=>{const t2=process.hrtime.bigint();`,
    `const ok=r!==null&&typeof r==='object'&&(r.statusCode===undefined||r.statusCode===200);`,
    `process.stderr.write('\\n@@first '+Number(t1-t)/1e6+','+Number(t2-t1)/1e6+','+(ok?1:0)+'\\n');process.exit(0);},`,
    `(e)=>{process.stderr.write(String(e&&e.stack));process.exit(1);});`,
  ].join('');
}

function runChild(file: string, eventFile: string, functionName: string, env: NodeJS.ProcessEnv) {
  const run = spawnSync(process.execPath, ['-e', childCode(file, eventFile, functionName)], {
    encoding: 'utf8',
    timeout: 30_000,
    env,
  });
  const m = /@@first ([\d.]+),([\d.]+),([01])/.exec(run.stderr);
  if (run.status !== 0 || !m) throw new Error(`first request of ${functionName} failed: ${run.stderr.slice(-800)}`);
  if (m[3] !== '1') throw new Error(`first request of ${functionName} was not answered 200: ${run.stdout.slice(-800)}`);
  return { init: Number(m[1]), first: Number(m[2]) };
}

/**
 * `bundles`: index.js files by name, each with the route whose request it answers (`context`: printed, outside the
 * worst ratio); `reference`: the DocumentClient-only bundle, whose handler sends `event.put` as
 * a PutCommand. `baseEnv`: the environment module init is measured with.
 */
export async function benchFirstRequests(
  bundles: { name: string; file: string; route: FirstRequestRoute; context?: boolean }[],
  reference: string,
  baseEnv: Record<string, string>,
  runs: number,
  out: string,
): Promise<Figures> {
  const workspace = WORKSPACE;
  const scratch = await startScratch({ name: 'bench-first', partner: 'bench', workspaces: [workspace] }).catch(
    (err: unknown) => {
      if (!(err instanceof JavaMissingError)) throw err;
      progress(`  ${err.message}: skipping the first-request figures`);
      return undefined;
    },
  );
  if (!scratch) return {};
  try {
    const key = await scratch.newKey();
    const signal = firstRequestSignal();
    // Each route's event as the gateway hands it over: the authorizer's verdict already on it (the authorizer is a
    // Lambda of its own, measured by module init). Answered once in process first, which also warms DynamoDB Local.
    const events = new Map<string, string>();
    for (const b of bundles) {
      const request = { key, ...FIRST_REQUESTS[b.route](workspace, signal) };
      okBody(await inProcess(scratch.service, apiEvents(request)), b.name);
      const { authorizer, route: event } = apiEvents(request);
      const verdict = (await scratch.service.authorizer(authorizer, lambdaContext('authorizer', 'bench'))) as {
        context?: unknown;
      };
      event.requestContext.authorizer = { lambda: verdict.context ?? {} };
      const file = path.join(out, `first-${b.name}.json`);
      writeFileSync(file, JSON.stringify(event));
      events.set(b.name, file);
    }
    const template = okBody<Decision>(
      await inProcess(scratch.service, apiEvents({ key, ...FIRST_REQUESTS.analyze(workspace, signal) })),
    );
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
    // The reference reads the SDK's own settings: the same database through its default chain and endpoint setting.
    const referenceEnv = {
      ...env,
      AWS_ACCESS_KEY_ID: localAccessKeyId,
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_ENDPOINT_URL_DYNAMODB: endpoint,
    };
    const all = [{ name: 'docclient_only', file: reference }, ...bundles];
    const totals = new Map<string, number[]>(all.map((b) => [b.name, []]));
    const firsts = new Map<string, number[]>(all.map((b) => [b.name, []]));
    progress(`  first request: ${runs} fresh node processes per engine Lambda and the reference, interleaved ...`);
    for (let r = 0; r < runs; r++) {
      for (const b of all) {
        let eventFile = events.get(b.name);
        if (!eventFile) {
          // A new decision item for each run, as analyze writes one.
          eventFile = path.join(out, `first-reference-${r}.json`);
          const item = decisionItem(template, 'bench', 'key_bench');
          const put = {
            TableName: scratch.names.decisions,
            Item: item,
            ConditionExpression: 'attribute_not_exists(pk)',
          };
          writeFileSync(eventFile, JSON.stringify({ put }));
        }
        const t = runChild(b.file, eventFile, b.name, b.name === 'docclient_only' ? referenceEnv : env);
        totals.get(b.name)!.push(t.init + t.first);
        firsts.get(b.name)!.push(t.first);
      }
    }
    const ref = median(totals.get('docclient_only')!);
    const figures: Figures = {
      first_request_docclient_only_ms: round2(ref),
      first_request_docclient_only_call_ms: round2(median(firsts.get('docclient_only')!)),
    };
    let worst = 0;
    for (const b of bundles) {
      const total = median(totals.get(b.name)!);
      figures[`first_request_${b.name}_ms`] = round2(total);
      figures[`first_request_${b.name}_call_ms`] = round2(median(firsts.get(b.name)!));
      if (b.context) continue;
      figures[`first_request_${b.name}_ratio`] = round2(total / ref);
      worst = Math.max(worst, total / ref);
    }
    figures.first_request_ratio_max = round2(worst);
    return figures;
  } finally {
    await scratch.stop();
  }
}
