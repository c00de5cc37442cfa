// A slow network between the service and DynamoDB, made real with a delaying proxy in front of DynamoDB Local:
// a write whose reply is late must still end as one stored decision and a success, never a 500.
import { type IncomingMessage, type Server, type ServerResponse, createServer, request } from 'node:http';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { buildDecision } from '../../lambdas/domain/decision';
import { newDecisionId } from '../../lambdas/domain/ids';
import { DynamoDecisionStore } from '../../lambdas/stores/decision-store';
import { createDocumentClient } from '../../lambdas/stores/dynamodb-client';
import { type TestTables, createTestTables, testEndpoint } from '../support/dynamodb';

let tables: TestTables;
let proxy: Server;
let proxyUrl: string;
/** How many of the next PutItem replies to hold back, and for how long. */
const delay = { putItems: 0, ms: 0 };

function forward(req: IncomingMessage, res: ServerResponse, body: Buffer) {
  const target = new URL(testEndpoint());
  const upstream = request(
    { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
    (up) => {
      const chunks: Buffer[] = [];
      up.on('data', (c: Buffer) => chunks.push(c));
      up.on('end', () => {
        const reply = () => {
          res.writeHead(up.statusCode ?? 500, up.headers);
          res.end(Buffer.concat(chunks));
        };
        // The write has reached the database and committed; only its reply is late.
        if (req.headers['x-amz-target'] === 'DynamoDB_20120810.PutItem' && delay.putItems > 0) {
          delay.putItems--;
          setTimeout(reply, delay.ms);
        } else reply();
      });
    },
  );
  upstream.end(body);
}

beforeAll(async () => {
  tables = await createTestTables('slowdb');
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => forward(req, res, Buffer.concat(chunks)));
  });
  await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
});
afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((done) => proxy.close(done));
  await tables?.drop();
});

const decision = (workspace: string) => {
  const now = Date.now();
  return buildDecision(
    {
      decision_id: newDecisionId(now),
      workspace_id: workspace,
      source: 'task',
      received_at: new Date(now).toISOString(),
      created_at: new Date(now).toISOString(),
    },
    {
      score: 40,
      priority: 'medium',
      recommended_action: 'respond',
      category: 'task',
      queue: 'operations',
      reasons: [],
      model_version: 'test',
      confidence: 0.5,
      language: 'en',
      sentiment: 'neutral',
    },
  );
};

it('treats a write whose reply timed out, and whose retry then met its own item, as stored', async () => {
  const client = createDocumentClient({ endpoint: proxyUrl });
  const store = new DynamoDecisionStore(client, tables.names.decisions, 90);
  delay.putItems = 1;
  delay.ms = 1_500; // beyond the client's 1 s request timeout: the SDK retries the write
  const d = decision('ws_timed_out');
  await expect(store.save(d, { partner_id: 'acme', key_id: 'key_1' })).resolves.toEqual({
    kind: 'created',
    decision: d,
  });
  expect(await store.get(d.decision_id)).toEqual(d);
  // Its own workspace's items: the other test stores its decisions in ws_collision.
  const scan = await tables.client.send(
    new ScanCommand({
      TableName: tables.names.decisions,
      FilterExpression: 'workspace_id = :ws',
      ExpressionAttributeValues: { ':ws': 'ws_timed_out' },
    }),
  );
  expect(scan.Items).toHaveLength(1);
  client.destroy();
});

it("still refuses a genuine collision with someone else's item", async () => {
  const client = createDocumentClient({ endpoint: proxyUrl });
  const store = new DynamoDecisionStore(client, tables.names.decisions, 90);
  const d = decision('ws_collision');
  await store.save(d, { partner_id: 'acme', key_id: 'key_1' });
  const clash = { ...d, created_at: new Date(Date.parse(d.created_at) + 1).toISOString() };
  await expect(store.save(clash, { partner_id: 'acme', key_id: 'key_1' })).rejects.toMatchObject({
    name: 'ConditionalCheckFailedException',
  });
  client.destroy();
});
