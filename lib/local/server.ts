// A local HTTP server that behaves like the deployed HTTP API: it matches the same route table, builds the same
// payload 2.0 events, invokes the service's authorizer on every request, then the route's handler, and
// maps the handler's result back to HTTP the way API Gateway does.
import { isUtf8 } from 'node:buffer';
import { once } from 'node:events';
import { randomBytes, randomUUID } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { APIGatewayProxyEventV2, APIGatewayRequestAuthorizerEventV2, Context } from 'aws-lambda';
import { API_BASE_PATH, FUNCTION_TIMEOUT_SECONDS, matchRoute } from '../../lambdas/contract/routes';
import { looksLikeApiKey, withoutApiKeys } from '../../lambdas/domain/api-key';

/** API Gateway's own limit on a request body (HTTP APIs). */
const GATEWAY_BODY_LIMIT = 10 * 1024 * 1024;
const TEXT_MEDIA =
  /^(text\/|application\/(json|[\w.+-]+\+json|xml|[\w.+-]+\+xml|javascript|x-www-form-urlencoded)\s*(;|$))/i;

type Handler = (event: never, context: Context) => Promise<unknown>;

/** What the server dispatches to: a service object (lambdas/service.ts) or the bundles `cdk synth` wrote. */
export interface Handlers {
  authorizer: Handler;
  fallback: Handler;
  routes: Record<string, Handler>;
}

type Invoke = (event: unknown, context: Context) => Promise<unknown>;

/** Every function's timeout on AWS (the stack's), in milliseconds. */
const FUNCTION_TIMEOUT_MS = FUNCTION_TIMEOUT_SECONDS * 1000;

/**
 * A Lambda context like the runtime's, with the stack's deadline (also used by the bench). Callers (middy among them)
 * call getRemainingTimeInMillis unbound, so it is a closure, not a method.
 */
export function lambdaContext(functionName: string, logStreamName = 'local', timeoutMs = FUNCTION_TIMEOUT_MS): Context {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: ignore,
    fail: ignore,
    succeed: ignore,
  };
}

function ignore(): void {}

/**
 * The path as the access line writes it: percent-encoded unreserved characters decoded (RFC 3986, 6.2.2.2: the same
 * path), so that a key sent as `sas%5Ftest%5F...` is masked like one sent plainly; nothing else is decoded. A key
 * that shows only once the path is decoded further (encoded twice, `%255F`) leaves no path in the line at all.
 */
function loggedPath(rawPath: string): string {
  const normalized = rawPath.replace(/%[0-9A-Fa-f]{2}/g, (escape) => {
    const c = String.fromCharCode(parseInt(escape.slice(1), 16));
    return /^[A-Za-z0-9._~-]$/.test(c) ? c : escape;
  });
  const masked = withoutApiKeys(normalized);
  let decoded = masked;
  for (let round = 0; round < 3 && decoded.includes('%'); round++) {
    try {
      decoded = decodeURIComponent(decoded);
    } catch {
      break;
    }
  }
  return looksLikeApiKey(decoded) ? '<a path holding an API key>' : masked;
}

/** A function's answer, or none: it failed or timed out, which API Gateway answers alike (its own 500). */
type Invocation = { ok: true; result: unknown } | { ok: false };

/**
 * One invocation, bounded as Lambda bounds it: timed out once its deadline passes, also when synchronous work held
 * the event loop past it and the handler answered after all (Lambda would have stopped it). A timed-out handler
 * runs on to its end here, unlike in Lambda: local mode can only stop waiting for it (README, Get started).
 */
async function invoke(handler: Invoke, event: unknown, functionName: string, timeoutMs: number): Promise<Invocation> {
  const context = lambdaContext(functionName, 'local', timeoutMs);
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<Invocation>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false }), timeoutMs);
  });
  const run = Promise.resolve()
    .then(() => handler(event, context))
    .then(
      (result): Invocation => ({ ok: true, result }),
      (): Invocation => ({ ok: false }),
    );
  try {
    const outcome = await Promise.race([run, expired]);
    return outcome.ok && context.getRemainingTimeInMillis() === 0 ? { ok: false } : outcome;
  } finally {
    clearTimeout(timer);
  }
}

function gatewayError(res: ServerResponse, status: number, message: string, requestId: string) {
  const body = JSON.stringify({ message });
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'apigw-requestid': requestId,
  });
  res.end(body);
}

async function readBody(req: IncomingMessage): Promise<Buffer | 'too_large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= GATEWAY_BODY_LIMIT) chunks.push(chunk);
  }
  return size > GATEWAY_BODY_LIMIT ? 'too_large' : Buffer.concat(chunks);
}

function headersOf(req: IncomingMessage): { headers: Record<string, string>; cookies?: string[] } {
  const joined = new Map<string, string>();
  // headersDistinct keeps repeated headers that req.headers drops (Authorization, Content-Type...); API Gateway
  // joins repeats with commas, so a second Authorization header spoils the first, as it does when deployed.
  for (const [name, values] of Object.entries(req.headersDistinct)) {
    if (values === undefined || name === 'cookie') continue;
    joined.set(name, values.join(','));
  }
  const headers: Record<string, string> = Object.fromEntries(joined);
  const cookies = req.headers.cookie
    ?.split(';')
    .map((c) => c.trim())
    .filter(Boolean);
  return { headers, cookies: cookies?.length ? cookies : undefined };
}

// Built with Object.fromEntries, as the Lambda runtime's JSON.parse builds an event: a name such as `__proto__` or
// `constructor` is an own property, which a route refuses as unknown, not a prototype's.
function queryOf(raw: string): Record<string, string> | undefined {
  if (!raw) return undefined;
  const joined = new Map<string, string>();
  for (const [k, v] of new URLSearchParams(raw)) joined.set(k, joined.has(k) ? `${joined.get(k)},${v}` : v);
  return Object.fromEntries(joined);
}

/** Lambda proxy (payload 2.0) result → HTTP response, as API Gateway maps it. */
function writeResult(res: ServerResponse, result: unknown, requestId: string) {
  const r = (result ?? {}) as {
    statusCode?: number;
    headers?: Record<string, string>;
    body?: unknown;
    isBase64Encoded?: boolean;
    cookies?: string[];
  };
  const structured = typeof r === 'object' && 'statusCode' in r;
  const status = structured ? Number(r.statusCode) : 200;
  const headers: Record<string, string | string[]> = structured
    ? { ...(r.headers ?? {}) }
    : { 'content-type': 'application/json' };
  let body: Buffer;
  if (structured)
    body = r.isBase64Encoded
      ? Buffer.from(typeof r.body === 'string' ? r.body : '', 'base64')
      : Buffer.from(typeof r.body === 'string' ? r.body : '');
  else body = Buffer.from(JSON.stringify(result));
  if (structured && r.cookies?.length) headers['set-cookie'] = r.cookies;
  headers['apigw-requestid'] = requestId;
  headers['content-length'] = String(body.length);
  res.writeHead(status, headers);
  res.end(body);
}

/** A request as the gateway sees it; the body as the event carries it (text, or base64 with isBase64Encoded). */
interface GatewayRequest {
  method: string;
  rawPath: string;
  rawQueryString: string;
  headers: Record<string, string>;
  cookies?: string[];
  body?: string;
  isBase64Encoded: boolean;
  requestId: string;
  domainName: string;
  protocol: string;
  sourceIp: string;
  /** When the gateway received the request (epoch ms; requestContext.timeEpoch); now by default. */
  receivedMs?: number;
}

/**
 * The payload 2.0 events API Gateway builds for a request (also used by the bench): the authorizer's, and the
 * route's once the authorizer's context is known; `route` is undefined for the $default route.
 */
export function gatewayEvents(r: GatewayRequest) {
  const match = matchRoute(r.method, r.rawPath);
  const route = match.kind === 'route' ? match.route : undefined;
  const routeKey = route ? `${route.method} ${route.path}` : '$default';
  const now = new Date(r.receivedMs ?? Date.now());
  const requestContext = {
    accountId: '000000000000',
    apiId: 'local',
    domainName: r.domainName,
    domainPrefix: 'local',
    http: {
      method: r.method,
      path: r.rawPath,
      protocol: r.protocol,
      sourceIp: r.sourceIp,
      userAgent: r.headers['user-agent'] ?? '',
    },
    requestId: r.requestId,
    routeKey,
    stage: '$default',
    time: now.toUTCString(),
    timeEpoch: now.getTime(),
  };
  const pathParameters =
    match.kind === 'route' && Object.keys(match.pathParameters).length ? match.pathParameters : undefined;
  const queryStringParameters = queryOf(r.rawQueryString);
  const { rawPath, rawQueryString, headers, cookies } = r;
  const authorizer: APIGatewayRequestAuthorizerEventV2 = {
    version: '2.0',
    type: 'REQUEST',
    routeArn: `arn:aws:execute-api:local:000000000000:local/$default/${r.method}${rawPath}`,
    identitySource: [],
    routeKey,
    rawPath,
    rawQueryString,
    cookies: cookies ?? [],
    headers,
    queryStringParameters: queryStringParameters ?? {},
    requestContext,
    pathParameters: pathParameters ?? {},
    stageVariables: {},
  };
  const routeEvent = (
    authorizerContext: unknown,
  ): APIGatewayProxyEventV2 & { requestContext: { authorizer?: unknown } } => ({
    version: '2.0',
    routeKey,
    rawPath,
    rawQueryString,
    cookies,
    headers,
    queryStringParameters,
    requestContext: { ...requestContext, authorizer: { lambda: authorizerContext } },
    pathParameters,
    body: r.body,
    isBase64Encoded: r.isBase64Encoded,
  });
  return { route, authorizer, routeEvent };
}

interface LocalServerOptions {
  port: number;
  host?: string;
  handlers: Handlers;
  /** One line per request (method, path, status, time, request id): never headers or bodies. */
  accessLog?: (line: string) => void;
  /** Each function's timeout: the stack's (FUNCTION_TIMEOUT_SECONDS) unless a test sets a shorter one. */
  functionTimeoutMs?: number;
  /** The gateway's clock, for its events' receipt time (tests: a gateway and a Lambda whose clocks differ). */
  clock?: () => number;
  /** Pages for people outside /api/v1 (the API reference at /docs); undefined leaves the request to the API. */
  pages?: (request: {
    method: string;
    path: string;
  }) => { status: number; headers: Record<string, string>; body: Buffer } | undefined;
}

export interface RunningServer {
  port: number;
  baseUrl: string;
  close(): Promise<void>;
}

export async function startLocalServer(options: LocalServerOptions): Promise<RunningServer> {
  const { handlers } = options;
  const host = options.host ?? '127.0.0.1';
  const timeoutMs = options.functionTimeoutMs ?? FUNCTION_TIMEOUT_MS;

  let stopping = false;
  // Every failure is answered inside, so the promise the request handler starts never rejects.
  const server = createServer(
    (req, res) =>
      void (async () => {
        const started = process.hrtime.bigint();
        const requestId = randomBytes(10).toString('base64');
        const method = (req.method ?? 'GET').toUpperCase();
        const url = req.url ?? '/';
        const q = url.indexOf('?');
        const rawPath = q === -1 ? url : url.slice(0, q);
        const rawQueryString = q === -1 ? '' : url.slice(q + 1);
        // One access line per request, as the stage's access log has: when the answer was sent, or, for a connection
        // closed first, once the answer is known, with its status (`-` when the request never arrived whole, so
        // nothing ran) and who closed it: `client_closed`, or `server_closed` when local mode was stopping.
        let logged = false;
        let handled = false;
        let whole = false;
        const logAccess = (marker: string) => {
          if (logged) return;
          logged = true;
          const ms = Number(process.hrtime.bigint() - started) / 1e6;
          const status = marker && !whole ? '-' : res.statusCode;
          options.accessLog?.(
            `${method} ${loggedPath(rawPath)} ${status} ${ms.toFixed(1)}ms request_id=${requestId}${marker}`,
          );
        };
        const closedMarker = () => (stopping ? ' server_closed' : ' client_closed');
        res.on('finish', () => logAccess(''));
        res.on('close', () => {
          if (handled && !res.writableFinished) logAccess(closedMarker());
        });

        try {
          const outsideApi = rawPath !== API_BASE_PATH && !rawPath.startsWith(`${API_BASE_PATH}/`);
          const page = outsideApi ? options.pages?.({ method, path: rawPath }) : undefined;
          if (page) {
            res.writeHead(page.status, { ...page.headers, 'content-length': String(page.body.length) });
            res.end(page.body);
            return;
          }
          const raw = await readBody(req);
          whole = true;
          if (raw === 'too_large') return gatewayError(res, 413, 'Request Entity Too Large', requestId);
          const { headers, cookies } = headersOf(req);
          const text = raw.length === 0 || (TEXT_MEDIA.test(headers['content-type'] ?? '') && isUtf8(raw));
          const { route, authorizer, routeEvent } = gatewayEvents({
            method,
            rawPath,
            rawQueryString,
            headers,
            cookies,
            body: raw.length ? (text ? raw.toString('utf8') : raw.toString('base64')) : undefined,
            isBase64Encoded: !text,
            requestId,
            domainName: headers.host ?? host,
            protocol: `HTTP/${req.httpVersion}`,
            sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
            receivedMs: options.clock?.(),
          });
          // Every route has the authorizer, the $default route too (the stack attaches it there for Control Tower's
          // route-authorization control); the fallback ignores the verdict, so 404/405 still need no key.
          // An authorizer that fails or times out, like a route's Lambda, gets API Gateway's own 500.
          const authorized = await invoke(handlers.authorizer as Invoke, authorizer, 'authorizer', timeoutMs);
          if (!authorized.ok) return gatewayError(res, 500, 'Internal Server Error', requestId);
          const verdict = authorized.result as { isAuthorized?: unknown; context?: unknown } | undefined;
          if (verdict?.isAuthorized !== true) return gatewayError(res, 403, 'Forbidden', requestId);
          const event = routeEvent(verdict.context ?? {});
          const handler = (route ? handlers.routes[route.id] : handlers.fallback) as Invoke;
          const answered = await invoke(handler, event, route?.id ?? 'fallback', timeoutMs);
          if (!answered.ok) return gatewayError(res, 500, 'Internal Server Error', requestId);
          writeResult(res, answered.result, requestId);
        } catch {
          // A connection closed while its body was read has no one to answer.
          if (res.destroyed) return;
          if (!res.headersSent) gatewayError(res, 500, 'Internal Server Error', requestId);
          else res.destroy();
        } finally {
          handled = true;
          if (res.destroyed && !res.writableFinished) logAccess(closedMarker());
        }
      })(),
  );
  server.keepAliveTimeout = 65_000;

  server.listen(options.port, host);
  try {
    await once(server, 'listening');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    throw new Error(
      `port ${options.port} is already in use: stop what listens there, or set PORT (0 picks a free one)`,
      { cause: err },
    );
  }
  const { port } = server.address() as { port: number };
  return {
    port,
    baseUrl: `http://${host}:${port}${API_BASE_PATH}`,
    close: () =>
      new Promise<void>((done) => {
        stopping = true;
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}
