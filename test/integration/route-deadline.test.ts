// A route leaves its deadline to Lambda (docs/operations.md, Alarms: `<Lambda>Errors`), whose timeout API Gateway
// answers with its own 500: middy's early timeout would answer 5 ms before it with an error named TimeoutError, which
// the error mapping reads as the database's 503, and no alarm would explain it. With no time left, a route still
// answers what it finds.
import { encodeVerdict } from '../../lambdas/http/auth-context';
import { createService } from '../../lambdas/service';
import { gatewayEvents, lambdaContext } from '../../lib/local/server';
import { type TestTables, createTestTables } from '../support/dynamodb';
import { testSettings } from '../support/local-api';

let tables: TestTables;
beforeAll(async () => {
  tables = await createTestTables('route-deadline');
});
afterAll(async () => {
  await tables?.drop();
});

it('answers from the database, not with a 503 of its own, when its Lambda has no time left', async () => {
  const service = createService(testSettings(tables));
  const { route, routeEvent } = gatewayEvents({
    method: 'GET',
    rawPath: '/api/v1/decisions/dec_01JD2X5R8Q4T7W9Y3K6M1N0P2S',
    rawQueryString: '',
    headers: { host: '127.0.0.1' },
    body: undefined,
    isBase64Encoded: false,
    requestId: 'deadline-1',
    domainName: '127.0.0.1',
    protocol: 'HTTP/1.1',
    sourceIp: '127.0.0.1',
  });
  const verdict = encodeVerdict({ outcome: 'allow', partner_id: 'acme', key_id: 'key_deadline', scopes: ['read'] });
  const answer = (await service.routes[route!.id](routeEvent(verdict), lambdaContext(route!.id, 'test', 0))) as {
    statusCode: number;
    body: string;
  };
  expect([answer.statusCode, (JSON.parse(answer.body) as { error: { code: string } }).error.code]).toEqual([
    404,
    'DECISION_NOT_FOUND',
  ]);
  service.dependencies.client.destroy();
});
