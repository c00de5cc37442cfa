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

export function createDependencies(settings: Settings, overrides: DependencyOverrides = {}): Dependencies {
  const client =
    overrides.client ??
    createDocumentClient({
      endpoint: settings.dynamodbEndpoint,
      region: settings.region,
      requestTimeoutMs: settings.dynamodbRequestTimeoutMs,
      localAccessKeyId: settings.dynamodbLocalAccessKeyId,
    });
  const accessStore = new DynamoAccessStore(client, settings.accessTableName);
  const learningTable = learningTableOf(settings);
  const workspaceStore = new DynamoWorkspaceStore(client, settings.decisionsTableName, learningTable);
  const feedbackStore = new DynamoFeedbackStore(client, settings.decisionsTableName, learningTable);
  const modelWrites = new DynamoModelWriteStore(client, settings.decisionsTableName, learningTable);
  const telemetry = overrides.telemetry ?? createTelemetry(settings, overrides);
  // Each DynamoDB call of a traced invocation becomes a subsegment; nothing is added while tracing is off.
  telemetry.tracer.instrument(client, settings.region);
  return {
    settings,
    client,
    accessStore,
    workspaceStore,
    feedbackStore,
    modelWrites,
    workspaces: new WorkspaceCache(
      (id) => workspaceStore.loadState(id),
      settings.workspaceCacheTtlSeconds * 1000,
      Date.now,
      (id, cached) => workspaceStore.refreshState(id, cached),
    ),
    decisionStore: new DynamoDecisionStore(client, settings.decisionsTableName, settings.decisionRetentionDays),
    decisionList: new DynamoDecisionListStore(client, settings.decisionsTableName),
    decisionBatch: new DynamoDecisionBatchStore(client, settings.decisionsTableName, settings.decisionRetentionDays),
    workspaceAccess: new GrantAccess(accessStore.grants, {
      ttlSeconds: settings.authCacheTtlSeconds,
      clock: overrides.clock,
    }),
    rateLimiter: new RateLimiter(new DynamoRateCounterStore(client, settings.decisionsTableName), {
      clock: overrides.clock,
    }),
    isUnavailable: isDatabaseUnavailable,
    telemetry,
  };
}
