// The fault-schedule test of learning counts (docs/learning.md, "Fault-schedule test"): many seeded schedules
// (learning-faults-schedule.ts) run against DynamoDB Local through the route handlers, under injected faults
// (learning-faults-injector.ts), each compared with a reference model (learning-faults-model.ts). Used by
// test/integration/learning-faults.test.ts and by `npm run faults` (bin/learning-faults.ts).
import { AdminService } from '../../lib/admin';
import { type Service, createService } from '../../lambdas/service';
import { DynamoAccessStore } from '../../lambdas/stores/access-store';
import { createDocumentClient } from '../../lambdas/stores/dynamodb-client';
import { type TestTables, createTestTables, testEndpoint } from './dynamodb';
import { partnerWithKey, testSettings } from './local-api';
import { FAULT_KINDS, type FaultKind, installFaultInjector } from './learning-faults-injector';
import { type FaultWorld, type ScheduleResult, runSchedule } from './learning-faults-run';
import { scheduleFor } from './learning-faults-schedule';
import { foldOnce } from './learning-harness-adapter';

export interface FaultRun {
  world: FaultWorld;
  close(): Promise<void>;
}

/** Fresh tables, a partner whose key may use every `wsf_` workspace, and the writers' containers over faulty clients. */
/**
 * `containers`: the writers' containers, two by default, so that a request and its retry, or a forget and the next
 * feedback, may meet different cached workspaces, as behind API Gateway.
 */
export async function startFaultRun(label = 'faults', faultScale = 1, containers = 2): Promise<FaultRun> {
  const tables: TestTables = await createTestTables(label);
  const admin = new AdminService(new DynamoAccessStore(tables.client, tables.names.access, tables.names.decisions));
  const { key } = await partnerWithKey(admin, 'faults', ['wsf_*']);
  // Keys and grants cached for the run: the authorizer's reads are not what is tested.
  const settings = testSettings(tables, { authCacheTtlSeconds: 3_600 });
  const services: Service[] = Array.from({ length: containers }, () => {
    const client = createDocumentClient({ endpoint: testEndpoint(), requestTimeoutMs: 4_000 });
    installFaultInjector(client);
    return createService(settings, { client });
  });
  return {
    world: {
      settings,
      containers: services,
      checkClient: tables.client,
      tableName: tables.names.learning,
      apiKey: key,
      faultScale,
    },
    async close() {
      for (const c of services) c.dependencies.client.destroy();
      await tables.drop();
    },
  };
}

export interface FaultSummary {
  schedules: number;
  lost: number;
  doubled: number;
  totalsOff: number;
  /** Schedules whose counts differ from the reference, first seeds first. */
  failures: ScheduleResult[];
  /** Schedules that could not be run or checked at all (the harness's own trouble), with the error. */
  errors: { seed: number; error: string }[];
  unexpected: string[];
  acknowledged: number;
  unacknowledged: number;
  faults: Record<FaultKind, number>;
}

/**
 * Runs the schedules of seeds `firstSeed` .. `firstSeed + schedules - 1`, `parallel` at a time (each schedule on its
 * own workspaces). `onResult` sees each as it ends (progress, failures printed at once).
 */
export async function runFaultSchedules(
  run: FaultRun,
  options: { firstSeed: number; schedules: number; parallel?: number; runTag?: string },
  onResult?: (r: ScheduleResult) => void,
): Promise<FaultSummary> {
  const summary: FaultSummary = {
    schedules: 0,
    lost: 0,
    doubled: 0,
    totalsOff: 0,
    failures: [],
    errors: [],
    unexpected: [],
    acknowledged: 0,
    unacknowledged: 0,
    faults: Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>,
  };
  const runTag = options.runTag ?? Date.now().toString(36);
  let next = 0;
  const worker = async () => {
    while (next < options.schedules) {
      const seed = options.firstSeed + next++;
      try {
        const result = await runSchedule(run.world, scheduleFor(seed, runTag, foldOnce !== undefined));
        summary.schedules++;
        summary.lost += result.lost;
        summary.doubled += result.doubled;
        summary.totalsOff += result.totalsOff;
        summary.acknowledged += result.acknowledged;
        summary.unacknowledged += result.unacknowledged;
        summary.unexpected.push(...result.unexpected.map((u) => `seed ${seed} ${u}`));
        for (const [k, n] of result.faults) summary.faults[k] += n;
        if (result.lost || result.doubled || result.totalsOff) summary.failures.push(result);
        onResult?.(result);
      } catch (err) {
        summary.errors.push({ seed, error: String((err as Error).stack ?? err) });
      }
    }
  };
  await Promise.all(Array.from({ length: options.parallel ?? 12 }, worker));
  summary.failures.sort((a, b) => a.seed - b.seed);
  summary.errors.sort((a, b) => a.seed - b.seed);
  return summary;
}

/** The run's one-line result, as `npm run faults` prints it last. */
export const summaryLine = (s: FaultSummary) =>
  `${s.schedules} schedules, ${s.lost} counts lost, ${s.doubled} doubled` +
  (s.totalsOff ? `, ${s.totalsOff} text buckets off` : '') +
  (s.errors.length ? `, ${s.errors.length} schedules not run` : '');

/** A failing schedule as the report shows it: its seed, what is off, and its operations call by call. */
export function describeFailure(r: ScheduleResult): string {
  return [
    `seed ${r.seed}: ${r.lost} lost, ${r.doubled} doubled, ${r.totalsOff} text buckets off`,
    ...r.lines.map((l) => `  ${l}`),
    '  schedule (calls of each attempt; !fault where one was injected):',
    ...r.trace.map((l) => `  ${l}`),
    `  reproduce: npm run faults -- --seed ${r.seed} --schedules 1`,
  ].join('\n');
}
