// Names shared by the stack and the tools that read its outputs (admin CLI --aws). Pure data: no CDK imports.

/** Stage from CDK context (`-c stage=prod`); the stack is named after it (both parsed with the other settings). */
export { DEFAULT_STAGE, stackNameFor } from '../lambdas/contract/settings';

export const OUTPUT_KEYS = {
  apiBaseUrl: 'ApiBaseUrl',
  accessTable: 'AccessTableName',
  decisionsTable: 'DecisionsTableName',
  learningTable: 'LearningTableName',
  /** Edge protection on: the CloudFront base URL partners must use (the API's own URL answers 403). */
  protectedApiBaseUrl: 'ProtectedApiBaseUrl',
} as const;
