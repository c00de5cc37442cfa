// One analyze request in-process, as API Gateway (and local mode) chains the authorizer and the route handler.
import { randomBytes } from 'node:crypto';
import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { gatewayEvents, lambdaContext } from '../../lib/local/server';
import type { Service } from '../../lambdas/service';
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
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The path as sent; the route's own `{param}` pattern is matched from the route table. */
  path: string;
  query?: string;
  body?: string;
  idempotencyKey?: string;
}

/** The payload 2.0 events of any request, as lib/local/server.ts builds them: the authorizer's, then the route's. */
export function apiEvents({ key, method, path, query = '', body, idempotencyKey }: ApiRequest) {
  const headers: Record<string, string> = { host: '127.0.0.1', 'user-agent': 'bench', authorization: `Bearer ${key}` };
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(body));
  }
  if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
  const events = gatewayEvents({
    method,
    rawPath: path,
    rawQueryString: query,
    headers,
    body,
    isBase64Encoded: false,
    requestId: randomBytes(10).toString('base64'),
    domainName: '127.0.0.1',
    protocol: 'HTTP/1.1',
    sourceIp: '127.0.0.1',
  });
  if (!events.route) throw new Error(`no route for ${method} ${path}`);
  return { routeId: events.route.id, authorizer: events.authorizer, route: events.routeEvent({}) };
}

export interface HandlerResult {
  statusCode: number;
  headers?: Record<string, string>;
  body: string;
}

/** Wraps one handler's run (the cost section measures each). */
type Around = <T>(step: 'authorizer' | 'route', run: () => Promise<T>) => Promise<T>;

/** The authorizer's handler, its context put on the route event as the gateway does; a refusal throws. */
export async function authorizeAtGateway(
  handlers: Service,
  events: ReturnType<typeof apiEvents>,
  around: Around = (_step, run) => run(),
): Promise<void> {
  const verdict = (await around('authorizer', () =>
    handlers.authorizer(events.authorizer, lambdaContext('authorizer', 'bench')),
  )) as { isAuthorized?: boolean; context?: unknown };
  if (verdict?.isAuthorized !== true) throw new Error('the authorizer refused at the gateway');
  events.route.requestContext.authorizer = { lambda: verdict.context ?? {} };
}

/** The authorizer at the gateway (authorizeAtGateway), then the route's handler. */
export async function inProcess(
  handlers: Service,
  events: ReturnType<typeof apiEvents>,
  around: Around = (_step, run) => run(),
): Promise<HandlerResult> {
  await authorizeAtGateway(handlers, events, around);
  const handler = handlers.routes[events.routeId];
  return (await around('route', () => handler(events.route, lambdaContext(events.routeId, 'bench')))) as HandlerResult;
}

/** A 200 answer as it is; any other answer throws, naming the route. */
export function assertOk(result: HandlerResult, route = 'analyze'): HandlerResult {
  if (result.statusCode !== 200)
    throw new Error(`${route} answered ${result.statusCode}: ${result.body.slice(0, 200)}`);
  return result;
}

export const okBody = <T>(result: HandlerResult, route = 'analyze') => JSON.parse(assertOk(result, route).body) as T;

export function expectOk(result: HandlerResult, replayed = false): Decision {
  const decision = okBody<Decision>(result);
  if (replayed !== (result.headers?.['Idempotent-Replayed'] === 'true'))
    throw new Error(`expected replayed=${replayed}`);
  return decision;
}

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

/** The bare write a decision needs: its item, put once, on condition that it is new. */
export async function putItem(client: DynamoDBDocumentClient, table: string, item: Record<string, unknown>) {
  await client.send(new PutCommand({ TableName: table, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
}
