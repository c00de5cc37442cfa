// One DynamoDB DocumentClient per container, created on first use and reused (keep-alive connections).
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { runtimeConfig } from '../config';

export interface ClientOptions {
  endpoint?: string;
  region?: string;
}

export function createDocumentClient(options: ClientOptions = {}): DynamoDBDocumentClient {
  const local = options.endpoint !== undefined;
  const client = new DynamoDBClient({
    endpoint: options.endpoint,
    region: options.region ?? process.env.AWS_REGION ?? 'us-east-1',
    // DynamoDB Local accepts any credentials; never pick up a developer's real ones for it.
    credentials: local ? { accessKeyId: 'local', secretAccessKey: 'local' } : undefined,
    // Bounded retries and timeouts so a throttled or unreachable database turns into a 503 well inside the 10 s
    // Lambda timeout instead of a hung request: at most 2 attempts of 1 s each (DynamoDB answers in milliseconds),
    // so even the authorizer's two reads in a row end within about 5 s.
    maxAttempts: 2,
    // Without throwOnRequestTimeout the SDK only logs a warning when requestTimeout passes.
    requestHandler: { connectionTimeout: 500, requestTimeout: 1_000, throwOnRequestTimeout: true },
  });
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true },
  });
}

let shared: DynamoDBDocumentClient | undefined;

export function sharedDocumentClient(): DynamoDBDocumentClient {
  shared ??= createDocumentClient({ endpoint: runtimeConfig().dynamodbEndpoint });
  return shared;
}
