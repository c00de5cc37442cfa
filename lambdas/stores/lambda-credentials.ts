// Stands in for the AWS SDK's default credential chain (@aws-sdk/credential-provider-node) in the Lambda bundles;
// the esbuild alias that swaps it in is in lib/lambda-bundling.ts. Lambda gives every function its execution role's
// temporary credentials in AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN, which is the first link of
// that chain and the only one that ever answers there. The other links (profiles, SSO, login, credential processes,
// web identity, ECS and EC2 metadata) and the STS and SSO clients they carry are about 130 KiB of minified code in
// every bundle, parsed at every cold start and never run. Local mode, tests and the admin CLI run unbundled and keep
// the whole chain. Only `defaultProvider` is exported: the one name the DynamoDB client imports from the chain; an
// importer of any other name fails the build instead of running without it.
import { fromEnv } from '@aws-sdk/credential-provider-env';

type EnvProvider = ReturnType<typeof fromEnv>;
type ProviderInit = Parameters<typeof fromEnv>[0];

/** What the SDK expects from @aws-sdk/credential-provider-node: a provider of the execution role's credentials. */
export function defaultProvider(init: ProviderInit = {}): EnvProvider {
  const env = fromEnv(init);
  return async () => {
    try {
      return await env();
    } catch (error) {
      throw new Error(
        'No AWS credentials in AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY. Lambda sets them from the execution ' +
          "role; this bundle reads nothing else (lib/lambda-bundling.ts replaces the SDK's default credential chain)",
        { cause: error },
      );
    }
  };
}
