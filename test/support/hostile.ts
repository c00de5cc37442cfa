// Shared pieces of the hostile-input tests (test/e2e/hostile-*.test.ts): the local HTTP API (real authorizer and
// handlers, DynamoDB Local) on a real socket, and the check that every answer is a contract answer: never a 5xx,
// always JSON with an X-Request-Id, and either a decision (which then reads back with GET) or a contract error.
// Requests that fetch refuses to send (raw bytes, CR/LF in headers, duplicate Authorization) go over node:net.
// Each test file starts its own API with startHostileApi() in its beforeAll: its own tables, keys and decisions.
// HOSTILE_VERBOSE=1 prints what the service answered where more than one answer would be defensible.
import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { ERROR_STATUS } from '../../lambdas/contract/errors';
import { partnerWithKey, startTestApi } from './local-api';

export const ANALYZE = '/api/v1/signals/analyze';
export const KiB = 1024;
const DECISION_ID = /^dec_[0-9A-HJKMNP-TV-Z]{26}$/;
export const CONTROL_CHARS = [
  '\u0000',
  '\u0001',
  '\u0007',
  '\b',
  '\t',
  '\n',
  '\u000b',
  '\f',
  '\r',
  '\u001b',
  '\u001f',
  '\u007f',
  '\u0085',
  '\u00a0',
  '\u200b',
  '\u2028',
  '\u2029',
  '\ufeff',
  '\ufffe',
  '\uffff',
  '\ud800',
  '\udfff',
  '\udbff\udfff',
];

/** Object.prototype as it was before any request (this module loads once per test file): nothing may change it. */
const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();
const prototypeDescriptorsBefore = Object.getOwnPropertyDescriptors(Object.prototype);

export const validSignal = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  workspace_id: 'ws_a',
  source: 'support_message',
  subject: 'Login fails for our whole team',
  body: 'Since this morning nobody on our team can log in. Please help.',
  sender: 'Ann <ann@customer.example>',
  received_at: '2026-01-05T09:30:00Z',
  metadata: { customer_tier: 'enterprise', tags: ['login'] },
  ...overrides,
});

/** JSON text of an object from entries, so keys like `__proto__` are real keys and duplicates stay duplicates. */
export const objectText = (entries: [string, string][]) =>
  `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;
export const validEntries = (overrides: Record<string, unknown> = {}): [string, string][] =>
  Object.entries(validSignal(overrides)).map(([k, v]) => [k, JSON.stringify(v)]);

/**
 * A plain e-mail signal of ws_a as JSON text, with `raw` fields (each JSON text, so it may nest deeper than
 * JSON.stringify could write, or hold an escape) replacing its own in place or added after them.
 */
export const signalText = (raw: Record<string, string>): string =>
  objectText(Object.entries({ workspace_id: '"ws_a"', source: '"email"', subject: '"x"', ...raw }));

/** `n` levels of `open`, then `inner`, then `n` of `close`: deep nesting as JSON text. */
export const nested = (open: string, close: string, n: number, inner = '1') => open.repeat(n) + inner + close.repeat(n);

/** The contract's nesting depth: an object or array is one deeper than its container; a scalar adds nothing. */
export function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  return 1 + Math.max(0, ...Object.values(value).map(depthOf));
}

export interface Reply {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  text: string;
  json: any;
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export const codeOf = (reply: Reply): string | undefined => reply.json?.error?.code;
export const fieldsOf = (reply: Reply): string[] =>
  (reply.json?.error?.details ?? []).map((d: { field: string }) => d.field);

/** HOSTILE_VERBOSE=1 prints what the service answered to the cases where more than one answer is acceptable. */
export function note(what: string, reply: Reply): void {
  if (process.env.HOSTILE_VERBOSE)
    process.stdout.write(
      `[hostile] ${what}: ${reply.status} ${reply.json?.error?.code ?? (reply.json?.decision_id ? 'decision' : JSON.stringify(reply.text.slice(0, 60)))}\n`,
    );
}

export function expectPrototypeUntouched(): void {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeBefore);
  const now = Object.getOwnPropertyDescriptors(Object.prototype) as Record<string, PropertyDescriptor>;
  const before = prototypeDescriptorsBefore as Record<string, PropertyDescriptor>;
  for (const name of prototypeBefore) {
    expect(now[name].value).toBe(before[name].value);
    expect(now[name].get).toBe(before[name].get);
    expect(now[name].set).toBe(before[name].set);
  }
  expect(Object.getPrototypeOf(Object.prototype)).toBeNull();
}

/**
 * What keeps an answer from having the contract's error shape (section 2), or undefined when it has it: `error` is the
 * only top-level key; it holds a code whose status is the answer's, a message, `request_id` equal to the X-Request-Id
 * header, and `details` (where given) of `{field, message}` and nothing else. Plain checks, no `expect`: the fuzz test
 * runs it 20,000 times.
 */
export function contractErrorProblem(reply: Reply): string | undefined {
  const err = reply.json?.error;
  if (!err || typeof err !== 'object' || Object.keys(reply.json).length !== 1)
    return 'the body is not {"error": {...}}';
  const extra = Object.keys(err).filter((k) => !['code', 'message', 'request_id', 'details'].includes(k));
  if (extra.length) return `error has other keys: ${extra.join(', ')}`;
  if (typeof err.code !== 'string' || ERROR_STATUS[err.code as keyof typeof ERROR_STATUS] !== reply.status)
    return `code ${JSON.stringify(err.code)} is not the code of a ${reply.status}`;
  if (typeof err.message !== 'string' || err.message.length === 0) return 'no message';
  if (err.request_id !== reply.headers['x-request-id']) return 'request_id differs from X-Request-Id';
  if (err.details !== undefined) {
    if (!Array.isArray(err.details)) return 'details is not an array';
    for (const d of err.details) {
      if (d === null || typeof d !== 'object' || Object.keys(d).sort().join() !== 'field,message')
        return `a detail is not {field, message}: ${JSON.stringify(d)}`;
      if (typeof d.field !== 'string' || typeof d.message !== 'string')
        return `a detail's field or message is not a string: ${JSON.stringify(d)}`;
    }
  }
  return undefined;
}

/** Asserts the contract's error shape (see contractErrorProblem). */
export function expectContractError(reply: Reply, summary: string): void {
  const problem = contractErrorProblem(reply);
  if (problem) throw new Error(`not a contract error (${problem}): ${summary}`);
}

export interface SendOptions {
  key?: string;
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
  json?: unknown;
}

/** A request through node:http on the given keep-alive agent (arbitrary body bytes; header values latin1 without
 * controls; an array value sends the header once per entry). */
export function sendHttp(
  target: { host: string; port: number; agent: Agent },
  method: string,
  path: string,
  options: SendOptions = {},
): Promise<Reply> {
  const { host, port, agent } = target;
  const headers: Record<string, string | string[]> = { ...(options.headers ?? {}) };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] ??= 'application/json';
  }
  const payload = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
  if (payload) headers['content-length'] = String(payload.length);
  return new Promise((done, fail) => {
    const req = httpRequest({ host, port, method, path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const out: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) {
          if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
        }
        done({ status: res.statusCode ?? 0, headers: out, text, json: parseJson(text) });
      });
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end(payload);
  });
}

export interface HostileApi {
  /** Partner "acme": ws_a, ws_b. */
  key: string;
  /** Partner "globex": ws_c. */
  otherKey: string;
  /** Every decision answered with 200 in this file, and the exact body, to read back at the end. */
  decisions: Map<string, unknown>;
  /** A normal request through node:http (arbitrary body bytes; header values must be latin1 without controls). */
  send(method: string, path: string, options?: SendOptions): Promise<Reply>;
  /**
   * A request written byte for byte on a fresh socket: `head` is the request line and header lines (joined with CRLF
   * here, so a header value may carry its own CR, LF or NUL), `body` goes after the blank line as is.
   */
  sendRaw(head: (string | Buffer)[], body?: Buffer): Promise<Reply>;
  /** A POST to analyze of `body` as it is, as application/json, with `key`. */
  postJson(body: string | Buffer, headers?: Record<string, string>): Promise<Reply>;
  /** sendRaw of a POST to analyze. */
  rawAnalyze(headers: (string | Buffer)[], body: Buffer | string): Promise<Reply>;
  /** Asserts a contract answer (never a 5xx); a 200 decision is remembered for the read-back at the end. */
  expectContractAnswer(reply: Reply, what?: string): Reply;
  /**
   * Requests that break HTTP itself (a bare CR or a NUL in a header, headers over Node's 16 KiB) are refused by Node's
   * HTTP parser before the service sees them, with a bare 400/431 and no body, as API Gateway's edge would refuse them
   * before the Lambdas. Either that, or a contract answer.
   */
  expectRefusedOrContract(reply: Reply, what: string, quiet?: boolean): Reply;
  expectNormalRequestWorks(): Promise<void>;
  /** Every 200 decision of this file reads back with GET exactly as analyze returned it; there were at least `atLeast`. */
  expectDecisionsReadBack(atLeast: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * startHostileApi for a whole test file: started in beforeAll, closed in afterAll; its fields are there from then.
 *
 * With `afterwards`, the afterAll first checks what can only come after all of the file's tests, whatever order jest
 * ran them in (--randomize): Object.prototype is untouched, a normal request still works, and every 200 decision the
 * tests collected reads back with GET exactly as analyze returned it, at least `afterwards.decisions` of them. A
 * failure there fails the file ("Test suite failed to run"). As a test of its own, this ran wherever jest put it,
 * and read back only what the tests before it had made. A run filtered with `-t` makes fewer decisions than the
 * minimum, which then fails: run the whole file.
 */
export function useHostileApi(label: string, afterwards?: { decisions: number }): HostileApi {
  const api = {} as HostileApi;
  let started = false;
  beforeAll(async () => {
    Object.assign(api, await startHostileApi(label));
    started = true;
  });
  afterAll(async () => {
    if (!started) return;
    try {
      if (afterwards) {
        expectPrototypeUntouched();
        await api.expectNormalRequestWorks();
        await api.expectDecisionsReadBack(afterwards.decisions);
      }
    } finally {
      await api.close();
    }
  });
  return api;
}

/** The local API over this file's own tables, with two partners' keys. Call in beforeAll; close() in afterAll. */
export async function startHostileApi(label: string): Promise<HostileApi> {
  const api = await startTestApi(label);
  const url = new URL(api.baseUrl);
  const host = url.hostname;
  const port = Number(url.port);
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  try {
    const { key } = await partnerWithKey(api.admin, 'acme', ['ws_a', 'ws_b']);
    const { key: otherKey } = await partnerWithKey(api.admin, 'globex', ['ws_c']);
    const decisions = new Map<string, unknown>();

    const send = (method: string, path: string, options: SendOptions = {}) =>
      sendHttp({ host, port, agent }, method, path, options);
    const postJson = (body: string | Buffer, headers: Record<string, string> = {}) =>
      send('POST', ANALYZE, { key, body, headers: { 'content-type': 'application/json', ...headers } });

    function sendRaw(head: (string | Buffer)[], body: Buffer = Buffer.alloc(0)): Promise<Reply> {
      const lines = [...head, 'Host: 127.0.0.1', 'Connection: close'];
      if (!head.some((l) => /^content-length:/i.test(String(l)))) lines.push(`Content-Length: ${body.length}`);
      const bytes = Buffer.concat([
        ...lines.flatMap((l) => [Buffer.isBuffer(l) ? l : Buffer.from(l, 'latin1'), Buffer.from('\r\n')]),
        Buffer.from('\r\n'),
        body,
      ]);
      return new Promise((done, fail) => {
        const socket = connect(port, host);
        const chunks: Buffer[] = [];
        socket.on('data', (c) => chunks.push(c));
        socket.on('error', (err) =>
          (err as NodeJS.ErrnoException).code === 'ECONNRESET' && chunks.length ? finish() : fail(err),
        );
        socket.on('end', () => finish());
        socket.setTimeout(15_000, () => socket.destroy(new Error('raw request timed out')));
        let finished = false;
        function finish() {
          if (finished) return;
          finished = true;
          socket.destroy();
          const all = Buffer.concat(chunks);
          const split = all.indexOf('\r\n\r\n');
          if (split < 0) return fail(new Error(`no HTTP response: ${JSON.stringify(all.toString('latin1'))}`));
          const [statusLine, ...headerLines] = all.subarray(0, split).toString('latin1').split('\r\n');
          const headers: Record<string, string> = {};
          for (const line of headerLines) {
            const colon = line.indexOf(':');
            const name = line.slice(0, colon).trim().toLowerCase();
            const value = line.slice(colon + 1).trim();
            headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
          }
          let rest = all.subarray(split + 4);
          if (headers['content-length'] !== undefined) rest = rest.subarray(0, Number(headers['content-length']));
          const text = rest.toString('utf8');
          done({ status: Number(statusLine.split(' ')[1]), headers, text, json: parseJson(text) });
        }
        socket.write(bytes);
      });
    }

    const rawAnalyze = (headers: (string | Buffer)[], body: Buffer | string) =>
      sendRaw([`POST ${ANALYZE} HTTP/1.1`, ...headers], Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8'));

    function expectContractAnswer(reply: Reply, what = ''): Reply {
      const summary = `${what} -> ${reply.status} ${reply.text.slice(0, 300)}`;
      if (reply.status >= 500) throw new Error(`5xx answer: ${summary}`);
      expect(reply.headers['content-type']).toMatch(/^application\/json/);
      expect(reply.headers['x-request-id']).toBeTruthy();
      if (reply.json === undefined) throw new Error(`not JSON: ${summary}`);
      if (reply.status === 200) {
        if (typeof reply.json?.decision_id !== 'string' || !DECISION_ID.test(reply.json.decision_id)) {
          throw new Error(`200 without a decision: ${summary}`);
        }
        decisions.set(reply.json.decision_id, reply.json);
        return reply;
      }
      expectContractError(reply, summary);
      return reply;
    }

    function expectRefusedOrContract(reply: Reply, what: string, quiet = false): Reply {
      if (!quiet) note(what, reply);
      if (
        (reply.status === 400 || reply.status === 431) &&
        reply.headers['x-request-id'] === undefined &&
        reply.text === ''
      )
        return reply;
      return expectContractAnswer(reply, what);
    }

    async function expectNormalRequestWorks(): Promise<void> {
      const reply = expectContractAnswer(await send('POST', ANALYZE, { key, json: validSignal() }), 'normal request');
      expect(reply.status).toBe(200);
    }

    async function expectDecisionsReadBack(atLeast: number): Promise<void> {
      expect(decisions.size).toBeGreaterThanOrEqual(atLeast);
      const entries = [...decisions.entries()];
      const missing: string[] = [];
      for (let i = 0; i < entries.length; i += 16) {
        await Promise.all(
          entries.slice(i, i + 16).map(async ([id, body]) => {
            const reply = expectContractAnswer(await send('GET', `/api/v1/decisions/${id}`, { key }), `GET ${id}`);
            if (reply.status !== 200) missing.push(id);
            else expect(reply.json).toEqual(body);
          }),
        );
      }
      expect(missing).toEqual([]);
    }

    return {
      key,
      otherKey,
      decisions,
      send,
      postJson,
      sendRaw,
      rawAnalyze,
      expectContractAnswer,
      expectRefusedOrContract,
      expectNormalRequestWorks,
      expectDecisionsReadBack,
      async close() {
        agent.destroy();
        await api.close();
      },
    };
  } catch (err) {
    agent.destroy();
    await api.close();
    throw err;
  }
}
