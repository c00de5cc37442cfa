import { removePortRecord } from '../../lib/local/port-record';
import { removeAdminCli, removeCompileCache } from './admin-cli-bundle';

export default async function globalTeardown(): Promise<void> {
  const db = (globalThis as { __sasTestDb?: { port: number; stop(): Promise<void> } }).__sasTestDb;
  if (db) removePortRecord(db.port);
  await db?.stop();
  removeAdminCli(process.env.TEST_ADMIN_CLI);
  removeCompileCache();
}
