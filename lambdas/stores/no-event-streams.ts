// Stands in for @smithy/core/event-streams in the Lambda bundles (the esbuild alias is in lib/lambda-bundling.ts).
// The SDK loads that module with a dynamic import only for an operation that streams events; DynamoDB has none, but
// esbuild bundles a dynamic import's target all the same: about 19 KiB of minified code (7 KiB gzip) in every bundle,
// never run. Should an operation ever ask for it, it fails saying why instead of running without. Local mode, tests
// and the admin CLI run unbundled and keep the SDK's module.

function unavailable(): never {
  throw new Error(
    '@smithy/core/event-streams is left out of the Lambda bundles (lib/lambda-bundling.ts): no DynamoDB operation streams events',
  );
}

export const EventStreamSerde = unavailable;
export const eventStreamSerdeProvider = unavailable;
