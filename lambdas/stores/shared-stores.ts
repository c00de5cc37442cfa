// The stores each Lambda container uses, built once from the runtime configuration.
import { runtimeConfig } from '../config';
import { type AccessStore, DynamoAccessStore } from './access-store';
import { type DecisionStore, DynamoDecisionStore } from './decision-store';
import { sharedDocumentClient } from './dynamodb-client';

let decisions: DecisionStore | undefined;
let access: AccessStore | undefined;

export function sharedDecisionStore(): DecisionStore {
  const config = runtimeConfig();
  decisions ??= new DynamoDecisionStore(sharedDocumentClient(), config.decisionsTableName, config.decisionRetentionDays);
  return decisions;
}

export function sharedAccessStore(): AccessStore {
  access ??= new DynamoAccessStore(sharedDocumentClient(), runtimeConfig().accessTableName);
  return access;
}
