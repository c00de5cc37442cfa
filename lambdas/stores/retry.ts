// The stores' retry policy is the domain's one helper (lambdas/domain/retry.ts), kept importable from here.
export * from '../domain/retry';
