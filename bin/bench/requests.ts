// One analyze request in-process, as API Gateway (and local mode) chains the authorizer and the route handler.
import { randomBytes } from 'node:crypto';
import { lambdaContext } from '../../lib/local/server';
import type { Service } from '../../lambdas/service';
import { matchRoute } from '../../lambdas/contract/routes';
import type { Decision } from '../../lambdas/domain/decision';
import { newDecisionId } from '../../lambdas/domain/ids';
import { decisionItem as storedDecisionItem } from '../../lambdas/stores/decision-store';

export const ANALYZE_PATH = '/api/v1/signals/analyze';

/** The payload 2.0 events lib/local/server.ts builds for POST analyze: the authorizer's, then the route's. */
export function analyzeEvents(key: string, body: string, idempotencyKey?: string) {
  return apiEvents({ key, method: 'POST', path: ANALYZE_PATH, body, idempotencyKey });
}

export interface ApiRequest {
  key: string;
  method: 'GET' | 'POST' | 'PUT';
  /** The path as sent; the route's own `{param}` pattern is matched from the route table. */
  path: string;
  query?: string;
  body?: string;
  idempotencyKey?: string;
}

/** The payload 2.0 events of any request, as lib/local/server.ts builds them: the authorizer's, then the route's. */
export function apiEvents({ key, method, path, query = '', body, idempotencyKey }: ApiRequest) {
  const requestId = randomBytes(10).toString('base64');
  const now = new Date();
  const match = matchRoute(method, path);
  if (match.kind !== 'route') throw new Error(`no route for ${method} ${path}`);
  const routeKey = `${method} ${match.route.path}`;
  const headers: Record<string, string> = { host: '127.0.0.1', 'user-agent': 'bench', authorization: `Bearer ${key}` };
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(body));
  }
  if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
  const queryStringParameters = Object.fromEntries(new URLSearchParams(query));
  const requestContext = {
    accountId: '000000000000',
    apiId: 'local',
    domainName: '127.0.0.1',
    domainPrefix: 'local',
    http: { method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' },
    requestId,
    routeKey,
    stage: '$default',
    time: now.toUTCString(),
    timeEpoch: now.getTime(),
  };
  const authorizer = {
    version: '2.0',
    type: 'REQUEST',
    routeArn: `arn:aws:execute-api:local:000000000000:local/$default/${method}${path}`,
    identitySource: [],
    routeKey,
    rawPath: path,
    rawQueryString: query,
    cookies: [],
    headers,
    queryStringParameters,
    requestContext,
    pathParameters: match.pathParameters,
    stageVariables: {},
  };
  const route = {
    version: '2.0',
    routeKey,
    rawPath: path,
    rawQueryString: query,
    headers,
    ...(query ? { queryStringParameters } : {}),
    pathParameters: match.pathParameters,
    requestContext: { ...requestContext, authorizer: { lambda: {} as unknown } },
    ...(body !== undefined ? { body } : {}),
    isBase64Encoded: false,
  };
  return { routeId: match.route.id, authorizer, route };
}

export interface HandlerResult {
  statusCode: number;
  headers?: Record<string, string>;
  body: string;
}

/** The authorizer handler on the events' authorizer event; its context goes on the route event, as the gateway does. */
async function authorizeAtGateway(handlers: Service, events: ReturnType<typeof apiEvents>): Promise<void> {
  const verdict = (await handlers.authorizer(
    events.authorizer as unknown as Parameters<Service['authorizer']>[0],
    lambdaContext('authorizer', 'bench'),
  )) as { isAuthorized?: boolean; context?: unknown };
  if (verdict?.isAuthorized !== true) throw new Error('the authorizer refused at the gateway');
  events.route.requestContext.authorizer = { lambda: verdict.context ?? {} };
}

/** Authorizer handler, then the analyze handler, as API Gateway (and local mode) chains them. */
export async function analyzeInProcess(
  handlers: Service,
  events: ReturnType<typeof analyzeEvents>,
): Promise<HandlerResult> {
  await authorizeAtGateway(handlers, events);
  return (await handlers.routes.Analyze(events.route, lambdaContext('Analyze', 'bench'))) as HandlerResult;
}

/** Authorizer handler, then the route's handler, for events of any route (apiEvents). */
export async function inProcess(handlers: Service, events: ReturnType<typeof apiEvents>): Promise<HandlerResult> {
  await authorizeAtGateway(handlers, events);
  const handler = handlers.routes[events.routeId];
  return (await handler(events.route, lambdaContext(events.routeId, 'bench'))) as HandlerResult;
}

export function expectOk(result: HandlerResult, replayed = false): Decision {
  if (result.statusCode !== 200) throw new Error(`analyze answered ${result.statusCode}: ${result.body.slice(0, 200)}`);
  if (replayed !== (result.headers?.['Idempotent-Replayed'] === 'true'))
    throw new Error(`expected replayed=${replayed}`);
  return JSON.parse(result.body) as Decision;
}

/** The item DynamoDecisionStore writes for a decision (lambdas/stores/decision-store.ts), with a fresh id. */
/**
 * The item analyze stores for a decision like `template` (the store's own item builder, the index keys included, and
 * `extra`, such as the learning sketch analyze keeps beside it), with a fresh decision id: what a bare write of the
 * same item sends.
 */
export function decisionItem(
  template: Decision,
  partnerId: string,
  keyId: string,
  extra: Record<string, unknown> = {},
) {
  const created = new Date();
  const decision: Decision = {
    ...template,
    decision_id: newDecisionId(created.getTime()),
    created_at: created.toISOString(),
  };
  return {
    ...extra,
    ...storedDecisionItem(decision, { partner_id: partnerId, key_id: keyId }, Math.floor(created.getTime() / 1000), 90),
  };
}
