// `npm start`: local mode. The embedded DynamoDB, the tables, a demo partner and key, and the local HTTP API.
import { AdminService } from '../lib/admin';
import { IN_MEMORY, JavaMissingError, startDynamoDbLocal } from '../lib/local/dynamodb-local';
import { watchLaunchers } from '../lib/local/parent-watch';
import { ensureTables } from '../lib/local/provision';
import { loadHandlers, startLocalServer } from '../lib/local/server';
import { DynamoAccessStore } from '../lambdas/stores/access-store';
import { createDocumentClient } from '../lambdas/stores/dynamodb-client';

const DEMO_PARTNER = 'demo';
const DEMO_WORKSPACE = 'ws_demo';
const DEMO_KEY_DESCRIPTION = 'local demo key';

function portFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  const port = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    console.error(`${name} must be a port number (0 picks a free one), got "${raw}"`);
    process.exit(2);
  }
  return port;
}

/** First start: the demo partner, workspace and key. Later starts: a fresh demo key (only hashes are stored, so
 * the old one cannot be shown again), and older demo keys are revoked. */
async function seedDemo(admin: AdminService): Promise<{ key: string; firstStart: boolean }> {
  let firstStart = false;
  try {
    await admin.createPartner({ id: DEMO_PARTNER, name: 'Demo partner' });
    firstStart = true;
  } catch (err) {
    if ((err as Error).name !== 'AlreadyExistsError') throw err;
  }
  const { keys } = await admin.listKeys(DEMO_PARTNER);
  for (const old of keys) {
    if (old.description === DEMO_KEY_DESCRIPTION && old.status === 'active') await admin.revokeKey(old.key_id);
  }
  const issued = await admin.createKey({
    partnerId: DEMO_PARTNER,
    workspaces: [DEMO_WORKSPACE],
    env: 'test',
    description: DEMO_KEY_DESCRIPTION,
  });
  return { key: issued.key, firstStart };
}

async function main() {
  const port = portFromEnv('PORT', 3000);
  const dynamoPort = portFromEnv('LOCAL_DYNAMODB_PORT', 8000);
  const dataDir = process.env.LOCAL_DATA_DIR || '.local-data';

  // Local defaults; anything already set in the environment wins.
  process.env.ACCESS_TABLE_NAME ||= 'sas-access';
  process.env.DECISIONS_TABLE_NAME ||= 'sas-decisions';
  process.env.AWS_REGION ||= 'us-east-1';
  process.env.POWERTOOLS_METRICS_DISABLED ||= 'true';
  process.env.POWERTOOLS_LOG_LEVEL ||= 'WARN';
  // Node 20 runs the SDK fine; its upgrade notice would only clutter the console here.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ||= 'true';

  const db = await startDynamoDbLocal({ port: dynamoPort, dataDir });
  process.env.DYNAMODB_ENDPOINT = db.endpoint;
  let server: Awaited<ReturnType<typeof startLocalServer>> | undefined;
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await server?.close().catch(() => undefined);
    await db.stop();
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  watchLaunchers(() => void stop(0));

  try {
    const client = createDocumentClient({ endpoint: db.endpoint });
    const tables = { access: process.env.ACCESS_TABLE_NAME, decisions: process.env.DECISIONS_TABLE_NAME };
    await ensureTables(client, tables);
    const demo = await seedDemo(new AdminService(new DynamoAccessStore(client, tables.access)));
    client.destroy();

    server = await startLocalServer({
      port,
      handlers: await loadHandlers(),
      accessLog: (line) => console.log(line),
    });
    const where = dataDir === IN_MEMORY ? 'in memory (nothing is kept)' : `in ${dataDir}`;
    console.log(`Signal Analysis Service (local mode): DynamoDB Local on port ${db.port}, data ${where}`);
    console.log(`listening on ${server.baseUrl}`);
    console.log('');
    console.log(`Demo partner "${DEMO_PARTNER}", workspace "${DEMO_WORKSPACE}". ${demo.firstStart ? 'Demo key' : 'New demo key for this run'} (shown once):`);
    console.log(`  ${demo.key}`);
    console.log('');
    console.log('Try it:');
    console.log(
      `  curl -s -X POST ${server.baseUrl}/signals/analyze -H "Authorization: Bearer ${demo.key}" -H "Content-Type: application/json" ` +
        `-d '{"workspace_id":"${DEMO_WORKSPACE}","source":"email","subject":"Production outage","body":"Our checkout is down for all customers since 09:10.","sender":"ops@example.com"}'`,
    );
    console.log('');
    console.log('Ctrl-C stops the server and the database.');
  } catch (err) {
    console.error(`local mode failed to start: ${(err as Error).message}`);
    await stop(1);
  }
}

main().catch((err) => {
  console.error(err instanceof JavaMissingError ? err.message : `local mode failed to start: ${(err as Error).message}`);
  process.exit(1);
});
