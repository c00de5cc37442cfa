// `npm start`: local mode. The embedded DynamoDB, the tables, a demo partner and key, and the local HTTP API.
import './lexicon-index-check';
import { AdminService } from '../lib/admin';
import { LocalCredentialsError } from '../lib/local/credentials';
import { DataDirInUseError } from '../lib/local/data-dir-lock';
import { IN_MEMORY, JavaMissingError } from '../lib/local/dynamodb-local';
import { startEmbeddedDatabase } from '../lib/local/embedded-database';
import { watchLaunchers } from '../lib/local/parent-watch';
import { DOCS_PATH, docsPages } from '../lib/local/docs-pages';
import { ensureTables, tableNamesOf } from '../lib/local/provision';
import { startLocalServer } from '../lib/local/server';
import { type Settings, SettingsError, parseLocalSettings, parseSettings } from '../lambdas/contract/settings';
import { createService } from '../lambdas/service';
import { DynamoAccessStore } from '../lambdas/stores/access-store';
import { createDocumentClient } from '../lambdas/stores/dynamodb-client';

const DEMO_PARTNER = 'demo';
const DEMO_WORKSPACE = 'ws_demo';
const DEMO_KEY_DESCRIPTION = 'local demo key';

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
    // The demo's own workspace: another partner's key on it (exactly or by a prefix such as `ws_*`) was granted with
    // --allow-shared, so the sharing is already allowed; refusing it here stopped every later start.
    allowShared: true,
  });
  return { key: issued.key, firstStart };
}

async function main() {
  let local: ReturnType<typeof parseLocalSettings>;
  let settings: Settings;
  try {
    local = parseLocalSettings(process.env);
    // Local defaults under the same parser the Lambdas use; anything set in the environment wins.
    settings = parseSettings({ POWERTOOLS_LOG_LEVEL: 'WARN', POWERTOOLS_METRICS_DISABLED: 'true', ...process.env });
  } catch (err) {
    if (!(err instanceof SettingsError)) throw err;
    console.error(err.message);
    process.exit(2);
  }
  const dataDir = local.dataDir;

  // Until the database is up, stopping is exiting: process.exit runs the 'exit' handler that kills the JVM, which a
  // death by the signal itself would not. So the handlers are there before the JVM is spawned.
  let stop: (code: number) => Promise<void> = (code) => process.exit(code);
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  const db = await startEmbeddedDatabase({
    port: local.dynamodbPort,
    dataDir,
    region: settings.region,
    log: (line) => console.log(line),
    onFatal: (message) => {
      console.error(`local mode stops: ${message}`);
      void stop(1);
    },
  });
  // The service's client goes through the embedded database's agent, which sends nothing to a foreign listener.
  const serviceClient = createDocumentClient({
    ...db.clientOptions,
    requestTimeoutMs: settings.dynamodbRequestTimeoutMs,
  });
  const service = createService({ ...settings, ...db.settings }, { client: serviceClient });
  let server: Awaited<ReturnType<typeof startLocalServer>> | undefined;
  let stopping = false;
  stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await server?.close().catch(() => undefined);
    service.close();
    serviceClient.destroy();
    await db.stop();
    process.exit(code);
  };
  watchLaunchers(() => void stop(0));

  try {
    // Provisioning gets its own client with room to wait: creating a table (or adding an index to kept data) can take
    // DynamoDB Local seconds on a busy machine, far more than a request's DYNAMODB_REQUEST_TIMEOUT_MS.
    const client = createDocumentClient({ ...db.clientOptions, requestTimeoutMs: 30_000 });
    let demo: Awaited<ReturnType<typeof seedDemo>>;
    try {
      // The names the service reads, LEARNING_TABLE_NAME's included (settings.ts).
      await ensureTables(client, tableNamesOf(settings));
      demo = await seedDemo(
        new AdminService(new DynamoAccessStore(client, settings.accessTableName, settings.decisionsTableName)),
      );
    } finally {
      client.destroy();
    }

    server = await startLocalServer({
      port: local.port,
      handlers: service,
      accessLog: (line) => console.log(line),
      pages: docsPages({ workspaceId: DEMO_WORKSPACE }),
    });
    const where = dataDir === IN_MEMORY ? 'in memory (nothing is kept)' : `in ${dataDir}`;
    console.log(`Signal Analysis Service (local mode): DynamoDB Local on port ${db.port}, data ${where}`);
    for (const notice of db.notices) console.log(`  ${notice}`);
    console.log(`listening on ${server.baseUrl}`);
    console.log('');
    console.log(
      `Demo partner "${DEMO_PARTNER}", workspace "${DEMO_WORKSPACE}". ${demo.firstStart ? 'Demo key' : 'New demo key for this run'} (shown once):`,
    );
    console.log(`  ${demo.key}`);
    console.log('');
    console.log('Try it:');
    console.log(
      `  curl -s -X POST ${server.baseUrl}/signals/analyze -H "Authorization: Bearer ${demo.key}" -H "Content-Type: application/json" ` +
        `-d '{"workspace_id":"${DEMO_WORKSPACE}","source":"email","subject":"Production outage","body":"Our checkout is down for all customers since 09:10.","sender":"ops@example.com"}'`,
    );
    console.log('');
    console.log(`API reference: ${server.baseUrl.replace(/\/api\/v1$/, '')}${DOCS_PATH}`);
    console.log('');
    console.log('Ctrl-C stops the server and the database.');
  } catch (err) {
    console.error(`local mode failed to start: ${(err as Error).message}`);
    await stop(1);
  }
}

main().catch((err) => {
  const known =
    err instanceof JavaMissingError || err instanceof LocalCredentialsError || err instanceof DataDirInUseError;
  console.error(known ? err.message : `local mode failed to start: ${(err as Error).message}`);
  process.exit(1);
});
