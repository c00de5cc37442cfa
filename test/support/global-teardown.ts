export default async function globalTeardown(): Promise<void> {
  const db = (globalThis as { __sasTestDb?: { stop(): Promise<void> } }).__sasTestDb;
  await db?.stop();
}
