// The one route table. The CDK stack creates an HTTP API route and a Lambda per entry; local mode dispatches to the
// service's handler of the same id through the same matching. Pure data and matching: no CDK or AWS SDK imports.

export const API_BASE_PATH = '/api/v1';

export type RouteId =
  | 'Analyze'
  | 'GetDecision'
  | 'ListDecisions'
  | 'AnalyzeBatch'
  | 'GetPolicy'
  | 'PutPolicy'
  | 'Feedback'
  | 'ImportExamples'
  | 'ForgetModel';

/** Key scopes (docs/partners.md, Scopes and rate limits): each route needs exactly one. */
export type Scope = 'analyze' | 'read' | 'feedback' | 'policy';
export const SCOPES: readonly Scope[] = ['analyze', 'read', 'feedback', 'policy'];

export interface RouteDefinition {
  /** Logical id: names the Lambda in the stack and the handler in the service object. */
  id: RouteId;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** HTTP API path with `{param}` placeholders. */
  path: string;
  /** Lambda entry module, relative to the repository root; it exports `handler`. */
  entry: string;
  /** The key scope the route needs. */
  scope: Scope;
  /** Table access the route's Lambda gets on the decisions table (least privilege). */
  decisions: TableAccess;
}

/** DynamoDB actions a route may be granted; the stack prefixes them with `dynamodb:`. */
export type TableAction = 'GetItem' | 'PutItem' | 'UpdateItem' | 'BatchGetItem' | 'BatchWriteItem' | 'Query';

/** Items of the decisions table a route may touch, named by their partition-key prefix (ITEM_PREFIX in tables.ts). */
export type DecisionsItem =
  | 'decision'
  | 'idempotency'
  | 'policy'
  | 'workspaceModel'
  | 'workspaceLabel'
  | 'workspaceHead'
  | 'workspaceJournal'
  | 'audit';

export interface TableAccess {
  /**
   * Each action the route calls, with the items it may call it on: the stack makes them IAM `dynamodb:LeadingKeys`
   * conditions. One batch call may mix kinds (a workspace load reads `policy#` and `wsmodel#` together), so an
   * action lists every kind it is ever called on. TransactWriteItems of Puts is authorized as PutItem per item.
   */
  actions: Partial<Record<TableAction, readonly DecisionsItem[]>>;
  /** Indexes the route may Query (and nothing else on them). */
  indexes?: string[];
}

/**
 * Loading a workspace's policy, model, head, label items and journal entries, and checking its head each TTL
 * (BatchGetItem); making its sketch key and head on a first load (UpdateItem). A check that finds journal entries
 * unfolded for an hour folds them (lambdas/stores/journal-fold.ts): the fold's plan (GetItem, PutItem), the label
 * items, the model item's labels and the head's fold marker (UpdateItem), and after a reset it lost to, the label
 * items it wrote (BatchWriteItem).
 */
const LOAD_WORKSPACE = {
  BatchGetItem: ['policy', 'workspaceModel', 'workspaceLabel', 'workspaceHead', 'workspaceJournal'],
  // A label whose delta in a window is large is rewritten whole (read, then a conditional put).
  GetItem: ['workspaceJournal', 'workspaceLabel'],
  PutItem: ['workspaceJournal', 'workspaceLabel'],
  UpdateItem: ['workspaceModel', 'workspaceLabel', 'workspaceHead'],
  // A fold that loses to a reset deletes the label items it wrote for the replaced generation.
  BatchWriteItem: ['workspaceLabel'],
} as const satisfies TableAccess['actions'];

export const ROUTES: readonly RouteDefinition[] = [
  {
    id: 'Analyze',
    method: 'POST',
    path: `${API_BASE_PATH}/signals/analyze`,
    entry: 'lambdas/analyze/handler.ts',
    scope: 'analyze',
    // The decision (PutItem), or with an Idempotency-Key the record and the decision in one transaction; a replay
    // or a lost race reads the record or the decision back (GetItem).
    decisions: {
      actions: {
        ...LOAD_WORKSPACE,
        PutItem: ['decision', 'idempotency', ...LOAD_WORKSPACE.PutItem],
        GetItem: ['decision', 'idempotency', ...LOAD_WORKSPACE.GetItem],
      },
    },
  },
  {
    id: 'GetDecision',
    method: 'GET',
    path: `${API_BASE_PATH}/decisions/{decision_id}`,
    entry: 'lambdas/get-decision/handler.ts',
    scope: 'read',
    decisions: { actions: { GetItem: ['decision'] } },
  },
  {
    id: 'ListDecisions',
    method: 'GET',
    path: `${API_BASE_PATH}/decisions`,
    entry: 'lambdas/list-decisions/handler.ts',
    scope: 'read',
    // GetItem checks the `starting_after` decision's workspace; the page is a Query per priority partition of the
    // listing index (on the index it replaced while a table upgraded in place still has it: docs/deploy.md).
    decisions: { actions: { GetItem: ['decision'] }, indexes: ['decisions_by_priority', 'decision_list'] },
  },
  {
    id: 'AnalyzeBatch',
    method: 'POST',
    path: `${API_BASE_PATH}/signals/analyze-batch`,
    entry: 'lambdas/analyze-batch/handler.ts',
    scope: 'analyze',
    // BatchWriteItem of up to 25 decisions; the Idempotency-Key record is one conditional PutItem; a replay reads
    // the record (GetItem) and its decisions (BatchGetItem).
    decisions: {
      actions: {
        ...LOAD_WORKSPACE,
        BatchGetItem: [...LOAD_WORKSPACE.BatchGetItem, 'decision'],
        BatchWriteItem: ['decision', ...LOAD_WORKSPACE.BatchWriteItem],
        PutItem: ['idempotency', ...LOAD_WORKSPACE.PutItem],
        GetItem: ['idempotency', ...LOAD_WORKSPACE.GetItem],
      },
    },
  },
  {
    id: 'GetPolicy',
    method: 'GET',
    path: `${API_BASE_PATH}/workspaces/{workspace_id}/policy`,
    entry: 'lambdas/policy/get/handler.ts',
    // Reading a policy needs `read`; replacing it needs `policy` (docs/partners.md, Workspace policy).
    scope: 'read',
    decisions: { actions: { GetItem: ['policy'] } },
  },
  {
    id: 'PutPolicy',
    method: 'PUT',
    path: `${API_BASE_PATH}/workspaces/{workspace_id}/policy`,
    entry: 'lambdas/policy/put/handler.ts',
    scope: 'policy',
    // The policy item: read, then replaced with a condition on its version (UpdateItem) in one TransactWriteItems
    // with its audit event (`audit#<event_id>`, a PutItem: lambdas/stores/audit-log.ts).
    // The head's policy counter moves in the same transaction (UpdateItem), so containers read the policy again.
    decisions: { actions: { GetItem: ['policy'], UpdateItem: ['policy', 'workspaceHead'], PutItem: ['audit'] } },
  },
  {
    id: 'Feedback',
    method: 'POST',
    path: `${API_BASE_PATH}/decisions/{decision_id}/feedback`,
    entry: 'lambdas/feedback/handler.ts',
    scope: 'feedback',
    // The decision and its sketch (GetItem), the feedback on it (conditional UpdateItem), the journal's next number
    // (UpdateItem ADD on the head) and its entry (PutItem), under the workspace's loaded policy and model. Now and
    // then a fold: the window's entries (BatchGetItem), its plan (GetItem, PutItem), the label items, the model
    // item's labels and the head's fold marker (UpdateItem).
    decisions: {
      actions: {
        ...LOAD_WORKSPACE,
        GetItem: ['decision', ...LOAD_WORKSPACE.GetItem],
        UpdateItem: ['decision', ...LOAD_WORKSPACE.UpdateItem],
      },
    },
  },
  {
    id: 'ImportExamples',
    method: 'POST',
    path: `${API_BASE_PATH}/workspaces/{workspace_id}/examples`,
    entry: 'lambdas/import-examples/handler.ts',
    // Importing is teaching, like feedback (docs/partners.md, "Importing your history, and forgetting it").
    scope: 'feedback',
    // Loads the workspace (BatchGetItem, UpdateItem for its first sketch key); reads its Idempotency-Key record
    // (GetItem); takes the journal's next number (UpdateItem on the head) and writes its entry, the record and the
    // audit event in one TransactWriteItems of PutItem; folds the journal when the imports weigh enough (as feedback).
    decisions: {
      actions: {
        ...LOAD_WORKSPACE,
        GetItem: ['idempotency', ...LOAD_WORKSPACE.GetItem],
        PutItem: ['idempotency', 'audit', ...LOAD_WORKSPACE.PutItem],
      },
    },
  },
  {
    id: 'ForgetModel',
    method: 'DELETE',
    path: `${API_BASE_PATH}/workspaces/{workspace_id}/model`,
    entry: 'lambdas/forget-model/handler.ts',
    scope: 'policy',
    // Reads the model item (GetItem), moves it and the head to a new generation (UpdateItem) with the audit event
    // (PutItem), in one TransactWriteItems; then deletes the old generation's label items (BatchWriteItem).
    decisions: {
      actions: {
        GetItem: ['workspaceModel'],
        UpdateItem: ['workspaceModel', 'workspaceHead'],
        PutItem: ['audit'],
        BatchWriteItem: ['workspaceLabel'],
      },
    },
  },
];

/** Every route above sits behind the authorizer; the fallback (`$default`) answers 404/405 with no key needed. */
export const AUTHORIZER_ENTRY = 'lambdas/authorizer/handler.ts';
export const FALLBACK_ENTRY = 'lambdas/fallback/handler.ts';

/** The route of an API Gateway route key (`POST /api/v1/signals/analyze`), as the event carries it. */
export function routeForKey(routeKey: string | undefined): RouteDefinition | undefined {
  return ROUTES.find((route) => `${route.method} ${route.path}` === routeKey);
}

export type RouteMatch =
  | { kind: 'route'; route: RouteDefinition; pathParameters: Record<string, string> }
  | { kind: 'method_not_allowed'; allow: string[] }
  | { kind: 'not_found' };

const compiled = ROUTES.map((route) => {
  const names: string[] = [];
  const source = route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_m, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { route, names, pattern: new RegExp(`^${source}$`) };
});

/** Matches like API Gateway: exact path segments, `{param}` matches one non-empty segment. */
export function matchRoute(method: string, path: string): RouteMatch {
  const allow: string[] = [];
  for (const { route, names, pattern } of compiled) {
    const m = pattern.exec(path);
    if (!m) continue;
    if (route.method === method.toUpperCase()) {
      const pathParameters: Record<string, string> = {};
      names.forEach((name, i) => {
        pathParameters[name] = safeDecode(m[i + 1]);
      });
      return { kind: 'route', route, pathParameters };
    }
    allow.push(route.method);
  }
  return allow.length ? { kind: 'method_not_allowed', allow } : { kind: 'not_found' };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
