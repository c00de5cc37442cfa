// What each Lambda may do on the tables, as data: the route table's declarations plus what every keyed route and
// the authorizer do, each statement limited to the items (partition-key prefixes) it needs. api.ts turns these into
// IAM statements; the stack test checks the template against them and test/cdk/iam-in-use.test.ts checks every
// DynamoDB call the handlers make in local mode against them (local mode does not enforce IAM).
import type { DecisionsItem, RouteDefinition, TableAction } from '../../lambdas/contract/routes';
import { ITEM_PREFIX } from '../../lambdas/contract/tables';

export type TableName = 'access' | 'decisions' | 'learning';

export interface TableGrant {
  table: TableName;
  /** DynamoDB action names without the `dynamodb:` prefix. */
  actions: string[];
  /** Partition-key prefixes every key of a call must start with (IAM dynamodb:LeadingKeys); absent: any item. */
  leadingKeys?: string[];
  /** An index of the table: the grant is on that index alone (its keys are not `pk`, so no prefixes). */
  index?: string;
}

/** The authorizer reads a key by its hash and, for an active key, its partner: nothing else. */
export const AUTHORIZER_ACCESS: readonly TableGrant[] = [
  { table: 'access', actions: ['GetItem'], leadingKeys: [ITEM_PREFIX.key, ITEM_PREFIX.partner] },
];

/** The fallback (404/405) reads no data. */
export const FALLBACK_ACCESS: readonly TableGrant[] = [];

/** What every keyed route does besides its own work (lambdas/http/api-handler.ts and workspace-access.ts). */
const KEYED_ROUTE_ACCESS: readonly TableGrant[] = [
  // Per-key rate limit counters: conditional ADDs on `rate#` items only.
  { table: 'decisions', actions: ['UpdateItem'], leadingKeys: [ITEM_PREFIX.rateWindow] },
  // The grant check: the exact grant and the key's prefix set, read only (BatchGetItem reads both at once).
  { table: 'access', actions: ['GetItem', 'BatchGetItem'], leadingKeys: [ITEM_PREFIX.grant, ITEM_PREFIX.prefixGrants] },
];

/**
 * A route's grants: one statement per set of actions that share the same items, because IAM checks all keys of a
 * batch call against one statement (ForAllValues), so an action's items cannot be split over statements.
 */
export function routeAccess(route: RouteDefinition): TableGrant[] {
  const byItems = new Map<string, { actions: string[]; items: readonly DecisionsItem[] }>();
  for (const [action, items] of Object.entries(route.decisions.actions) as [TableAction, readonly DecisionsItem[]][]) {
    if (!items.length) continue;
    const sorted = [...new Set(items)].sort();
    const group = byItems.get(sorted.join()) ?? { actions: [], items: sorted };
    group.actions.push(action);
    byItems.set(sorted.join(), group);
  }
  return [
    ...[...byItems.values()].map(({ actions, items }) => ({
      table: 'decisions' as const,
      actions,
      leadingKeys: items.map((item) => ITEM_PREFIX[item]),
    })),
    ...(route.decisions.indexes ?? []).map((index) => ({ table: 'decisions' as const, actions: ['Query'], index })),
    // The learning table's partition key is a workspace id: no item prefix to narrow by, only the actions.
    ...(route.learning?.length ? [{ table: 'learning' as const, actions: [...route.learning] }] : []),
    ...KEYED_ROUTE_ACCESS,
  ];
}

/** Whether `grants` allow `action` on a table (or index) for a call whose partition keys are `keys`. */
export function allows(
  grants: readonly TableGrant[],
  table: TableName,
  action: string,
  keys: string[],
  index?: string,
): boolean {
  return grants.some(
    (g) =>
      g.table === table &&
      g.index === index &&
      g.actions.includes(action) &&
      (!g.leadingKeys || keys.every((k) => g.leadingKeys!.some((prefix) => k.startsWith(prefix)))),
  );
}
