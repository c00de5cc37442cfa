// Issue 33, finding 7: `admin --aws` talks to DynamoDB in the region the environment names (README, "Admin CLI"), not
// always us-east-1. The CLI runs as an operator runs it, its DynamoDB endpoint pointed (AWS_ENDPOINT_URL_DYNAMODB,
// the SDK's own setting) at a listener on loopback that records the region each request is signed for and answers
// DynamoDB's "table not found": nothing leaves the machine, and no AWS account is needed.
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runAdmin } from '../support/admin-cli';

jest.setTimeout(120_000);

let server: Server;
let endpoint: string;
const signedRegions: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    // SigV4: Credential=<key id>/<date>/<region>/dynamodb/aws4_request
    const scope = /Credential=[^/]+\/\d{8}\/([^/]+)\/dynamodb\//.exec(req.headers.authorization ?? '');
    signedRegions.push(scope?.[1] ?? '(unsigned)');
    req.resume();
    res.writeHead(400, { 'content-type': 'application/x-amz-json-1.0' });
    res.end(JSON.stringify({ __type: 'com.amazonaws.dynamodb.v20120810#ResourceNotFoundException', message: 'none' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

/** The environment of an operator with (fake) credentials and the tables named, without any region of its own. */
function operatorEnv(region: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('AWS_')) delete env[name];
  return {
    ...env,
    ...region,
    AWS_ACCESS_KEY_ID: 'AKIDREGIONTEST',
    AWS_SECRET_ACCESS_KEY: 'not-a-secret',
    AWS_CONFIG_FILE: '/nonexistent/aws-config',
    AWS_SHARED_CREDENTIALS_FILE: '/nonexistent/aws-credentials',
    AWS_ENDPOINT_URL_DYNAMODB: endpoint,
    ACCESS_TABLE_NAME: 'sas-access-eu',
    DECISIONS_TABLE_NAME: 'sas-decisions-eu',
    LEARNING_TABLE_NAME: 'sas-learning-eu',
  };
}

it.each([
  ['AWS_REGION', { AWS_REGION: 'eu-west-1' }, 'eu-west-1'],
  ['AWS_DEFAULT_REGION', { AWS_DEFAULT_REGION: 'ap-southeast-2' }, 'ap-southeast-2'],
  [
    'AWS_REGION over AWS_DEFAULT_REGION',
    { AWS_REGION: 'eu-central-1', AWS_DEFAULT_REGION: 'us-west-2' },
    'eu-central-1',
  ],
])('signs its DynamoDB requests for the region of %s', async (_, region, expected) => {
  signedRegions.length = 0;
  const result = await runAdmin(operatorEnv(region), ['--aws', 'key', 'list', '--partner', 'acme', '--json']);
  expect(result.code).not.toBe(0); // the listener has no tables
  expect(signedRegions.length).toBeGreaterThan(0);
  expect(new Set(signedRegions)).toEqual(new Set([expected]));
});
