// The client: one method per operation of the API, retries that never duplicate a decision, timeouts and
// cancellation. It needs nothing but the `fetch` of Node.js 20.19+ (or one passed in).
import { SignalAnalysisConnectionError, SignalAnalysisError } from './errors';
import type {
  BatchResult,
  Decision,
  DecisionList,
  ErrorBody,
  Feedback,
  FeedbackRecord,
  ImportExample,
  ImportResult,
  ModelForgotten,
  ListDecisionsParams,
  Policy,
  PolicyInput,
  RateLimitState,
  Signal,
} from './types';

export const SDK_VERSION = '0.1.0';

/** Every operation, by its `operationId`-like name: method and path under the base URL (`.../api/v1`). */
export const OPERATIONS = {
  analyze: { method: 'POST', path: '/signals/analyze' },
  analyzeBatch: { method: 'POST', path: '/signals/analyze-batch' },
  getDecision: { method: 'GET', path: '/decisions/{decision_id}' },
  listDecisions: { method: 'GET', path: '/decisions' },
  submitFeedback: { method: 'POST', path: '/decisions/{decision_id}/feedback' },
  getPolicy: { method: 'GET', path: '/workspaces/{workspace_id}/policy' },
  putPolicy: { method: 'PUT', path: '/workspaces/{workspace_id}/policy' },
  importExamples: { method: 'POST', path: '/workspaces/{workspace_id}/examples' },
  forgetModel: { method: 'DELETE', path: '/workspaces/{workspace_id}/model' },
} as const;

export interface ClientOptions {
  /** `sas_live_…` or `sas_test_…`. Keep it on your backend. */
  apiKey: string;
  /** Ends in `/api/v1`. Default: local mode, `http://127.0.0.1:3000/api/v1`. */
  baseUrl?: string;
  /** How long one attempt may take before it is abandoned (and retried). Default 30,000 ms. */
  timeoutMs?: number;
  /**
   * Retries after the first attempt, for 429, 502, 503, 504 and connection failures, and for 500 on the calls that
   * carry an Idempotency-Key (analyze, batch, import). Default 3.
   */
  maxRetries?: number;
  /** First backoff step; each retry doubles it, with full jitter. Default 500 ms. */
  retryBaseMs?: number;
  /** Largest backoff step without a Retry-After. Default 20,000 ms. */
  retryMaxMs?: number;
  /** A Retry-After longer than this is not waited for: the error is thrown instead. Default 60,000 ms. */
  maxRetryAfterMs?: number;
  /** Another fetch implementation (tests, proxies). Default: the global fetch. */
  fetch?: typeof fetch;
}

export interface RequestOptions {
  /** Cancels the call, its retries and their waits; the call rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Overrides the client's per-attempt timeout. */
  timeoutMs?: number;
  /** Overrides the client's retry count (0: no retries). */
  maxRetries?: number;
}

export interface IdempotentRequestOptions extends RequestOptions {
  /**
   * The same value for every retry of the same request; the client makes one (a UUID) if you give none. Give your
   * own (e.g. your id of the signal) to make retries across process restarts safe too.
   */
  idempotencyKey?: string;
}

interface Call {
  method: string;
  path: string;
  query?: Record<string, string | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
  options?: RequestOptions;
}

interface Answer<T> {
  status: number;
  headers: Headers;
  body: T;
}

const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);
/** A 500 is retried on a read, or with an Idempotency-Key: a write's first attempt may have stored what a retry would again. */
const RETRYABLE_IF_SAFE = 500;

class AttemptTimeout extends Error {}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Retry-After as seconds or an HTTP date; undefined when absent or unreadable. */
function retryAfterMs(headers: Headers): number | undefined {
  const value = headers.get('retry-after');
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** A structured field's integer parameter (`q=600` in `"default";q=600;w=60`); undefined when absent. */
function parameter(field: string, name: string): number | undefined {
  const match = new RegExp(`;\\s*${name}=(\\d+)`).exec(field);
  return match ? Number(match[1]) : undefined;
}

/** The RateLimit-Policy and RateLimit headers of an answer, when it has both. */
function rateLimitOf(headers: Headers): RateLimitState | undefined {
  const policy = headers.get('ratelimit-policy');
  const state = headers.get('ratelimit');
  if (!policy || !state) return undefined;
  const [limit, windowSeconds] = [parameter(policy, 'q'), parameter(policy, 'w')];
  const [remaining, resetSeconds] = [parameter(state, 'r'), parameter(state, 't')];
  if (limit === undefined || windowSeconds === undefined || remaining === undefined || resetSeconds === undefined)
    return undefined;
  return { limit, windowSeconds, remaining, resetSeconds, receivedAt: new Date() };
}

/** The longest wait a timer holds: setTimeout fires a longer one after 1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * An option in milliseconds, when given: a number a timer can wait, from 0 (`above0`: above 0). NaN or more than
 * MAX_TIMER_MS would time every attempt out at once.
 */
function milliseconds(name: string, value: number | undefined, above0 = false): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !(value >= (above0 ? Number.MIN_VALUE : 0)) || value > MAX_TIMER_MS)
    throw new TypeError(`${name} must be a number of milliseconds from ${above0 ? 'above 0' : '0'} to ${MAX_TIMER_MS}`);
  return value;
}

/** maxRetries, when given: a whole number from 0 (NaN would retry a connection failure forever). */
function retryCount(value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || value < 0) throw new TypeError('maxRetries must be a whole number from 0');
  return value;
}

/** The same key for every retry of one request: the caller's, or one made up. */
const idempotency = (options: IdempotentRequestOptions) => {
  const key = options.idempotencyKey ?? globalThis.crypto.randomUUID();
  if (key.length > 255 || !IDEMPOTENCY_KEY.test(key)) {
    throw new TypeError(
      'idempotencyKey must be 1 to 255 printable ASCII characters, not beginning or ending with a space',
    );
  }
  return { 'Idempotency-Key': key };
};

const toTime = (value: string | Date | undefined) => (value instanceof Date ? value.toISOString() : value);

/** JSON values equal whatever their objects' key order (the service stores a policy's maps without one). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && sameJson((a as never)[k], (b as never)[k]));
}

/** A stored policy is the one sent: every field but the read-only `version` and `updated_at`. */
function samePolicy(stored: Policy, sent: PolicyInput): boolean {
  const { version: _v, updated_at: _u, ...fields } = stored as Policy & Record<string, unknown>;
  const { version: _sv, updated_at: _su, ...given } = sent as PolicyInput & Record<string, unknown>;
  // As it was sent: through JSON, so a field given as undefined is absent.
  return sameJson(fields, JSON.parse(JSON.stringify(given)));
}

/**
 * What a header can carry as given (docs/partners.md: an Idempotency-Key is 1 to 255 printable ASCII characters).
 * fetch refuses a control character only when it sends, which a retry loop would take for a connection failure, and
 * trims spaces at either end, which would send another key. Checked up front; a message never repeats the value (for
 * Authorization, the API key).
 */
const IDEMPOTENCY_KEY = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;
const API_KEY = /^[\x21-\x7e]+$/;

/** Hosts a key may be sent to over plain HTTP: this machine's (local mode). */
const LOOPBACK_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** What an answer's headers say beside its body: a replay of an earlier request with the same key, and its id. */
const replayOf = (answer: Answer<unknown>) => ({
  replayed: answer.headers.get('idempotent-replayed') === 'true',
  requestId: answer.headers.get('x-request-id') ?? undefined,
});

/** A path segment the URL would not keep as given (`.` and `..` are dot segments, even percent-encoded). */
function pathSegment(name: string, value: unknown): string {
  if (typeof value !== 'string' || value === '') throw new TypeError(`${name} must be a non-empty string`);
  if (value === '.' || value === '..') throw new TypeError(`${name} "${value}" cannot be sent in a URL path`);
  return encodeURIComponent(value);
}

export class SignalAnalysisClient {
  // A private field, so that logging or serializing a client (console.log, util.inspect, JSON.stringify) never shows it.
  readonly #apiKey: string;
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly retryBaseMs: number;
  private readonly retryMaxMs: number;
  private readonly maxRetryAfterMs: number;
  private readonly fetchImpl: typeof fetch;
  #rateLimit: RateLimitState | undefined;

  /**
   * The key's rate limit as the last answer (success or error) stated it: pace by `remaining` and `resetSeconds`.
   * Undefined until an answer carries it (a key without a limit never gets one).
   */
  get rateLimit(): RateLimitState | undefined {
    return this.#rateLimit;
  }

  constructor(options: ClientOptions) {
    if (!options?.apiKey) throw new TypeError('SignalAnalysisClient needs an apiKey');
    // As fetch would send it: without the line break a key read from a file ends with.
    const apiKey = options.apiKey.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
    if (!API_KEY.test(apiKey)) throw new TypeError('apiKey holds a space, a control character or one outside ASCII');
    this.#apiKey = apiKey;
    this.baseUrl = (options.baseUrl ?? 'http://127.0.0.1:3000/api/v1').replace(/\/+$/, '');
    const base = URL.canParse(this.baseUrl) ? new URL(this.baseUrl) : undefined;
    if (!base || (base.protocol !== 'https:' && base.protocol !== 'http:')) {
      throw new TypeError('baseUrl must be an https:// URL ending in /api/v1');
    }
    // A user name or password in the URL would be repeated in every connection error's message.
    if (base.username || base.password) throw new TypeError('baseUrl must not hold a user name or password');
    // The key would cross the network in clear text: HTTPS only, but for local mode on this machine.
    if (base.protocol === 'http:' && !LOOPBACK_HOST.test(base.hostname)) {
      throw new TypeError('baseUrl must use https:// (plain http:// only to this machine, for local mode)');
    }
    this.timeoutMs = milliseconds('timeoutMs', options.timeoutMs, true) ?? 30_000;
    this.maxRetries = retryCount(options.maxRetries) ?? 3;
    this.retryBaseMs = milliseconds('retryBaseMs', options.retryBaseMs) ?? 500;
    this.retryMaxMs = milliseconds('retryMaxMs', options.retryMaxMs) ?? 20_000;
    this.maxRetryAfterMs = milliseconds('maxRetryAfterMs', options.maxRetryAfterMs) ?? 60_000;
    this.fetchImpl = options.fetch ?? globalThis.fetch;
    if (typeof this.fetchImpl !== 'function')
      throw new TypeError('no fetch: use Node.js 20.19 or newer, or pass options.fetch');
  }

  /** Scores one signal and stores the decision. Retries are safe: they carry the same Idempotency-Key. */
  async analyze(signal: Signal, options: IdempotentRequestOptions = {}): Promise<Decision> {
    return (await this.analyzeWithResponse(signal, options)).decision;
  }

  /** As `analyze`, also saying whether the answer is a replay of an earlier request with the same key. */
  async analyzeWithResponse(
    signal: Signal,
    options: IdempotentRequestOptions = {},
  ): Promise<{ decision: Decision; replayed: boolean; requestId: string | undefined }> {
    const call = { body: signal, headers: idempotency(options), options };
    const answer = await this.answer<Decision>(OPERATIONS.analyze, {}, call);
    return { decision: answer.body, ...replayOf(answer) };
  }

  /** Scores 1 to 100 signals in one request; the answer has one item per signal, in input order. */
  async analyzeBatch(signals: Signal[], options: IdempotentRequestOptions = {}): Promise<BatchResult> {
    return (await this.analyzeBatchWithResponse(signals, options)).batch;
  }

  /** As `analyzeBatch`, also saying whether the answer is a replay of an earlier request with the same key. */
  async analyzeBatchWithResponse(
    signals: Signal[],
    options: IdempotentRequestOptions = {},
  ): Promise<{ batch: BatchResult; replayed: boolean; requestId: string | undefined }> {
    const call = { body: { signals }, headers: idempotency(options), options };
    const answer = await this.answer<BatchResult>(OPERATIONS.analyzeBatch, {}, call);
    return { batch: answer.body, ...replayOf(answer) };
  }

  async getDecision(decisionId: string, options: RequestOptions = {}): Promise<Decision> {
    return this.body(OPERATIONS.getDecision, { decision_id: decisionId }, { options });
  }

  /** One page of a workspace's decisions, newest first. */
  async listDecisions(params: ListDecisionsParams, options: RequestOptions = {}): Promise<DecisionList> {
    const query = {
      workspace_id: params.workspace_id,
      limit: params.limit === undefined ? undefined : String(params.limit),
      starting_after: params.starting_after,
      // No priority given is every priority; `priority=` alone is refused by the service.
      priority: Array.isArray(params.priority) ? params.priority.join(',') || undefined : params.priority,
      created_after: toTime(params.created_after),
      created_before: toTime(params.created_before),
    };
    return this.body(OPERATIONS.listDecisions, {}, { query, options });
  }

  /** Every page, following `starting_after` until `has_more` is false: each decision comes exactly once. */
  async *listDecisionPages(params: ListDecisionsParams, options: RequestOptions = {}): AsyncGenerator<DecisionList> {
    let startingAfter = params.starting_after;
    for (;;) {
      const page = await this.listDecisions({ ...params, starting_after: startingAfter }, options);
      yield page;
      if (!page.has_more || page.data.length === 0) return;
      startingAfter = page.data[page.data.length - 1].decision_id;
    }
  }

  /** Every decision of every page, newest first. */
  async *allDecisions(params: ListDecisionsParams, options: RequestOptions = {}): AsyncGenerator<Decision> {
    for await (const page of this.listDecisionPages(params, options)) yield* page.data;
  }

  /** Records what a decision should have been; a second feedback on the same decision replaces the first. */
  async submitFeedback(decisionId: string, feedback: Feedback, options: RequestOptions = {}): Promise<FeedbackRecord> {
    return this.body(OPERATIONS.submitFeedback, { decision_id: decisionId }, { body: feedback, options });
  }

  async getPolicy(workspaceId: string, options: RequestOptions = {}): Promise<Policy> {
    return this.body(OPERATIONS.getPolicy, { workspace_id: workspaceId }, { options });
  }

  /**
   * Replaces a workspace's policy whole. With `ifMatch` (the version you read), a policy changed meanwhile is not
   * overwritten: the call fails with `PRECONDITION_FAILED`.
   */
  async putPolicy(
    workspaceId: string,
    policy: PolicyInput,
    options: RequestOptions & { ifMatch?: number } = {},
  ): Promise<Policy> {
    const { ifMatch } = options;
    const headers: Record<string, string> = ifMatch === undefined ? {} : { 'If-Match': `"${ifMatch}"` };
    try {
      return await this.body(OPERATIONS.putPolicy, { workspace_id: workspaceId }, { body: policy, headers, options });
    } catch (err) {
      // A retry whose first attempt landed, its answer lost, meets its own write under If-Match: the policy is then
      // the one sent, one version on. Answered as the first attempt would have been; anything else is a real 412.
      const retried = err instanceof SignalAnalysisError && err.code === 'PRECONDITION_FAILED' && err.attempts > 1;
      if (!retried || ifMatch === undefined) throw err;
      // The check reads the policy (the `read` scope): where it cannot, the 412 stands, as the service answered it.
      const stored = await this.getPolicy(workspaceId, options).catch(() => undefined);
      if (stored && stored.version === ifMatch + 1 && samePolicy(stored, policy)) return stored;
      throw err;
    }
  }

  /**
   * Teaches a workspace 1 to 100 labeled signals from its history; the answer has one item per example, in input
   * order. Retried safely: the Idempotency-Key (one made up when not given) makes a retry teach nothing twice. A key
   * of your own covers the workspace too: use one per workspace and chunk (the same key on another workspace is
   * `409 IDEMPOTENCY_CONFLICT`).
   */
  async importExamples(
    workspaceId: string,
    examples: ImportExample[],
    options: IdempotentRequestOptions = {},
  ): Promise<ImportResult> {
    return (await this.importExamplesWithResponse(workspaceId, examples, options)).result;
  }

  /** As `importExamples`, also saying whether the answer is a replay of an earlier import with the same key. */
  async importExamplesWithResponse(
    workspaceId: string,
    examples: ImportExample[],
    options: IdempotentRequestOptions = {},
  ): Promise<{ result: ImportResult; replayed: boolean; requestId: string | undefined }> {
    const call = { body: { examples }, headers: idempotency(options), options };
    const answer = await this.answer<ImportResult>(OPERATIONS.importExamples, { workspace_id: workspaceId }, call);
    return { result: answer.body, ...replayOf(answer) };
  }

  /** Forgets everything the workspace learned (feedback and imports); its policy and decisions stay. */
  async forgetModel(workspaceId: string, options: RequestOptions = {}): Promise<ModelForgotten> {
    return this.body(OPERATIONS.forgetModel, { workspace_id: workspaceId }, { options });
  }

  /** The answer's body to operation `op`, its path's `{name}` filled in from `ids`. */
  private async body<T>(
    op: { method: string; path: string },
    ids: Record<string, string>,
    call: Omit<Call, 'method' | 'path'>,
  ): Promise<T> {
    return (await this.answer<T>(op, ids, call)).body;
  }

  private async answer<T>(
    op: { method: string; path: string },
    ids: Record<string, string>,
    call: Omit<Call, 'method' | 'path'>,
  ): Promise<Answer<T>> {
    let path: string = op.path;
    for (const [name, value] of Object.entries(ids)) path = path.replace(`{${name}}`, pathSegment(name, value));
    return this.send<T>({ method: op.method, path, ...call });
  }

  private url(path: string, query?: Record<string, string | undefined>): string {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) params.set(name, value);
    const search = params.toString();
    return `${this.baseUrl}${path}${search ? `?${search}` : ''}`;
  }

  /** Backoff before retry `attempt` (1-based): Retry-After when the service sent one, else full jitter. */
  private delayMs(attempt: number, retryAfter: number | undefined): number {
    const step = Math.min(this.retryMaxMs, this.retryBaseMs * 2 ** (attempt - 1));
    const jitter = Math.random() * step;
    // Retry-After is a floor; a little jitter on top keeps many clients from returning in the same instant.
    return retryAfter !== undefined ? retryAfter + Math.random() * Math.min(1_000, retryAfter * 0.2 + 100) : jitter;
  }

  private async send<T>(call: Call): Promise<Answer<T>> {
    const options = call.options ?? {};
    const maxRetries = retryCount(options.maxRetries) ?? this.maxRetries;
    const timeoutMs = milliseconds('timeoutMs', options.timeoutMs, true) ?? this.timeoutMs;
    const outer = options.signal;
    const url = this.url(call.path, call.query);
    const headers: Record<string, string> = {
      Accept: 'application/json',
      Authorization: `Bearer ${this.#apiKey}`,
      'User-Agent': `signal-analysis-sdk/${SDK_VERSION}`,
      ...call.headers,
    };
    let body: string | undefined;
    if (call.body !== undefined) {
      body = JSON.stringify(call.body);
      headers['Content-Type'] = 'application/json';
    }

    for (let attempt = 1; ; attempt++) {
      if (outer?.aborted) throw outer.reason;
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(new AttemptTimeout()), timeoutMs);
      const onAbort = () => controller.abort(outer!.reason);
      outer?.addEventListener('abort', onAbort, { once: true });
      let response: Response;
      let text: string;
      try {
        response = await this.fetchImpl(url, { method: call.method, headers, body, signal: controller.signal });
        text = await response.text();
      } catch (err) {
        if (outer?.aborted) throw outer.reason;
        const timedOut = controller.signal.reason instanceof AttemptTimeout;
        if (attempt > maxRetries) {
          throw new SignalAnalysisConnectionError(
            timedOut ? 'TIMEOUT' : 'CONNECTION_ERROR',
            timedOut
              ? `no answer within ${timeoutMs} ms (${attempt} attempts)`
              : `could not reach ${this.baseUrl} (${attempt} attempts)`,
            attempt,
            err,
          );
        }
        await sleep(this.delayMs(attempt, undefined), outer);
        continue;
      } finally {
        clearTimeout(timer);
        outer?.removeEventListener('abort', onAbort);
      }

      // A success passed the key's limit: without the headers the key has none (any more). An error may have been
      // answered before the limit was looked at (docs/partners.md, "Scopes and rate limits"): it changes nothing.
      this.#rateLimit = rateLimitOf(response.headers) ?? (response.ok ? undefined : this.#rateLimit);
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      if (response.ok) {
        // Every answer of the service is a JSON object: anything else is not the service (a wrong baseUrl's page).
        if (json === null || typeof json !== 'object') {
          throw new SignalAnalysisError({
            status: response.status,
            code: `HTTP_${response.status}`,
            message: `the answer is not JSON: is ${this.baseUrl} the service's /api/v1?`,
            requestId: response.headers.get('x-request-id') ?? undefined,
            attempts: attempt,
          });
        }
        return { status: response.status, headers: response.headers, body: json as T };
      }

      const wait = retryAfterMs(response.headers);
      // The service's RATE_LIMITED without Retry-After: the request holds more items than the key's whole limit and
      // can never fit, so no retry (API Gateway's own 429 has no error code and is retried with backoff).
      const neverFits =
        response.status === 429 &&
        wait === undefined &&
        (json as ErrorBody | undefined)?.error?.code === 'RATE_LIMITED';
      const retryable =
        RETRYABLE_STATUS.has(response.status) ||
        (response.status === RETRYABLE_IF_SAFE && (call.method === 'GET' || headers['Idempotency-Key'] !== undefined));
      if (retryable && !neverFits && attempt <= maxRetries && (wait ?? 0) <= this.maxRetryAfterMs) {
        await sleep(this.delayMs(attempt, wait), outer);
        continue;
      }
      throw this.errorOf(response, json, text, attempt, wait);
    }
  }

  private errorOf(
    response: Response,
    json: unknown,
    text: string,
    attempts: number,
    wait: number | undefined,
  ): SignalAnalysisError {
    const service = (json as ErrorBody | undefined)?.error;
    const common = {
      status: response.status,
      retryAfterSeconds: wait === undefined ? undefined : Math.ceil(wait / 1000),
      attempts,
    };
    if (service && typeof service.code === 'string') {
      const requestId = service.request_id ?? response.headers.get('x-request-id') ?? undefined;
      return new SignalAnalysisError({
        ...common,
        code: service.code,
        message: service.message,
        requestId,
        details: service.details,
      });
    }
    // API Gateway's own answers: `{"message": ...}` and its request id header.
    const gatewayMessage = (json as { message?: unknown } | undefined)?.message;
    return new SignalAnalysisError({
      ...common,
      code: `HTTP_${response.status}`,
      message: typeof gatewayMessage === 'string' ? gatewayMessage : text.slice(0, 200) || `HTTP ${response.status}`,
      requestId: response.headers.get('x-request-id') ?? response.headers.get('apigw-requestid') ?? undefined,
    });
  }
}
