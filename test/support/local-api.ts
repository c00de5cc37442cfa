// The local HTTP API (a service object behind lib/local/server.ts) on a free port, over this file's own tables.
import { AdminService } from '../../lib/admin';
import { startLocalServer } from '../../lib/local/server';
import { DEFAULT_SETTINGS, type Settings } from '../../lambdas/contract/settings';
import { type Service, createService } from '../../lambdas/service';
import { DynamoAccessStore } from '../../lambdas/stores/access-store';
import { type TestTables, createTestTables, testEndpoint } from './dynamodb';

export interface TestApi {
  baseUrl: string;
  tables: TestTables;
  admin: AdminService;
  service: Service;
  close(): Promise<void>;
}

/**
 * Settings for a service over the given tables in the run's DynamoDB Local: no auth cache, quiet, no metrics, and
 * database attempts long enough that a JVM pause on a loaded machine is not mistaken for an outage.
 */
export function testSettings(tables: TestTables, overrides: Partial<Settings> = {}): Settings {
  return {
    ...DEFAULT_SETTINGS,
    dynamodbEndpoint: testEndpoint(),
    accessTableName: tables.names.access,
    decisionsTableName: tables.names.decisions,
    authCacheTtlSeconds: 0,
    dynamodbRequestTimeoutMs: 4_000,
    logLevel: 'SILENT',
    metricsEnabled: false,
    ...overrides,
  };
}

/** Fresh tables and a service over them for the whole test file (its beforeAll and afterAll), dropped after it. */
export function serviceForFile(label: string): { tables: TestTables; service: Service } {
  const world = {} as { tables: TestTables; service: Service };
  beforeAll(async () => {
    world.tables = await createTestTables(label);
    world.service = createService(testSettings(world.tables));
  });
  afterAll(async () => {
    world.service?.close();
    await world.tables?.drop();
  });
  return world;
}

/**
 * The clock of rate-limit windows (and grant caching) for a file that counts requests in an hour's window: real time,
 * moved to the middle of the hour it starts in, so the file's requests share one window whenever it runs (on the real
 * clock, one run in about a thousand crossed the top of the hour between two requests and its counter reset).
 */
export function midHourClock(): () => number {
  const start = Date.now();
  const middle = Math.floor(start / 3_600_000) * 3_600_000 + 1_800_000;
  return () => middle + (Date.now() - start);
}

/** A service of its own over fresh tables, behind the local HTTP server. */
export async function startTestApi(
  label: string,
  overrides: Partial<Settings> = {},
  { clock }: { clock?: () => number } = {},
): Promise<TestApi> {
  const tables = await createTestTables(label);
  const service = createService(testSettings(tables, overrides), { clock });
  const server = await startLocalServer({ port: 0, handlers: service });
  return {
    baseUrl: server.baseUrl,
    tables,
    service,
    admin: new AdminService(new DynamoAccessStore(tables.client, tables.names.access, tables.names.decisions)),
    async close() {
      await server.close();
      service.close();
      await tables.drop();
    },
  };
}

/**
 * A partner with one key on the given workspaces. Tests give several partners the same workspace on purpose (to
 * check that refusals come in the contract's order), so the cross-partner check is waived here.
 */
export async function partnerWithKey(
  admin: AdminService,
  partnerId: string,
  workspaces: string[],
  status = 'active',
): Promise<{ key: string; keyId: string }> {
  await admin.createPartner({ id: partnerId, name: `Partner ${partnerId}`, status: 'active' });
  const issued = await admin.createKey({ partnerId, workspaces, allowShared: true });
  if (status !== 'active') await admin.setPartnerStatus(partnerId, status);
  return { key: issued.key, keyId: issued.key_id };
}

/**
 * A test API with partner `acme` holding one key granted `workspaces`: started before the calling file's tests and
 * closed after them. Read `api` and `key` inside tests (they are set by then).
 */
export function useApiWithKey(
  label: string,
  workspaces: string[],
  overrides: Partial<Settings> = {},
): { api: TestApi; key: string } {
  const t = {} as { api: TestApi; key: string };
  beforeAll(async () => {
    t.api = await startTestApi(label, overrides);
    ({ key: t.key } = await partnerWithKey(t.api.admin, 'acme', workspaces));
  }, 60_000);
  afterAll(async () => t.api?.close());
  return t;
}

/**
 * A test API with partner `acme` holding two keys, A granted `workspacesA` and B `workspacesB` (for what one key may
 * see of another's requests): started before the calling file's tests and closed after them.
 */
export function useApiWithTwoKeys(
  label: string,
  workspacesA: string[],
  workspacesB: string[],
): { api: TestApi; keyA: string; keyAId: string; keyB: string } {
  const t = {} as { api: TestApi; keyA: string; keyAId: string; keyB: string };
  beforeAll(async () => {
    t.api = await startTestApi(label);
    await t.api.admin.createPartner({ id: 'acme', name: 'Acme', status: 'active' });
    const a = await t.api.admin.createKey({ partnerId: 'acme', workspaces: workspacesA });
    const b = await t.api.admin.createKey({ partnerId: 'acme', workspaces: workspacesB });
    Object.assign(t, { keyA: a.key, keyAId: a.key_id, keyB: b.key });
  }, 60_000);
  afterAll(async () => t.api?.close());
  return t;
}
