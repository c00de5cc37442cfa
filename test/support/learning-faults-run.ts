// Runs one fault schedule (learning-faults-schedule.ts) through the route handlers in-process, as API Gateway chains
// the authorizer and a route's middy chain, with the SDK's retries on top (sdk/src/client.ts: 429, 502, 503, 504 and
// timeouts are retried with the same body and Idempotency-Key, up to 3 times), then compares every label's counts, as
// a newly started container loads them once TTL deleted what it would have by a month later, with the reference model
// (learning-faults-model.ts).
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Settings } from '../../lambdas/contract/settings';
import type { Service } from '../../lambdas/service';
import { AGAIN, type RetryPolicy, retrying, sleep } from '../../lambdas/domain/retry';
import { isDatabaseUnavailable } from '../../lambdas/stores/database-faults';
import { type ApiRequest, type HandlerResult, apiEvents, inProcess } from '../../bin/bench/requests';
import { type AttemptFaults, type FaultKind, withFaults } from './learning-faults-injector';
import { type Comparison, WorkspaceReference } from './learning-faults-model';
import { type Op, type Schedule, describeOp, seededRandom } from './learning-faults-schedule';
import { expireAsTtlWould, foldOnce, loadAsContainer } from './learning-harness-adapter';

const API = '/api/v1';
/** The SDK's retries after the first attempt. */
const SDK_RETRIES = 3;
const RETRYABLE = new Set([429, 502, 503, 504]);
/** The set-up and the final check, which run without faults, wait out a loaded machine. */
const PATIENT: RetryPolicy = { attempts: 8, baseMs: 100, capMs: 2_000, budgetMs: 30_000 };

/** What a schedule runs against: the writers' containers (faulty clients) and a clean client for the checks. */
export interface FaultWorld {
  settings: Settings;
  containers: Service[];
  checkClient: DynamoDBDocumentClient;
  /** The learning table (where folds run). */
  tableName: string;
  apiKey: string;
  /** Scales every fault's chance (1: as designed; 0: no faults at all, the harness's own baseline). */
  faultScale: number;
}

export interface ScheduleResult extends Comparison {
  seed: number;
  /** Operations acknowledged (2xx) and not. */
  acknowledged: number;
  unacknowledged: number;
  /** Answers other than 2xx and the retryable ones (a 500 under faults is a bug too). */
  unexpected: string[];
  faults: Map<FaultKind, number>;
  trace: string[];
}

type Answer = HandlerResult;

function request(key: string, method: ApiRequest['method'], path: string, body?: unknown, idempotencyKey?: string) {
  const text = body === undefined ? undefined : JSON.stringify(body);
  return apiEvents({ key, method, path: `${API}${path}`, body: text, idempotencyKey });
}

/** One attempt: the authorizer (no faults: the key check is not what is tested), then the route under `faults`. */
function attempt(container: Service, req: ReturnType<typeof request>, faults?: AttemptFaults) {
  return inProcess(container, req, (step, run) => (faults && step === 'route' ? withFaults(faults, run) : run()));
}

class ScheduleRun {
  readonly refs: WorkspaceReference[];
  readonly late: Promise<unknown>[] = [];
  readonly faults = new Map<FaultKind, number>();
  /** Lines of the failure report; an attempt's calls are rendered at the end (an abandoned one runs on). */
  readonly trace: (string | (() => string))[] = [];
  readonly unexpected: string[] = [];
  acknowledged = 0;
  unacknowledged = 0;
  decisions: string[][] = [];

  constructor(
    readonly world: FaultWorld,
    readonly schedule: Schedule,
  ) {
    this.refs = schedule.workspaces.map(() => new WorkspaceReference());
  }

  private attemptFaults(random: () => number): AttemptFaults {
    // Half the attempts run clean; the others fail 10 to 40% of their calls.
    return {
      random,
      rate: random() < 0.5 ? 0 : (0.1 + random() * 0.3) * this.world.faultScale,
      log: [],
      dead: false,
      late: this.late,
      counts: this.faults,
    };
  }

  /** A request as the SDK sends it: retried on 429/5xx/timeouts with the same body and key; true when answered 2xx. */
  private async send(index: number, req: () => ReturnType<typeof request>): Promise<boolean> {
    const steps: (() => string)[] = [];
    const done = (acked: boolean, how: string) => {
      this.trace.push(() => `  #${index} ${steps.map((s) => s()).join(' → ')} = ${how}`);
      return acked;
    };
    for (let n = 0; n <= SDK_RETRIES; n++) {
      const random = seededRandom(this.schedule.seed, 1_000 + index * 10 + n);
      const c = Math.floor(random() * this.world.containers.length);
      const container = this.world.containers[c];
      const faults = this.attemptFaults(random);
      const running = attempt(container, req(), faults);
      let answer: Answer | 'timeout';
      if (random() < 0.05 * this.world.faultScale) {
        // The SDK's attempt timeout: it gives up and sends again while this attempt still runs.
        answer = await Promise.race([running, sleep(random() * 15).then(() => 'timeout' as const)]);
        if (answer === 'timeout') this.late.push(running.catch(() => undefined));
      } else answer = await running;
      const calls = () => `c${c} [${faults.log.join(', ')}]`;
      if (faults.dead) {
        this.late.push(running.catch(() => undefined));
        steps.push(() => `stopped ${calls()}`);
        return done(false, 'abandoned');
      }
      if (answer === 'timeout') {
        steps.push(() => `client timeout (it ran on) ${calls()}`);
        continue;
      }
      const status = answer.statusCode;
      steps.push(() => `${status} ${calls()}`);
      if (answer.statusCode >= 200 && answer.statusCode < 300) return done(true, 'acknowledged');
      if (!RETRYABLE.has(answer.statusCode)) {
        this.unexpected.push(`#${index} ${answer.statusCode} ${answer.body.slice(0, 160)}`);
        return done(false, 'refused');
      }
      await sleep(random() * 5);
    }
    return done(false, 'retries exhausted');
  }

  /** Decisions to give feedback on: one batch per schedule, without faults. */
  async setup(): Promise<void> {
    const signals = this.schedule.workspaces.flatMap((w) =>
      w.signals.map((s) => ({ workspace_id: w.id, source: 'support_message', ...s })),
    );
    // A 503 here is the loaded machine's (DynamoDB Local answering slowly), or a fault of a load that another attempt
    // started and this one shares: sent again with its Idempotency-Key, like any SDK request.
    const send = () =>
      attempt(
        this.world.containers[0],
        request(this.world.apiKey, 'POST', '/signals/analyze-batch', { signals }, `setup-${this.schedule.seed}`),
      );
    const answer = await retrying(
      'the schedule set-up',
      async () => {
        const a = await send();
        return a.statusCode === 503 ? AGAIN : a;
      },
      PATIENT,
    );
    if (answer.statusCode !== 200)
      throw new Error(`analyze-batch answered ${answer.statusCode}: ${answer.body.slice(0, 200)}`);
    const data = (JSON.parse(answer.body) as { data: { decision?: { decision_id: string } }[] }).data;
    let at = 0;
    this.decisions = this.schedule.workspaces.map((w, i) =>
      w.signals.map((signal) => {
        const id = data[at++].decision?.decision_id;
        if (!id) throw new Error('a setup signal was not analyzed');
        this.refs[i].addDecision(id, signal);
        return id;
      }),
    );
  }

  async run(op: Op, index: number): Promise<void> {
    const ws = this.schedule.workspaces[op.ws].id;
    const ref = this.refs[op.ws];
    const key = this.world.apiKey;
    this.trace.push(`#${index} ${describeOp(op)}`);
    switch (op.kind) {
      case 'feedback': {
        const id = this.decisions[op.ws][op.decision];
        const acked = await this.send(index, () => request(key, 'POST', `/decisions/${id}/feedback`, op.labels));
        ref.feedback(id, op.labels, acked);
        return this.tally(acked);
      }
      case 'import': {
        const examples = op.examples.map((e) => ({ signal: { source: 'email', ...e.signal }, labels: e.labels }));
        const acked = await this.send(index, () =>
          request(key, 'POST', `/workspaces/${ws}/examples`, { examples }, op.idempotencyKey),
        );
        ref.importExamples(op.examples, acked);
        return this.tally(acked);
      }
      case 'forget': {
        const acked = await this.send(index, () => request(key, 'DELETE', `/workspaces/${ws}/model`));
        ref.forget(acked);
        return this.tally(acked);
      }
      case 'load':
      case 'fold':
        return this.background(op, ws, index);
    }
  }

  /** A container's load, or a fold, under faults: what it writes (if anything) must not change any count. */
  private async background(op: Op, ws: string, index: number): Promise<void> {
    const random = seededRandom(this.schedule.seed, 1_000 + index * 10);
    const faults = this.attemptFaults(random);
    const client = this.world.containers[Math.floor(random() * this.world.containers.length)].dependencies.client;
    const work = async (): Promise<void> => {
      if (op.kind === 'load') await loadAsContainer(this.world.settings, client, ws);
      else await foldOnce?.(client, this.world.tableName, ws);
    };
    const outcome = await withFaults(faults, work).then(
      () => 'done',
      (err: unknown) => `failed (${(err as Error).name})`,
    );
    this.trace.push(`  #${index} [${faults.log.join(', ')}] = ${outcome}`);
  }

  private tally(acked: boolean): void {
    if (acked) this.acknowledged++;
    else this.unacknowledged++;
  }

  async settleLate(): Promise<void> {
    while (this.late.length) await Promise.all(this.late.splice(0));
  }
}

/** Runs a schedule and compares each workspace's counts with the reference. */
export async function runSchedule(world: FaultWorld, schedule: Schedule): Promise<ScheduleResult> {
  const run = new ScheduleRun(world, schedule);
  await run.setup();
  for (const group of schedule.groups) {
    await Promise.all(group.map(({ op, index }) => run.run(op, index)));
    // Writes still landing after their caller was told they failed land before the next group starts.
    await run.settleLate();
  }
  const result: ScheduleResult = {
    seed: schedule.seed,
    lost: 0,
    doubled: 0,
    totalsOff: 0,
    lines: [],
    acknowledged: run.acknowledged,
    unacknowledged: run.unacknowledged,
    unexpected: run.unexpected,
    faults: run.faults,
    trace: run.trace.map((line) => (typeof line === 'string' ? line : line())),
  };
  for (const [i, w] of schedule.workspaces.entries()) {
    const loaded = await retrying(
      'the check load',
      () =>
        expireAsTtlWould(world.checkClient, world.tableName, w.id)
          .then(() => loadAsContainer(world.settings, world.checkClient, w.id))
          .catch((err: unknown): typeof AGAIN => {
            if (isDatabaseUnavailable(err)) return AGAIN;
            throw err;
          }),
      PATIENT,
    );
    const c = run.refs[i].compare(loaded.labels, loaded.sketchKey);
    result.lost += c.lost;
    result.doubled += c.doubled;
    result.totalsOff += c.totalsOff;
    result.lines.push(...c.lines.map((line) => `ws${i} ${line}`));
  }
  return result;
}
