// What every handler is built from: settings, one DynamoDB client, the stores over it, and telemetry. Built once per
// Lambda container (its entry file) or per service object (local mode, tests, bench). Nothing here reads the
// environment: settings come in parsed.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { type Settings, learningTableOf } from './contract/settings';
import type { ModelWriteStore } from './domain/learning/model-writes';
import { WorkspaceCache } from './domain/learning/workspace-cache';
import type {
  AccessStore,
  DecisionBatchStore,
  DecisionListStore,
  DecisionStore,
  FeedbackStore,
  WorkspaceStore,
} from './domain/ports';
import { RateLimiter } from './application/rate-limiter';
import { GrantAccess, type WorkspaceAccess } from './application/workspace-access';
import { type Telemetry, type TracingRuntime, createTelemetry } from './observability';
import { DynamoAccessStore } from './stores/access-store';
import { DynamoDecisionBatchStore } from './stores/decision-batch-store';
import { DynamoDecisionListStore } from './stores/decision-list-store';
import { DynamoDecisionStore } from './stores/decision-store';
import { DynamoRateCounterStore } from './stores/rate-counter-store';
import { createDocumentClient } from './stores/dynamodb-client';
import { isDatabaseUnavailable } from './stores/database-faults';
import { DynamoFeedbackStore } from './stores/feedback-store';
import { DynamoGrantStore } from './stores/grant-store';
import { DynamoModelWriteStore } from './stores/model-write-store';
import { DynamoWorkspaceStore } from './stores/workspace-store';

export interface Dependencies {
  settings: Settings;
  client: DynamoDBDocumentClient;
  accessStore: AccessStore;
  decisionStore: DecisionStore;
  /** A workspace's decisions, page by page (GET /decisions). */
  decisionList: DecisionListStore;
  /** Many decisions in few writes (POST /signals/analyze-batch). */
  decisionBatch: DecisionBatchStore;
  workspaceStore: WorkspaceStore;
  feedbackStore: FeedbackStore;
  /** Writes that change a workspace's model as a whole: an import, a reset. */
  modelWrites: ModelWriteStore;
  /** Each workspace's policy and learned model, cached per container for WORKSPACE_CACHE_TTL_SECONDS. */
  workspaces: WorkspaceCache;
  /** Whether a key may use a workspace named in a body or found on a stored item. */
  workspaceAccess: WorkspaceAccess;
  /** Per-key rate limits; a route with a key spends from it in the shared chain (lambdas/http/api-handler.ts). */
  rateLimiter: RateLimiter;
  /** True for store failures a retry may cure (throttling, timeouts, an unreachable database): 503, not 500. */
  isUnavailable: (err: unknown) => boolean;
  telemetry: Telemetry;
}

export interface DependencyOverrides extends TracingRuntime {
  /** A client to share (tests, the bench); by default one is made from the settings. */
  client?: DynamoDBDocumentClient;
  telemetry?: Telemetry;
  /** The clock of rate limit windows and grant caching (tests move it across window boundaries). */
  clock?: () => number;
}

/** What every route's pipeline needs (lambdas/http/api-handler.ts): settings, client, telemetry, limits, grants. */
export type EdgeDependencies = Pick<
  Dependencies,
  'settings' | 'client' | 'telemetry' | 'isUnavailable' | 'rateLimiter' | 'workspaceAccess'
>;
/** A route's dependencies: the edge's and the stores it names. */
export type RouteDependencies<K extends keyof Dependencies> = EdgeDependencies & Pick<Dependencies, K>;

/**
 * The edge's dependencies. A route Lambda's entry adds the stores its route names with the builders below, so its
 * bundle holds no other store's code (docs/performance.md, "What the bundles weigh"); createDependencies builds them all.
 */
export function createEdgeDependencies(settings: Settings, overrides: DependencyOverrides = {}): EdgeDependencies {
  const client =
    overrides.client ??
    createDocumentClient({
      endpoint: settings.dynamodbEndpoint,
      region: settings.region,
      requestTimeoutMs: settings.dynamodbRequestTimeoutMs,
      localAccessKeyId: settings.dynamodbLocalAccessKeyId,
    });
  const telemetry = overrides.telemetry ?? createTelemetry(settings, overrides);
  // Each DynamoDB call of a traced invocation becomes a subsegment; nothing is added while tracing is off.
  telemetry.tracer.instrument(client, settings.region);
  return {
    settings,
    client,
    telemetry,
    // The grant store read-only: without an audit table it writes nothing.
    workspaceAccess: new GrantAccess(new DynamoGrantStore(client, settings.accessTableName), {
      ttlSeconds: settings.authCacheTtlSeconds,
      clock: overrides.clock,
    }),
    rateLimiter: new RateLimiter(new DynamoRateCounterStore(client, settings.decisionsTableName), {
      clock: overrides.clock,
    }),
    isUnavailable: isDatabaseUnavailable,
  };
}

type Edge = Pick<EdgeDependencies, 'client' | 'settings'>;

export const workspaceStoreOf = ({ client, settings }: Edge): WorkspaceStore =>
  new DynamoWorkspaceStore(client, settings.decisionsTableName, learningTableOf(settings));

export const workspaceCacheOf = ({ settings }: Edge, store: WorkspaceStore): WorkspaceCache =>
  new WorkspaceCache(
    (id) => store.loadState(id),
    settings.workspaceCacheTtlSeconds * 1000,
    Date.now,
    (id, cached) => store.refreshState(id, cached),
  );

/** The workspace cache over a store of its own (routes that read a workspace but never write one directly). */
export const workspacesOf = (edge: Edge): WorkspaceCache => workspaceCacheOf(edge, workspaceStoreOf(edge));

export const decisionStoreOf = ({ client, settings }: Edge): DecisionStore =>
  new DynamoDecisionStore(client, settings.decisionsTableName, settings.decisionRetentionDays);

export const decisionListOf = ({ client, settings }: Edge): DecisionListStore =>
  new DynamoDecisionListStore(client, settings.decisionsTableName);

export const decisionBatchOf = ({ client, settings }: Edge): DecisionBatchStore =>
  new DynamoDecisionBatchStore(client, settings.decisionsTableName, settings.decisionRetentionDays);

export const feedbackStoreOf = ({ client, settings }: Edge): FeedbackStore =>
  new DynamoFeedbackStore(client, settings.decisionsTableName, learningTableOf(settings));

export const modelWritesOf = ({ client, settings }: Edge): ModelWriteStore =>
  new DynamoModelWriteStore(client, settings.decisionsTableName, learningTableOf(settings));

export const accessStoreOf = ({ client, settings }: Edge): AccessStore =>
  new DynamoAccessStore(client, settings.accessTableName);

/** Every dependency: local mode, the tests and the bench serve every route from one set. */
export function createDependencies(settings: Settings, overrides: DependencyOverrides = {}): Dependencies {
  const edge = createEdgeDependencies(settings, overrides);
  const workspaceStore = workspaceStoreOf(edge);
  return {
    ...edge,
    accessStore: accessStoreOf(edge),
    workspaceStore,
    feedbackStore: feedbackStoreOf(edge),
    modelWrites: modelWritesOf(edge),
    workspaces: workspaceCacheOf(edge, workspaceStore),
    decisionStore: decisionStoreOf(edge),
    decisionList: decisionListOf(edge),
    decisionBatch: decisionBatchOf(edge),
  };
}
