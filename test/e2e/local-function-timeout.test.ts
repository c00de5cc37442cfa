// On AWS a Lambda is stopped at its timeout (FUNCTION_TIMEOUT_SECONDS, the stack's for every function) and API
// Gateway answers the request itself: `500 {"message":"Internal Server Error"}` (docs/partners.md, Errors). Local
// mode answers the same at the same moment, whether the route, its checks or the authorizer ran long, or a
// synchronous stretch of work kept the event loop past the deadline. Fake handlers on a real socket, with a short
// timeout: the server's default is the stack's (checked last).
import { startLocalServer, type Handlers, lambdaContext } from '../../lib/local/server';
import { FUNCTION_TIMEOUT_SECONDS } from '../../lambdas/contract/routes';

const TIMEOUT_MS = 400;
const allow = async () => ({ isAuthorized: true, context: {} });
const ok = { statusCode: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}' };
const never = () => new Promise<never>(() => undefined);

async function answerOf(handlers: Partial<Handlers> & { routes?: Handlers['routes'] }) {
  const server = await startLocalServer({
    port: 0,
    functionTimeoutMs: TIMEOUT_MS,
    handlers: { authorizer: allow, fallback: async () => ok, routes: {}, ...handlers },
  });
  try {
    const started = Date.now();
    // Plain fetch: these answers are fakes' and API Gateway's, which docs/openapi.yaml does not describe.
    const res = await fetch(`${server.baseUrl}/decisions/dec_01KAM1Z8Q2N4W7Y3K6M1N0P2SX`);
    const reply = { status: res.status, headers: res.headers, json: await res.json() };
    return { reply, ms: Date.now() - started };
  } finally {
    await server.close();
  }
}

function expectGatewayTimeout({ reply, ms }: Awaited<ReturnType<typeof answerOf>>) {
  expect(reply.status).toBe(500);
  expect(reply.json).toEqual({ message: 'Internal Server Error' });
  expect(reply.headers.get('apigw-requestid')).toBeTruthy();
  expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
}

it("answers API Gateway's 500 at the route's timeout when the route runs on", async () => {
  const answer = await answerOf({ routes: { GetDecision: never } });
  expectGatewayTimeout(answer);
  expect(answer.ms).toBeLessThan(TIMEOUT_MS + 2_000);
});

it('answers the same when the authorizer runs past its timeout', async () => {
  const answer = await answerOf({ authorizer: never, routes: { GetDecision: async () => ok } });
  expectGatewayTimeout(answer);
  expect(answer.ms).toBeLessThan(TIMEOUT_MS + 2_000);
});

it('answers the same when synchronous work held the event loop past the deadline, though the route then answered', async () => {
  const busy = async () => {
    const until = Date.now() + TIMEOUT_MS + 200;
    while (Date.now() < until);
    return ok;
  };
  expectGatewayTimeout(await answerOf({ routes: { GetDecision: busy } }));
});

it('answers a route that ends in time as it answered', async () => {
  const { reply } = await answerOf({ routes: { GetDecision: async () => ok } });
  expect(reply.status).toBe(200);
  expect(reply.json).toEqual({ ok: true });
});

it("gives the handlers the stack's timeout by default", () => {
  const remaining = lambdaContext('Analyze').getRemainingTimeInMillis();
  expect(remaining).toBeGreaterThan(FUNCTION_TIMEOUT_SECONDS * 1000 - 1_000);
  expect(remaining).toBeLessThanOrEqual(FUNCTION_TIMEOUT_SECONDS * 1000);
});
