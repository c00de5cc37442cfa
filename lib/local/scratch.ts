// A throwaway world in one process, for the bench, the load test and the learning eval: DynamoDB Local in memory
// (its own secret id), tables under a fresh prefix, a partner that can issue test keys, and the service on them.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { AdminService } from '../admin';
import { DEFAULT_SETTINGS, type Settings } from '../../lambdas/contract/settings';
import { type Service, createService } from '../../lambdas/service';
import { DynamoAccessStore } from '../../lambdas/stores/access-store';
import { createDocumentClient } from '../../lambdas/stores/dynamodb-client';
import { ephemeralCredentials } from './credentials';
import { IN_MEMORY, type RunningDynamoDb, startDynamoDbLocal } from './dynamodb-local';
import { type TableNames, ensureTables, tableNamesWithPrefix } from './provision';

export interface Scratch {
  db: RunningDynamoDb;
  names: TableNames;
  /** The set-up's own client: generous attempts, so a JVM pause on a loaded machine does not fail the set-up. */
  client: DynamoDBDocumentClient;
  admin: AdminService;
  /** The service under test, on its own client, as a Lambda builds it. */
  service: Service;
  /** A new test key of the partner, granted `workspaces`. */
  newKey(): Promise<string>;
  stop(): Promise<void>;
}

export async function startScratch(options: {
  /** Begins the tables' names. */
  name: string;
  partner: string;
  workspaces: string[];
  settings?: Partial<Settings>;
  /** DynamoDB Local with both JIT tiers: for the runs that time requests against it (the bench, load, soak). */
  fullJit?: boolean;
}): Promise<Scratch> {
  const credentials = ephemeralCredentials(DEFAULT_SETTINGS.region);
  const db = await startDynamoDbLocal({ port: 0, dataDir: IN_MEMORY, credentials, fullJit: options.fullJit });
  const names = tableNamesWithPrefix(`${options.name}-${Date.now().toString(36)}-`);
  const client = createDocumentClient({ ...db.clientOptions, requestTimeoutMs: 4_000 });
  const service = createService({
    ...DEFAULT_SETTINGS,
    ...db.settings,
    accessTableName: names.access,
    decisionsTableName: names.decisions,
    metricsEnabled: false,
    ...options.settings,
  });
  const stop = async () => {
    service.close();
    client.destroy();
    await db.stop();
  };
  try {
    await ensureTables(client, names);
    const admin = new AdminService(new DynamoAccessStore(client, names.access, names.decisions));
    await admin.createPartner({ id: options.partner, name: `${options.partner} partner` });
    const newKey = async () =>
      (await admin.createKey({ partnerId: options.partner, workspaces: options.workspaces, env: 'test' })).key;
    return { db, names, client, admin, service, newKey, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
