// The request path's world: DynamoDB Local, tables, a partner and its keys, the real handlers, counted calls.
import { type Scratch, startScratch } from '../../lib/local/scratch';
import { CallCounter } from './call-counter';
import { progress } from './common';
import { makeEmails } from './emails';

export interface World extends Scratch {
  counter: CallCounter;
  /** Puts the counter on the service's client or takes it off: timed loops measure the client as deployed. */
  counting(on: boolean): void;
  workspace: string;
  /** A warm key: the authorizer has it cached once the first request passed. */
  key: string;
  /** A typical request body: a ~2 KB e-mail. */
  body: string;
}

export async function startWorld(): Promise<World> {
  progress('starting DynamoDB Local (in memory) ...');
  const workspace = 'ws_bench';
  const scratch = await startScratch({
    name: 'bench',
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
  try {
    const key = await scratch.newKey();
    return {
      ...scratch,
      counter,
      counting,
      workspace,
      key,
      body,
    };
  } catch (err) {
    await scratch.stop();
    throw err;
  }
}
