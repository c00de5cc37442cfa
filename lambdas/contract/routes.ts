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
  /**
   * Actions the route's Lambda may call on the learning table. Its partition key is a workspace id, so IAM cannot
   * narrow them by item (dynamodb:LeadingKeys): each route gets only the actions it calls (docs/deploy.md, IAM).
   */
  learning?: readonly TableAction[];
}

/** DynamoDB actions a route may be granted; the stack prefixes them with `dynamodb:`. */
export type TableAction =
  | 'GetItem'
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'BatchGetItem'
  | 'BatchWriteItem'
  | 'Query'
  | 'ConditionCheckItem';

/** Items of the decisions table a route may touch, named by their partition-key prefix (ITEM_PREFIX in tables.ts). */
export type DecisionsItem =
  | 'decision'
  | 'idempotency'
  | 'policy'
  /** A workspace's model item from before version 4 (`wsmodel#`): its sketch key and generation, on a first load. */
  | 'workspaceModel'
  | 'audit';

interface TableAccess {
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
 * Loading a workspace's policy (again when the learning table says it changed), and on its first load since version
 * 4 its sketch key and generation from before (learning-items.ts, readModelItem).
 */
const LOAD_WORKSPACE = { GetItem: ['policy', 'workspaceModel'] } as const satisfies TableAccess['actions'];

/**
 * On the learning table, loading a workspace: its model item (GetItem, and UpdateItem on a first load for its sketch
 * key), its label items and entries (Query, and the check each TTL); a fold now and then: its claim and mark
 * (UpdateItem), each label's share (GetItem, then PutItem of the whole item), and, when a forget moved
 * the generation under it, the labels it wrote deleted (DeleteItem; it could overwrite them with PutItem anyway).
 */
const LOAD_LEARNING: readonly TableAction[] = ['GetItem', 'Query', 'UpdateItem', 'PutItem', 'DeleteItem'];

/**
 * How long every function of the stack may run, each route's Lambda, the authorizer and the fallback alike: Lambda
 * stops one at this timeout and API Gateway answers the request itself, `500 {"message":"Internal Server Error"}`.
 * Local mode answers the same at the same moment (lib/local/server.ts), and hands the handlers this deadline.
 */
export const FUNCTION_TIMEOUT_SECONDS = 10;

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
        PutItem: ['decision', 'idempotency'],
        GetItem: ['decision', 'idempotency', ...LOAD_WORKSPACE.GetItem],
      },
    },
    learning: LOAD_LEARNING,
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
    // BatchWriteItem of up to 25 decisions; the Idempotency-Key record is one conditional PutItem, marked failed
    // (UpdateItem) when the decisions' writes fail; a replay reads the record (GetItem) and its decisions
    // (BatchGetItem), and puts each one missing on the condition that none is stored (PutItem, GetItem).
    decisions: {
      actions: {
        BatchGetItem: ['decision'],
        BatchWriteItem: ['decision'],
        PutItem: ['decision', 'idempotency'],
        UpdateItem: ['idempotency'],
        GetItem: ['decision', 'idempotency', ...LOAD_WORKSPACE.GetItem],
      },
    },
    learning: LOAD_LEARNING,
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
    // An entry in the learning table lands in the same transaction (PutItem), so containers read the policy again.
    decisions: { actions: { GetItem: ['policy'], UpdateItem: ['policy'], PutItem: ['audit'] } },
    learning: ['PutItem'],
  },
  {
    id: 'Feedback',
    method: 'POST',
    path: `${API_BASE_PATH}/decisions/{decision_id}/feedback`,
    entry: 'lambdas/feedback/handler.ts',
    scope: 'feedback',
    // The decision and its sketch (GetItem), the feedback on it (a conditional UpdateItem) and the entry of the
    // counts it moves (PutItem on the learning table) in one transaction, under the workspace's loaded policy and
    // model; now and then a fold (LOAD_LEARNING).
    decisions: { actions: { GetItem: ['decision', ...LOAD_WORKSPACE.GetItem], UpdateItem: ['decision'] } },
    learning: LOAD_LEARNING,
  },
  {
    id: 'ImportExamples',
    method: 'POST',
    path: `${API_BASE_PATH}/workspaces/{workspace_id}/examples`,
    entry: 'lambdas/import-examples/handler.ts',
    // Importing is teaching, like feedback (docs/partners.md, "Importing your history, and forgetting it").
    scope: 'feedback',
    // Loads the workspace; reads its Idempotency-Key record (GetItem); writes its entry (learning PutItem) on the
    // condition that the model's generation did not move (ConditionCheckItem), with the record and the audit event,
    // in one TransactWriteItems.
    decisions: {
      actions: { GetItem: ['idempotency', ...LOAD_WORKSPACE.GetItem], PutItem: ['idempotency', 'audit'] },
    },
    learning: [...LOAD_LEARNING, 'ConditionCheckItem'],
  },
  {
    id: 'ForgetModel',
    method: 'DELETE',
    path: `${API_BASE_PATH}/workspaces/{workspace_id}/model`,
    entry: 'lambdas/forget-model/handler.ts',
    scope: 'policy',
    // Reads the model item (GetItem) and what it holds (Query), and until the workspace's version 3 counts are
    // migrated its version 3 model item (decisions GetItem; the model item made from it, UpdateItem); moves it to a new
    // generation (UpdateItem) with the reset's entry (PutItem) and the audit event (decisions PutItem), in one
    // TransactWriteItems; then deletes the old generation's label items (BatchWriteItem).
    decisions: { actions: { GetItem: ['workspaceModel'], PutItem: ['audit'] } },
    learning: ['GetItem', 'Query', 'UpdateItem', 'PutItem', 'BatchWriteItem'],
  },
];

/** Every route above sits behind the authorizer; the fallback (`$default`) answers 404/405 with no key needed. */
export const AUTHORIZER_ENTRY = 'lambdas/authorizer/handler.ts';
export const FALLBACK_ENTRY = 'lambdas/fallback/handler.ts';

/** The route of an API Gateway route key (`POST /api/v1/signals/analyze`), as the event carries it. */
export function routeForKey(routeKey: string | undefined): RouteDefinition | undefined {
  return ROUTES.find((route) => `${route.method} ${route.path}` === routeKey);
}

type RouteMatch =
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
