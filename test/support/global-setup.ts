// One in-memory DynamoDB Local for the whole test run, on a free port. Each test file creates its own tables.
// It runs hardened like local mode's (no telemetry, no web origin, one database per access key id) but with the
// well-known test credentials, so every test client reaches the run's tables without being told a secret: it holds
// only data the tests make. The port record lets the admin CLI, run by tests, find it as it finds local mode's.
import { startDynamoDbLocal } from '../../lib/local/dynamodb-local';
import { writePortRecord } from '../../lib/local/port-record';
import { buildAdminCli, compileCacheDir } from './admin-cli-bundle';

export default async function globalSetup(): Promise<void> {
  const db = await startDynamoDbLocal({ port: 0, dataDir: ':memory:' });
  writePortRecord({ ...db.credentials, port: db.port, pid: process.pid, dataDir: ':memory:' });
  // Workers are started after this and inherit the environment.
  process.env.TEST_DYNAMODB_ENDPOINT = db.endpoint;
  process.env.TEST_ADMIN_CLI = await buildAdminCli();
  // Node's on-disk code cache for every Node process of the run (workers, the admin CLI's ~200 starts, local mode's
  // children): a start after the first compiles nothing it compiled before (docs/performance.md, "The test run").
  process.env.NODE_COMPILE_CACHE = compileCacheDir();
  (globalThis as { __sasTestDb?: typeof db }).__sasTestDb = db;
}
