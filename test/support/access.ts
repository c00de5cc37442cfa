// The access store and the admin service on a test file's own DynamoDB Local tables, and the principal the
// authorizer hands a route.
import type { Principal } from '../../lambdas/domain/principal';
import type { Scope } from '../../lambdas/contract/routes';
import { DynamoAccessStore } from '../../lambdas/stores/access-store';
import { AdminService } from '../../lib/admin';
import { type TestTables, createTestTables } from './dynamodb';

export interface AccessTables {
  tables: TestTables;
  /** Records its audit events in the decisions table. */
  store: DynamoAccessStore;
  admin: AdminService;
}

/** Fresh tables (drop them in afterAll), the access store and admin service on them, and `partners` (id: name) created. */
export async function accessOnTestTables(
  label: string,
  partners: Record<string, string>,
  adminOptions?: ConstructorParameters<typeof AdminService>[1],
): Promise<AccessTables> {
  const tables = await createTestTables(label);
  const store = new DynamoAccessStore(tables.client, tables.names.access, tables.names.decisions);
  const admin = new AdminService(store, adminOptions);
  for (const [id, name] of Object.entries(partners)) await admin.createPartner({ id, name });
  return { tables, store, admin };
}

/** What the authorizer allows for a key: by default an `analyze` key of partner acme. */
export const allowedPrincipal = (key_id: string, partner_id = 'acme', scopes: Scope[] = ['analyze']): Principal => ({
  outcome: 'allow',
  partner_id,
  key_id,
  scopes,
});

/**
 * accessOnTestTables for a whole test file: set up in beforeAll, tables dropped in afterAll. Its fields are there
 * once beforeAll has run.
 */
export function useAccessTables(
  label: string,
  partners: Record<string, string>,
  adminOptions?: ConstructorParameters<typeof AdminService>[1],
): AccessTables {
  const access = {} as AccessTables;
  beforeAll(async () => {
    Object.assign(access, await accessOnTestTables(label, partners, adminOptions));
  });
  afterAll(async () => {
    await access.tables?.drop();
  });
  return access;
}
