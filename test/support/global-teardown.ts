import { removePortRecord } from '../../lib/local/port-record';

export default async function globalTeardown(): Promise<void> {
  const db = (globalThis as { __sasTestDb?: { port: number; stop(): Promise<void> } }).__sasTestDb;
  if (db) removePortRecord(db.port);
  await db?.stop();
}
