// The fault injector of the fault-schedule test (docs/learning.md, "Fault-schedule test"): a middleware on the
// DynamoDB DocumentClient that, for the calls one request attempt makes, fails some as the seed chooses. It sits at
// the `initialize` step, above the SDK's own retries: a fault here is one the SDK's attempts did not cure, which the
// store sees (the `resend` fault is the SDK's own retry of a write whose answer was lost: the same request twice).
//
// The lost answer (`lost`, `resend`, and `timeout` when the write lands) is SIMULATED: DynamoDB Local cannot lose an
// answer for real, so the call is sent, lands, and then the middleware throws the retryable error the SDK would give.
// A mock only for a fault we cannot cause for real, as the developers' guide allows.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { sleep } from '../../lambdas/domain/retry';

export const FAULT_KINDS = ['before', 'lost', 'timeout', 'resend', 'delay', 'stop'] as const;
/**
 * - before: refused before it is sent (a throttle or a 5xx): nothing lands.
 * - lost: sent, landed, then the answer lost (a retryable TimeoutError).
 * - timeout: the caller gives up after a few ms while the call is on its way: it lands a little later, or before.
 * - resend: the SDK's retry of a call whose answer was lost: it lands twice, the second answer is returned.
 * - delay: held up to 30 ms before it is sent (its landing delayed, so concurrent writers pass it).
 * - stop: the writer dies before this call: it and every later call of the request fail, and nobody retries.
 */
export type FaultKind = (typeof FAULT_KINDS)[number];

const WEIGHTS: Record<FaultKind, number> = { before: 30, lost: 25, timeout: 12, resend: 13, delay: 12, stop: 8 };

/** One request attempt's faults: drawn call by call from its own seeded random numbers. */
export interface AttemptFaults {
  random: () => number;
  /** Chance that a call gets a fault. */
  rate: number;
  /** What happened, call by call (command and key prefix, fault): the failure report's trace. */
  log: string[];
  /** The writer stopped: every later call fails. */
  dead: boolean;
  /** Calls still landing after the caller was told they failed (`timeout`): awaited before the counts are checked. */
  late: Promise<unknown>[];
  /** Faults injected, by kind (the run's figures). */
  counts: Map<FaultKind, number>;
}

/** DynamoDB calls the injector saw (faulted or not): the run's cost figure. */
export const callsSeen = { n: 0 };

/**
 * The stopped writer's calls fail with this. Its own request is abandoned whatever it answers; another request that
 * shares the failed call (a container's concurrent requests share one load of a workspace) sees an unreachable
 * database, a 503 its SDK retries, as it would when the writer's process died.
 */
export class WriterStopped extends Error {
  override readonly name = 'WriterStopped';
  readonly $metadata = { httpStatusCode: 503 };
}

const attempts = new AsyncLocalStorage<AttemptFaults>();

/** Runs `work` (a route handler's run) with `faults` applied to every DynamoDB call it makes. */
export const withFaults = <T>(faults: AttemptFaults, work: () => Promise<T>): Promise<T> => attempts.run(faults, work);

const retryable = (name: string, message: string) =>
  Object.assign(new Error(`injected fault: ${message}`), { name, $metadata: { httpStatusCode: 503 } });

function pick(random: () => number): FaultKind {
  const total = Object.values(WEIGHTS).reduce((a, b) => a + b, 0);
  let r = random() * total;
  for (const kind of FAULT_KINDS) if ((r -= WEIGHTS[kind]) < 0) return kind;
  return 'before';
}

/** `UpdateItem wshead#` for the trace: the command and its first key's prefix (no ids, no text). */
function describe(commandName: string, input: Record<string, unknown>): string {
  const key =
    (input.Key as { pk?: unknown } | undefined)?.pk ??
    (input.Item as { pk?: unknown } | undefined)?.pk ??
    (input.TransactItems as { Update?: { Key?: { pk?: unknown } }; Put?: { Item?: { pk?: unknown } } }[] | undefined)
      ?.map((t) => t.Update?.Key?.pk ?? t.Put?.Item?.pk)
      .join('+');
  const prefixes = typeof key === 'string' ? key.split('+').map((k) => k.split('#')[0]) : [];
  return `${commandName.replace(/Command$/, '')}${prefixes.length ? ` ${prefixes.join('+')}` : ''}`;
}

/** Adds the injector to `client` (calls outside `withFaults` pass untouched). */
export function installFaultInjector(client: DynamoDBDocumentClient): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      callsSeen.n++;
      const faults = attempts.getStore();
      if (!faults) return next(args);
      const call = describe(String(context.commandName ?? ''), args.input as Record<string, unknown>);
      if (faults.dead) throw new WriterStopped(`stopped before ${call}`);
      if (faults.random() >= faults.rate) {
        faults.log.push(call);
        return next(args);
      }
      const kind = pick(faults.random);
      faults.log.push(`${call} !${kind}`);
      faults.counts.set(kind, (faults.counts.get(kind) ?? 0) + 1);
      switch (kind) {
        case 'before':
          throw retryable('ServiceUnavailable', 'not sent');
        case 'lost':
          await next(args);
          throw retryable('TimeoutError', 'landed, answer lost');
        case 'timeout': {
          const landing = sleep(faults.random() * 20).then(() => next(args));
          faults.late.push(landing.catch(() => undefined));
          await sleep(faults.random() * 10);
          throw retryable('TimeoutError', 'timed out');
        }
        case 'resend':
          await next(args).catch(() => undefined);
          return next(args);
        case 'delay':
          await sleep(faults.random() * 30);
          return next(args);
        case 'stop':
          faults.dead = true;
          throw new WriterStopped(`stopped before ${call}`);
      }
    },
    { step: 'initialize', name: 'learningFaultInjector', priority: 'high' },
  );
}
