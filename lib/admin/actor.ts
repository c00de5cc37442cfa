// Who runs the admin CLI, as its audit events name them (docs/operations.md, "Audit log"): `local:<OS user>` locally,
// the caller's AWS principal ARN with `--aws` (STS GetCallerIdentity: the identity the writes are signed with).
import { userInfo } from 'node:os';
import { actorForLocalUser } from '../../lambdas/domain/audit';
import { AdminInputError } from './operator-input';

export function localActor(): string {
  let user: string | undefined;
  try {
    user = userInfo().username;
  } catch {
    // No passwd entry for this uid (some containers): the environment's name, else the uid.
  }
  return actorForLocalUser(
    user || process.env.USER || process.env.USERNAME || `uid-${process.getuid?.() ?? 'unknown'}`,
  );
}

/**
 * With `--aws`, the CLI's writes are timed by this machine's clock: a workspace's entries (import, policy, forget) are
 * ordered by their writer's, and a fold it runs sets the mark the containers read from (docs/learning.md,
 * "Corrections at the price of a write"). Lambda hosts agree within milliseconds; a laptop's clock may not.
 */
const CLOCK_TOLERANCE_MS = 2_000;

/**
 * Why this machine's clock is too far from the one that answered (an HTTP `Date`: whole seconds), if it is: the
 * request sent at `sentMs` and its answer read at `readMs` by this clock.
 */
export function clockProblem(serverDate: string | undefined, sentMs: number, readMs: number): string | undefined {
  const serverMs = serverDate === undefined ? NaN : Date.parse(serverDate);
  if (!Number.isFinite(serverMs)) return undefined;
  // The answer was made in [serverMs, serverMs + 1 s) and between sending and reading: only what is beyond both
  // counts, so a slow network never reads as a skewed clock.
  const behind = serverMs - readMs;
  const ahead = sentMs - (serverMs + 1000);
  if (behind <= CLOCK_TOLERANCE_MS && ahead <= CLOCK_TOLERANCE_MS) return undefined;
  const [word, ms] = behind > 0 ? ['behind', behind] : ['ahead of', ahead];
  return (
    `this machine's clock is at least ${Math.floor(ms / 1000)} s ${word} AWS's: a workspace's learning is ordered by ` +
    "the writers' clocks, so its changes could be missed. Synchronize the clock (NTP) and run the command again"
  );
}

/** The caller's principal ARN, after checking this machine's clock against STS's answer (clockProblem). */
export async function awsActor(region?: string): Promise<string> {
  // Loaded only with --aws: local commands, local mode and the tests import this file for localActor.
  const { GetCallerIdentityCommand, STSClient } = await import('@aws-sdk/client-sts');
  const sts = new STSClient({ region });
  let clock: { date?: string; sentMs: number; readMs: number } | undefined;
  sts.middlewareStack.add(
    (next) => async (args) => {
      const sentMs = Date.now();
      const out = await next(args);
      const date = (out.response as { headers?: Record<string, string> }).headers?.date;
      clock = { date, sentMs, readMs: Date.now() };
      return out;
    },
    { step: 'deserialize', name: 'serverDate' },
  );
  try {
    const out = await sts.send(new GetCallerIdentityCommand({}));
    if (!out.Arn) throw new Error('STS answered no ARN');
    const problem = clock && clockProblem(clock.date, clock.sentMs, clock.readMs);
    if (problem) throw new AdminInputError(problem);
    return out.Arn;
  } finally {
    sts.destroy();
  }
}
