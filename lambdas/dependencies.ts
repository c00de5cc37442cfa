// What every handler is built from: settings, one DynamoDB client, the stores over it, and telemetry. Built once per
// Lambda container (its entry file) or per service object (local mode, tests, bench). Nothing here reads the
// environment: settings come in parsed.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Settings } from './contract/settings';
import type { AccessStore, DecisionBatchStore, DecisionListStore, DecisionStore } from './domain/ports';
import { type WorkspaceAccess, grantsFromVerdict } from './http/workspace-access';
import { type Telemetry, createTelemetry } from './observability';
import { DynamoAccessStore } from './stores/access-store';
import { DynamoDecisionBatchStore } from './stores/decision-batch-store';
import { DynamoDecisionListStore } from './stores/decision-list-store';
import { DynamoDecisionStore } from './stores/decision-store';
import { createDocumentClient } from './stores/dynamodb-client';

export interface Dependencies {
  settings: Settings;
  client: DynamoDBDocumentClient;
  accessStore: AccessStore;
  decisionStore: DecisionStore;
  /** A workspace's decisions, page by page (GET /decisions). */
  decisionList: DecisionListStore;
  /** Many decisions in few writes (POST /signals/analyze-batch). */
  decisionBatch: DecisionBatchStore;
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
  return {
    settings,
    client,
    accessStore: new DynamoAccessStore(client, settings.accessTableName),
    decisionStore: new DynamoDecisionStore(client, settings.decisionsTableName, settings.decisionRetentionDays),
    decisionList: new DynamoDecisionListStore(client, settings.decisionsTableName),
    decisionBatch: new DynamoDecisionBatchStore(client, settings.decisionsTableName, settings.decisionRetentionDays),
    workspaceAccess: grantsFromVerdict,
    telemetry: overrides.telemetry ?? createTelemetry(settings),
  };
}
