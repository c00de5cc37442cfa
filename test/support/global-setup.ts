// One in-memory DynamoDB Local for the whole test run, on a free port. Each test file creates its own tables.
import { startDynamoDbLocal } from '../../lib/local/dynamodb-local';

export default async function globalSetup(): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const db = await startDynamoDbLocal({ port: 0, dataDir: ':memory:' });
  // Workers are started after this and inherit the environment.
  process.env.TEST_DYNAMODB_ENDPOINT = db.endpoint;
  (globalThis as { __sasTestDb?: typeof db }).__sasTestDb = db;
}
