// The DynamoDB DocumentClient the service uses: one per service object, reused across requests (keep-alive).
import type { Agent } from 'node:http';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';

export interface ClientOptions {
  endpoint?: string;
  region?: string;
  /** How long one attempt may take before it is abandoned (default 1 s). */
  requestTimeoutMs?: number;
  /** DynamoDB Local only: the secret access key id that selects local mode's database (it keeps one per id). */
  localAccessKeyId?: string;
  /** DynamoDB Local only: the agent that checks who accepted each connection before the secret is sent (lib/local). */
  httpAgent?: Agent;
}

const DEFAULT_REQUEST_TIMEOUT_MS = 1_000;

/**
 * At most this many connections to DynamoDB per client, kept alive: a Lambda serves one request at a time, and local
 * mode's whole process shares one client, so the pool (and the memory of its sockets and TLS sessions) stays bounded
 * however many requests wait. The SDK's own default today; set here so that an SDK upgrade cannot lift it.
 */
const DYNAMODB_MAX_SOCKETS = 50;

export function createDocumentClient(options: ClientOptions = {}): DynamoDBDocumentClient {
  const local = options.endpoint !== undefined;
  const client = new DynamoDBClient({
    endpoint: options.endpoint,
    // DynamoDB Local needs some region; on AWS an unset one is the SDK's to resolve (environment, then profile),
    // never a silent us-east-1 (the admin CLI's --aws in another region wrote to a table that is not there).
    region: options.region ?? (local ? 'us-east-1' : undefined),
    // DynamoDB Local accepts any credentials and checks no signature; never pick up a developer's real ones for it.
    credentials: local ? { accessKeyId: options.localAccessKeyId ?? 'local', secretAccessKey: 'local' } : undefined,
    // Bounded retries and timeouts so a throttled or unreachable database turns into a 503 well inside the 10 s
    // Lambda timeout instead of a hung request: at most 2 attempts of 1 s each (DynamoDB answers in milliseconds),
    // so even the authorizer's two reads in a row end within about 5 s.
    maxAttempts: 2,
    // Without throwOnRequestTimeout the SDK only logs a warning when requestTimeout passes.
    requestHandler: {
      connectionTimeout: 500,
      requestTimeout: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      throwOnRequestTimeout: true,
      httpsAgent: { keepAlive: true, maxSockets: DYNAMODB_MAX_SOCKETS },
      ...(options.httpAgent ? { httpAgent: options.httpAgent } : {}),
    },
  });
  return DynamoDBDocumentClient.from(client, {
    // A map whose own key `constructor` hides its class (a policy's routing of the category `constructor`, a valid
    // name) is refused by the marshaller as a class instance unless told to write any object as a map.
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: true },
  });
}

/** The capacity units a command's output reports (asked for with ReturnConsumedCapacity; one entry or one per table). */
export const consumedUnits = (output: object): number =>
  [(output as { ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[] }).ConsumedCapacity ?? []]
    .flat()
    .reduce((sum, c) => sum + Number(c.CapacityUnits ?? 0), 0);

/** The item under `pk`, read consistently (undefined when there is none). */
export async function getItem(
  client: DynamoDBDocumentClient,
  tableName: string,
  pk: string,
): Promise<Record<string, unknown> | undefined> {
  return (await client.send(new GetCommand({ TableName: tableName, Key: { pk }, ConsistentRead: true }))).Item;
}
