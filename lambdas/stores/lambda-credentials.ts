// Stands in for the AWS SDK's default credential chain in the Lambda bundles (the esbuild alias: lib/lambda-bundling.ts;
// why: docs/performance.md, Why the code is shaped this way). It reads the variables Lambda sets, as the SDK's
// `fromEnv` does. Only `defaultProvider` is exported, the one name the DynamoDB client imports from the chain: an
// importer of any other name fails the build instead of running without.

/** The credential identity the SDK signs with (the shape of @smithy/types' AwsCredentialIdentity). */
interface EnvironmentCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  expiration?: Date;
  credentialScope?: string;
  accountId?: string;
}

/** The credentials in `env`, named as the SDK's `fromEnv` names them; an error naming them when they are missing. */
export function credentialsFromEnvironment(env: NodeJS.ProcessEnv): EnvironmentCredentials {
  const accessKeyId = env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey) {
    throw new Error(
      'No AWS credentials in AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY. Lambda sets them from the execution ' +
        "role; this bundle reads nothing else (lib/lambda-bundling.ts replaces the SDK's default credential chain)",
    );
  }
  const credentials: EnvironmentCredentials = { accessKeyId, secretAccessKey };
  if (env.AWS_SESSION_TOKEN) credentials.sessionToken = env.AWS_SESSION_TOKEN;
  if (env.AWS_CREDENTIAL_EXPIRATION) credentials.expiration = new Date(env.AWS_CREDENTIAL_EXPIRATION);
  if (env.AWS_CREDENTIAL_SCOPE) credentials.credentialScope = env.AWS_CREDENTIAL_SCOPE;
  if (env.AWS_ACCOUNT_ID) credentials.accountId = env.AWS_ACCOUNT_ID;
  return credentials;
}

/** What the SDK expects from @aws-sdk/credential-provider-node: a provider of the execution role's credentials. */
export function defaultProvider(): () => Promise<EnvironmentCredentials> {
  return () => Promise.resolve().then(() => credentialsFromEnvironment(process.env));
}
