// What each Lambda may do on the tables, as data: the route table's declarations plus what every keyed route and
// the authorizer do, each statement limited to the items (partition-key prefixes) it needs. api.ts turns these into
// IAM statements; the stack test checks the template against them and test/cdk/iam-in-use.test.ts checks every
// DynamoDB call the handlers make in local mode against them (local mode does not enforce IAM). During the first step
// of an upgrade from version 3, version 3's retired item permissions too (test/cdk/iam-upgrade.test.ts checks them).
import type { DecisionsItem, RouteDefinition, RouteId, TableAction } from '../../lambdas/contract/routes';
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

/** An item kind, named by its partition-key prefix. */
type ItemKind = keyof typeof ITEM_PREFIX;

/**
 * One decisions-table statement per set of actions that share the same items, because IAM checks all keys of a batch
 * call against one statement (ForAllValues), so an action's items cannot be split over statements.
 */
function decisionsGrants(actions: Partial<Record<TableAction, readonly ItemKind[]>>): TableGrant[] {
  const byItems = new Map<string, { actions: string[]; items: readonly ItemKind[] }>();
  for (const [action, items] of Object.entries(actions) as [TableAction, readonly ItemKind[]][]) {
    if (!items.length) continue;
    const sorted = [...new Set(items)].sort();
    const group = byItems.get(sorted.join()) ?? { actions: [], items: sorted };
    group.actions.push(action);
    byItems.set(sorted.join(), group);
  }
  return [...byItems.values()].map(({ actions, items }) => ({
    table: 'decisions' as const,
    actions,
    leadingKeys: items.map((item) => ITEM_PREFIX[item]),
  }));
}

/** A route's grants: its decisions-table items, its indexes, its learning-table actions, and every keyed route's. */
export function routeAccess(route: RouteDefinition): TableGrant[] {
  return [
    ...decisionsGrants(route.decisions.actions),
    ...(route.decisions.indexes ?? []).map((index) => ({ table: 'decisions' as const, actions: ['Query'], index })),
    // The learning table's partition key is a workspace id: no item prefix to narrow by, only the actions.
    ...(route.learning?.length ? [{ table: 'learning' as const, actions: [...route.learning] }] : []),
    ...KEYED_ROUTE_ACCESS,
  ];
}

/** The workspace items version 3 kept in the decisions table, which version 4 moved to the learning table. */
type Version3Item = DecisionsItem | 'workspaceLabel' | 'workspaceHead' | 'workspaceJournal';

/**
 * Version 3's workspace load, as its route table declared it (LOAD_WORKSPACE at 1e9d79a): the policy and what the
 * workspace learned read together (BatchGetItem), a label rewritten whole and a journal entry written (GetItem,
 * PutItem), the sketch key, labels and head moved (UpdateItem), a lost fold's label items deleted (BatchWriteItem).
 * Version 4's roles hold none of it (their GetItem on `policy#` and `wsmodel#` is not a BatchGetItem).
 */
const VERSION_3_LOAD_WORKSPACE = {
  BatchGetItem: ['policy', 'workspaceModel', 'workspaceLabel', 'workspaceHead', 'workspaceJournal'],
  GetItem: ['workspaceJournal', 'workspaceLabel'],
  PutItem: ['workspaceJournal', 'workspaceLabel'],
  UpdateItem: ['workspaceModel', 'workspaceLabel', 'workspaceHead'],
  BatchWriteItem: ['workspaceLabel'],
} as const satisfies Partial<Record<TableAction, readonly Version3Item[]>>;

/**
 * What each version 3 function did on the decisions table that the same function's version 4 role does not allow:
 * version 3's route table (lambdas/contract/routes.ts at 1e9d79a) less this one's, per action. During the first
 * step of an upgrade from version 3 (`keepRetiredIndexes=true`, docs/deploy.md) CloudFormation updates each role
 * before its function's code, so version 3 code runs for a while under the new role; these keep it working (without
 * them its workspace loads were refused, and version 3 answers that 500). The step without the flag drops them.
 * GetDecision, ListDecisions and GetPolicy lost no item; ListDecisions's Query on `decisions_by_workspace` is left
 * out: that index is gone from a version 3 stack (version 3's own upgrade deleted it) and version 3 queries it only
 * while `decision_list`, which step 1 keeps, is not built.
 */
export const VERSION_3_RETIRED_ACCESS: Readonly<
  Partial<Record<RouteId, Partial<Record<TableAction, readonly Version3Item[]>>>>
> = {
  Analyze: VERSION_3_LOAD_WORKSPACE,
  AnalyzeBatch: VERSION_3_LOAD_WORKSPACE,
  // The head's policy counter, moved in the policy's transaction so containers read the policy again.
  PutPolicy: { UpdateItem: ['workspaceHead'] },
  Feedback: VERSION_3_LOAD_WORKSPACE,
  ImportExamples: VERSION_3_LOAD_WORKSPACE,
  // The model item and the head moved to a new generation; the old generation's label items deleted.
  ForgetModel: { UpdateItem: ['workspaceModel', 'workspaceHead'], BatchWriteItem: ['workspaceLabel'] },
};

/** The retired grants of a function (none for the authorizer and the fallback, whose access did not change). */
export function version3RetiredAccess(name: string): TableGrant[] {
  const actions = VERSION_3_RETIRED_ACCESS[name as RouteId];
  return actions ? decisionsGrants(actions) : [];
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
