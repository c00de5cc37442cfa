// Small fetch helpers for tests that talk to the local API over a real socket. Every reply `call()` receives is
// checked against docs/openapi.yaml (see ./openapi), so every end-to-end test also keeps the document true.
import { assertMatchesOpenApi } from './openapi';

export interface Reply {
  status: number;
  headers: Headers;
  json: any;
  text: string;
}

export async function call(
  baseUrl: string,
  method: string,
  path: string,
  options: { key?: string; headers?: Record<string, string>; body?: unknown; rawBody?: string | Buffer } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: string | Buffer | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(baseUrl + path, { method, headers, body });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const reply: Reply = { status: res.status, headers: res.headers, json, text };
  assertMatchesOpenApi(method, baseUrl + path, reply);
  return reply;
}

/** Asserts the contract's error shape: `error` is the only top-level key, request_id matches X-Request-Id. */
export function expectError(reply: Reply, status: number, code: string): void {
  expect({ status: reply.status, code: reply.json?.error?.code }).toEqual({ status, code });
  expect(Object.keys(reply.json)).toEqual(['error']);
  expect(typeof reply.json.error.message).toBe('string');
  expect(reply.json.error.message.length).toBeGreaterThan(0);
  expect(reply.json.error.request_id).toBe(reply.headers.get('x-request-id'));
  expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
}
