// The local HTTP API (the real handlers behind lib/local/server.ts) on a free port, over this file's own tables.
import { AdminService } from '../../lib/admin';
import { loadHandlers, startLocalServer } from '../../lib/local/server';
import { DynamoAccessStore } from '../../lambdas/stores/access-store';
import { type TestTables, createTestTables, testEndpoint } from './dynamodb';

export interface TestApi {
  baseUrl: string;
  tables: TestTables;
  admin: AdminService;
  close(): Promise<void>;
}

/**
 * Handlers read their configuration from the environment on first use, and each jest test file has its own module
 * registry, so setting the environment before loading the handlers gives this file its own tables.
 */
export async function startTestApi(label: string, env: Record<string, string> = {}): Promise<TestApi> {
  const tables = await createTestTables(label);
  Object.assign(process.env, {
    DYNAMODB_ENDPOINT: testEndpoint(),
    ACCESS_TABLE_NAME: tables.names.access,
    DECISIONS_TABLE_NAME: tables.names.decisions,
    AUTH_CACHE_TTL_SECONDS: '0',
    POWERTOOLS_METRICS_DISABLED: 'true',
    POWERTOOLS_LOG_LEVEL: 'SILENT',
    ...env,
  });
  const server = await startLocalServer({ port: 0, handlers: await loadHandlers() });
  return {
    baseUrl: server.baseUrl,
    tables,
    admin: new AdminService(new DynamoAccessStore(tables.client, tables.names.access)),
    async close() {
      await server.close();
      await tables.drop();
    },
  };
}

/** A partner with one key on the given workspaces. */
export async function partnerWithKey(
  admin: AdminService,
  partnerId: string,
  workspaces: string[],
  status = 'active',
): Promise<{ key: string; keyId: string }> {
  await admin.createPartner({ id: partnerId, name: `Partner ${partnerId}`, status: 'active' });
  const issued = await admin.createKey({ partnerId, workspaces });
  if (status !== 'active') await admin.setPartnerStatus(partnerId, status);
  return { key: issued.key, keyId: issued.key_id };
}
