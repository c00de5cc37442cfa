// The request path's world: DynamoDB Local, tables, a partner and its keys, the real handlers, counted calls.
import { AdminService } from '../../lib/admin';
import { ephemeralCredentials } from '../../lib/local/credentials';
import { IN_MEMORY, type RunningDynamoDb, startDynamoDbLocal } from '../../lib/local/dynamodb-local';
import { ensureTables, tableNamesWithPrefix, type TableNames } from '../../lib/local/provision';
import { DEFAULT_SETTINGS } from '../../lambdas/contract/settings';
import { type Service, createService } from '../../lambdas/service';
import { DynamoAccessStore } from '../../lambdas/stores/access-store';
import { createDocumentClient } from '../../lambdas/stores/dynamodb-client';
import { CallCounter } from './call-counter';
import { progress } from './common';
import { makeEmails } from './emails';

export interface World {
  db: RunningDynamoDb;
  names: TableNames;
  admin: AdminService;
  adminClient: ReturnType<typeof createDocumentClient>;
  /** The service under test; its handlers are what local mode serves. */
  handlers: Service;
  counter: CallCounter;
  /** Puts the counter on the service's client or takes it off: timed loops measure the client as deployed. */
  counting(on: boolean): void;
  workspace: string;
  /** A warm key: the authorizer has it cached once the first request passed. */
  key: string;
  newKey(): Promise<string>;
  /** A typical request body: a ~2 KB e-mail. */
  body: string;
}

export async function startWorld(): Promise<World> {
  progress('starting DynamoDB Local (in memory) ...');
  const db = await startDynamoDbLocal({
    port: 0,
    dataDir: IN_MEMORY,
    credentials: ephemeralCredentials(DEFAULT_SETTINGS.region),
  });
  const names = tableNamesWithPrefix(`bench-${Date.now().toString(36)}-`);
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ||= 'true';
  // Generous attempts: a JVM pause on a loaded machine must not fail the set-up (or retry a write that landed).
  const adminClient = createDocumentClient({ ...db.clientOptions, requestTimeoutMs: 4_000 });
  try {
    await ensureTables(adminClient, names);
    const admin = new AdminService(new DynamoAccessStore(adminClient, names.access, names.decisions));
    const workspace = 'ws_bench';
    await admin.createPartner({ id: 'bench', name: 'Bench partner' });
    const newKey = async () =>
      (await admin.createKey({ partnerId: 'bench', workspaces: [workspace], env: 'test' })).key;
    const service = createService({
      ...DEFAULT_SETTINGS,
      ...db.settings,
      accessTableName: names.access,
      decisionsTableName: names.decisions,
      authCacheTtlSeconds: 300,
      dynamodbRequestTimeoutMs: 4_000,
      logLevel: 'WARN',
      metricsEnabled: false,
    });
    // The service's own client, counted in-process.
    const counter = new CallCounter();
    const stack = service.dependencies.client.middlewareStack;
    const counting = (on: boolean) => {
      stack.remove('benchCallCounter');
      if (!on) return;
      stack.add(
        (next, context) => async (args) => {
          counter.record(String(context.commandName ?? 'unknown'), (args.input ?? {}) as Record<string, unknown>);
          return next(args);
        },
        { step: 'initialize', name: 'benchCallCounter' },
      );
    };
    counting(true);
    const [email] = makeEmails(1, 2_000, 7);
    const body = JSON.stringify({
      ...email,
      workspace_id: workspace,
      received_at: new Date(Date.now() - 3_600_000).toISOString(),
    });
    return {
      db,
      names,
      admin,
      adminClient,
      handlers: service,
      counter,
      counting,
      workspace,
      key: await newKey(),
      newKey,
      body,
    };
  } catch (err) {
    adminClient.destroy();
    await db.stop();
    throw err;
  }
}

export async function stopWorld(world: World): Promise<void> {
  world.handlers.close();
  world.adminClient.destroy();
  await world.db.stop();
}
