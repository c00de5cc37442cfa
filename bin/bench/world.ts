// The request path's world: DynamoDB Local, tables, a partner and its keys, the real handlers, counted calls.
import type { WorkspacePolicy } from '../../lambdas/domain/policy';
import { type Scratch, startScratch } from '../../lib/local/scratch';
import { CallCounter } from './call-counter';
import { progress } from './common';
import { makeEmails } from './emails';
import { type HandlerResult, analyzeEvents, inProcess } from './requests';

export interface World extends Scratch {
  counter: CallCounter;
  /** Puts the counter on the service's client or takes it off: timed loops measure the client as deployed. */
  counting(on: boolean): void;
  workspace: string;
  /** A warm key: the authorizer has it cached once the first request passed. */
  key: string;
  /** A typical request body: a ~2 KB e-mail. */
  body: string;
  /** The typical body sent to another workspace. */
  bodyFor(workspace: string): string;
  /** A new test key of the bench partner granted `workspace` only (and its options, such as a rate limit). */
  keyFor(workspace: string, rateLimit?: string): Promise<{ key: string; key_id: string }>;
  /** POST analyze in-process (the world's key and body unless given). */
  analyze(key?: string, body?: string, idempotencyKey?: string): Promise<HandlerResult>;
  /** Stores `policy` for `workspace` and drops the cached one, as the policy route does. */
  putPolicy(workspace: string, policy: WorkspacePolicy): Promise<void>;
}

export async function startWorld(): Promise<World> {
  progress('starting DynamoDB Local (in memory) ...');
  const workspace = 'ws_bench';
  const scratch = await startScratch({
    name: 'bench',
    fullJit: true,
    partner: 'bench',
    workspaces: [workspace],
    settings: { authCacheTtlSeconds: 300, dynamodbRequestTimeoutMs: 4_000, logLevel: 'WARN' },
  });
  // The service's own client, counted in-process.
  const counter = new CallCounter();
  const stack = scratch.service.dependencies.client.middlewareStack;
  const counting = (on: boolean) => {
    stack.remove('benchCallCounter');
    if (on) counter.attach(stack, 'benchCallCounter');
  };
  counting(true);
  const [email] = makeEmails(1, 2_000, 7);
  const body = JSON.stringify({
    ...email,
    workspace_id: workspace,
    received_at: new Date(Date.now() - 3_600_000).toISOString(),
  });
  const deps = scratch.service.dependencies;
  try {
    const key = await scratch.newKey();
    return {
      ...scratch,
      counter,
      counting,
      workspace,
      key,
      body,
      bodyFor: (ws) => JSON.stringify({ ...(JSON.parse(body) as object), workspace_id: ws }),
      keyFor: (ws, rateLimit) =>
        scratch.admin.createKey({ partnerId: 'bench', workspaces: [ws], env: 'test', rateLimit }),
      analyze: (k = key, b = body, idempotencyKey) => inProcess(scratch.service, analyzeEvents(k, b, idempotencyKey)),
      putPolicy: async (ws, policy) => {
        await deps.workspaceStore.putPolicy(ws, policy, undefined, new Date().toISOString(), { actor: 'local:bench' });
        deps.workspaces.invalidate(ws);
      },
    };
  } catch (err) {
    await scratch.stop();
    throw err;
  }
}
