// Stands in for @smithy/core/event-streams in the Lambda bundles (the esbuild alias: lib/lambda-bundling.ts; why:
// docs/performance.md, Why the code is shaped this way). Should an operation ever ask for it, it fails saying why.

function unavailable(): never {
  throw new Error(
    '@smithy/core/event-streams is left out of the Lambda bundles (lib/lambda-bundling.ts): no DynamoDB operation streams events',
  );
}

export const EventStreamSerde = unavailable;
export const eventStreamSerdeProvider = unavailable;
