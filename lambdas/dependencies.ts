// What every handler is built from: settings, one DynamoDB client, the stores over it, and telemetry. Built once per
// Lambda container (its entry file) or per service object (local mode, tests, bench). Nothing here reads the
// environment: settings come in parsed.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Settings } from './contract/settings';
import { WorkspaceCache } from './domain/learning/workspace-cache';
import type { AccessStore, DecisionStore, FeedbackStore, WorkspaceStore } from './domain/ports';
import { type WorkspaceAccess, grantsFromVerdict } from './http/workspace-access';
import { type Telemetry, createTelemetry } from './observability';
import { DynamoAccessStore } from './stores/access-store';
import { DynamoDecisionStore } from './stores/decision-store';
import { createDocumentClient } from './stores/dynamodb-client';
import { DynamoFeedbackStore } from './stores/feedback-store';
import { DynamoWorkspaceStore } from './stores/workspace-store';

export interface Dependencies {
  settings: Settings;
  client: DynamoDBDocumentClient;
  accessStore: AccessStore;
  decisionStore: DecisionStore;
  workspaceStore: WorkspaceStore;
  feedbackStore: FeedbackStore;
  /** Each workspace's policy and learned model, cached per container for WORKSPACE_CACHE_TTL_SECONDS. */
  workspaces: WorkspaceCache;
  /** Whether a key may use a workspace named in a body or found on a stored item. */
  workspaceAccess: WorkspaceAccess;
  telemetry: Telemetry;
}

export interface DependencyOverrides {
  /** A client to share (tests, the bench); by default one is made from the settings. */
  client?: DynamoDBDocumentClient;
  telemetry?: Telemetry;
}

export function createDependencies(settings: Settings, overrides: DependencyOverrides = {}): Dependencies {
  const client =
    overrides.client ??
    createDocumentClient({
      endpoint: settings.dynamodbEndpoint,
      region: settings.region,
      requestTimeoutMs: settings.dynamodbRequestTimeoutMs,
    });
  const workspaceStore = new DynamoWorkspaceStore(client, settings.decisionsTableName);
  return {
    settings,
    client,
    workspaceStore,
    feedbackStore: new DynamoFeedbackStore(client, settings.decisionsTableName),
    workspaces: new WorkspaceCache((id) => workspaceStore.loadState(id), settings.workspaceCacheTtlSeconds * 1000),
    accessStore: new DynamoAccessStore(client, settings.accessTableName),
    decisionStore: new DynamoDecisionStore(client, settings.decisionsTableName, settings.decisionRetentionDays),
    workspaceAccess: grantsFromVerdict,
    telemetry: overrides.telemetry ?? createTelemetry(settings),
  };
}
