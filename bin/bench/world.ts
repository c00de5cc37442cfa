// The request path's world: DynamoDB Local, tables, a partner and its keys, the real handlers, counted calls.
import { AdminService } from '../../lib/admin';
import { type RunningDynamoDb, startDynamoDbLocal } from '../../lib/local/dynamodb-local';
import { ensureTables, tableNamesWithPrefix, type TableNames } from '../../lib/local/provision';
import { type Handlers, loadHandlers } from '../../lib/local/server';
import { DynamoAccessStore } from '../../lambdas/stores/access-store';
import { createDocumentClient, sharedDocumentClient } from '../../lambdas/stores/dynamodb-client';
import { CallCounter } from './call-counter';
import { progress } from './common';
import { makeEmails } from './emails';

export interface World {
  db: RunningDynamoDb;
  names: TableNames;
  admin: AdminService;
  adminClient: ReturnType<typeof createDocumentClient>;
  handlers: Handlers;
  counter: CallCounter;
  workspace: string;
  /** A warm key: the authorizer has it cached once the first request passed. */
  key: string;
  newKey(): Promise<string>;
  /** A typical request body: a ~2 KB e-mail. */
  body: string;
}

export async function startWorld(): Promise<World> {
  progress('starting DynamoDB Local (in memory) ...');
  const db = await startDynamoDbLocal({ port: 0, dataDir: ':memory:' });
  const names = tableNamesWithPrefix(`bench-${Date.now().toString(36)}-`);
  // The handlers read these on first use (and Powertools on import): set before loadHandlers().
  Object.assign(process.env, {
    DYNAMODB_ENDPOINT: db.endpoint,
    ACCESS_TABLE_NAME: names.access,
    DECISIONS_TABLE_NAME: names.decisions,
    AUTH_CACHE_TTL_SECONDS: '300',
    POWERTOOLS_METRICS_DISABLED: 'true',
    POWERTOOLS_LOG_LEVEL: 'WARN',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    AWS_REGION: process.env.AWS_REGION || 'us-east-1',
  });
  const adminClient = createDocumentClient({ endpoint: db.endpoint });
  try {
    await ensureTables(adminClient, names);
    const admin = new AdminService(new DynamoAccessStore(adminClient, names.access));
    const workspace = 'ws_bench';
    await admin.createPartner({ id: 'bench', name: 'Bench partner' });
    const newKey = async () => (await admin.createKey({ partnerId: 'bench', workspaces: [workspace], env: 'test' })).key;
    const handlers = await loadHandlers();
    // The handlers' own client (the module singleton of lambdas/stores/dynamodb-client.ts), counted in-process.
    const counter = new CallCounter();
    sharedDocumentClient().middlewareStack.add(
      (next, context) => async (args) => {
        counter.record(String(context.commandName ?? 'unknown'), (args.input ?? {}) as Record<string, unknown>);
        return next(args);
      },
      { step: 'initialize', name: 'benchCallCounter' },
    );
    const [email] = makeEmails(1, 2_000, 7);
    const body = JSON.stringify({ ...email, workspace_id: workspace, received_at: new Date(Date.now() - 3_600_000).toISOString() });
    return { db, names, admin, adminClient, handlers, counter, workspace, key: await newKey(), newKey, body };
  } catch (err) {
    adminClient.destroy();
    await db.stop();
    throw err;
  }
}

export async function stopWorld(world: World): Promise<void> {
  sharedDocumentClient().destroy();
  world.adminClient.destroy();
  await world.db.stop();
}

