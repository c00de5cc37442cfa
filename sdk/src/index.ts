// @signal-analysis/sdk: the official TypeScript client of the Signal Analysis Service.
export { SignalAnalysisClient, type ClientOptions, type IdempotentRequestOptions, type RequestOptions } from './client';
export { SignalAnalysisConnectionError, SignalAnalysisError } from './errors';
export type * from './types';
