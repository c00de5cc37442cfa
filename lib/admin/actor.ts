// Who runs the admin CLI, as its audit events name them (docs/operations.md, "Audit log"): `local:<OS user>` locally,
// the caller's AWS principal ARN with `--aws` (STS GetCallerIdentity: the identity the writes are signed with).
import { userInfo } from 'node:os';
import { actorForLocalUser } from '../../lambdas/domain/audit';

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

export async function awsActor(region?: string): Promise<string> {
  // Loaded only with --aws: local commands, local mode and the tests import this file for localActor.
  const { GetCallerIdentityCommand, STSClient } = await import('@aws-sdk/client-sts');
  const sts = new STSClient({ region });
  try {
    const out = await sts.send(new GetCallerIdentityCommand({}));
    if (!out.Arn) throw new Error('STS answered no ARN');
    return out.Arn;
  } finally {
    sts.destroy();
  }
}
