// docs/openapi.yaml: a valid OpenAPI 3.1 document that says what the code does. The forward direction (every response
// the service sends is documented) is checked by the end-to-end tests through call(); this file checks the document
// itself and the reverse direction: routes, error codes, enums, limits and examples against the implementation.
import { validate as validateOpenApi, compileErrors } from '@readme/openapi-parser';
import fc from 'fast-check';
import type { ValidateFunction } from 'ajv/dist/2020';
import { API_BASE_PATH, ROUTES } from '../../lambdas/contract/routes';
import {
  DEFAULT_MESSAGE,
  ERROR_STATUS,
  type ErrorCode,
  UNAVAILABLE_RETRY_AFTER_SECONDS,
} from '../../lambdas/contract/errors';
import { MAX_BODY_BYTES } from '../../lambdas/http/api-handler';
import {
  LIMITS,
  WORKSPACE_ID_PATTERN,
  isEmailAddress,
  validateIdempotencyKey,
  validateSignal,
} from '../../lambdas/http/signal-schema';
import { SOURCES } from '../../lambdas/domain/signal';
import { ACTIONS, CATEGORIES, PRIORITIES, QUEUES, buildDecision } from '../../lambdas/domain/decision';
import { DECISION_ID_PATTERN, newDecisionId } from '../../lambdas/domain/ids';
import { scoreSignal } from '../../lambdas/domain/engine';
import { IDEMPOTENCY_WINDOW_SECONDS } from '../../lambdas/stores/decision-store';
import {
  HTTP_METHODS,
  compileSchema,
  createOpenApiChecker,
  createSchemaAjv,
  dereferenceOpenApi,
  formatAjvErrors,
  loadOpenApiSource,
  serverBasePath,
} from '../support/openapi';

const source = loadOpenApiSource();
const doc = dereferenceOpenApi(source);
const ajv = createSchemaAjv();
const compiled = new Map<unknown, ValidateFunction>();
const validatorFor = (schema: unknown): ValidateFunction => {
  let v = compiled.get(schema);
  if (!v) compiled.set(schema, (v = compileSchema(ajv, schema)));
  return v;
};
const schemas = doc.components.schemas;
const accepts = (schema: unknown, value: unknown): boolean => validatorFor(schema)(value);

/** Every operation of the document: [METHOD, path template, operation]. */
const operations: [string, string, any][] = Object.entries<any>(doc.paths).flatMap(([template, item]) =>
  HTTP_METHODS.filter((m) => item[m]).map((m): [string, string, any] => [m.toUpperCase(), template, item[m]]),
);
/** Every documented response with its status and where it is: operations' and the fallback's. */
const responses: { where: string; status: string; response: any }[] = [
  ...operations.flatMap(([method, template, op]) =>
    Object.entries<any>(op.responses).map(([status, response]) => ({
      where: `${method} ${template}`,
      status,
      response,
    })),
  ),
  ...Object.entries<any>(doc['x-fallback'].responses).map(([status, response]) => ({
    where: 'x-fallback',
    status,
    response,
  })),
];
const errorResponses = responses.filter((r) => Number(r.status) >= 400);
const jsonSchemaOf = (response: any) => response.content['application/json'].schema;

const CODES = Object.keys(ERROR_STATUS) as ErrorCode[];
const errorBody = (code: string, extra: Record<string, unknown> = {}) => ({
  error: {
    code,
    message: DEFAULT_MESSAGE[code as ErrorCode] ?? 'x',
    request_id: 'req-1',
    ...(code === 'VALIDATION_ERROR' ? { details: [{ field: 'source', message: 'is required' }] } : {}),
    ...extra,
  },
});

describe('the document', () => {
  it('is a valid OpenAPI 3.1 document for @readme/openapi-parser, without warnings', async () => {
    expect(source.openapi).toMatch(/^3\.1\.\d+$/);
    const result = await validateOpenApi(structuredClone(source));
    if (!result.valid) throw new Error(compileErrors(result));
    expect(result.warnings).toEqual([]);
  });

  it('has schemas that compile as JSON Schema 2020-12 in strict mode', () => {
    for (const [name, schema] of Object.entries(schemas)) {
      expect(() => validatorFor(schema)).not.toThrow();
      expect(name).toMatch(/^[A-Za-z0-9._-]+$/);
    }
  });

  it('names the deployed and the local server, both ending in the API base path', () => {
    const urls = doc.servers.map((s: { url: string }) => s.url);
    expect(urls).toEqual([
      'https://{api-id}.execute-api.{region}.amazonaws.com/api/v1',
      'http://127.0.0.1:3000/api/v1',
    ]);
    expect(Object.keys(doc.servers[0].variables).sort()).toEqual(['api-id', 'region']);
    expect(serverBasePath(doc)).toBe(API_BASE_PATH);
  });

  it('secures every operation with the bearer scheme', () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    for (const [, , op] of operations) expect(op.security ?? doc.security).toEqual([{ bearerAuth: [] }]);
  });
});

describe('routes (lib/routes.ts)', () => {
  it('lists exactly the routes of ROUTES, each with its method, and nothing else', () => {
    const documented = operations.map(([method, template]) => `${method} ${API_BASE_PATH}${template}`).sort();
    expect(documented).toEqual(ROUTES.map((r) => `${r.method} ${r.path}`).sort());
  });

  it('documents the path parameters of every template', () => {
    for (const [, template, op] of operations) {
      const names = [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      const params = (op.parameters ?? []).filter((p: any) => p.in === 'path');
      expect(params.map((p: any) => p.name).sort()).toEqual(names);
      for (const p of params) expect(p.required).toBe(true);
    }
  });

  it('documents 405 with Allow on every operation and 404/405 for the fallback', () => {
    for (const [, , op] of operations) {
      expect(op.responses['405']).toBeDefined();
      expect(op.responses['405'].headers.Allow.required).toBe(true);
    }
    expect(Object.keys(doc['x-fallback'].responses).sort()).toEqual(['404', '405', '500']);
  });
});

describe('errors (lambdas/contract/errors.ts)', () => {
  it('enumerates exactly the codes of ERROR_STATUS', () => {
    expect([...schemas.ErrorCode.enum].sort()).toEqual([...CODES].sort());
  });

  it.each(CODES)('documents %s under its status', (code) => {
    const status = String(ERROR_STATUS[code]);
    const carriers = errorResponses.filter(
      (r) => r.status === status && accepts(jsonSchemaOf(r.response), errorBody(code)),
    );
    expect(carriers.map((r) => r.where)).not.toEqual([]);
  });

  it('constrains each error response to the codes of its status, and to at least one', () => {
    for (const { where, status, response } of errorResponses) {
      const accepted = CODES.filter((code) => accepts(jsonSchemaOf(response), errorBody(code)));
      expect({ where, status, accepted: accepted.filter((c) => String(ERROR_STATUS[c]) !== status) }).toEqual({
        where,
        status,
        accepted: [],
      });
      expect(accepted.length).toBeGreaterThan(0);
    }
  });

  it('keeps the error shape closed: error is the only key, details only and always with VALIDATION_ERROR', () => {
    const generic = schemas.Error;
    expect(accepts(generic, errorBody('UNAUTHORIZED'))).toBe(true);
    expect(accepts(generic, { ...errorBody('UNAUTHORIZED'), extra: 1 })).toBe(false);
    expect(accepts(generic, errorBody('UNAUTHORIZED', { hint: 'x' }))).toBe(false);
    expect(accepts(generic, errorBody('UNAUTHORIZED', { details: [{ field: 'a', message: 'b', extra: 1 }] }))).toBe(
      false,
    );
    expect(accepts(generic, { message: 'Unauthorized' })).toBe(false);
    for (const { status, response } of errorResponses) {
      for (const code of CODES.filter(
        (c) => String(ERROR_STATUS[c]) === status && accepts(jsonSchemaOf(response), errorBody(c)),
      )) {
        if (code === 'VALIDATION_ERROR') {
          const { details: _d, ...bare } = errorBody(code).error as Record<string, unknown>;
          expect(accepts(jsonSchemaOf(response), { error: bare })).toBe(false);
        } else {
          expect(accepts(jsonSchemaOf(response), errorBody(code, { details: [{ field: 'a', message: 'b' }] }))).toBe(
            false,
          );
        }
      }
    }
  });

  it('requires X-Request-Id on every response, Retry-After on 503 and on 429 unless it can never fit, Allow on 405', () => {
    for (const { where, status, response } of responses) {
      expect({ where, status, required: response.headers?.['X-Request-Id']?.required }).toEqual({
        where,
        status,
        required: true,
      });
      if (status === '503') expect(response.headers['Retry-After'].required).toBe(true);
      // A 429 of a request that can never fit has none (no wait helps): documented as the only absence.
      if (status === '429')
        expect(
          response.headers['Retry-After'].required || /never fit/.test(response.headers['Retry-After'].description),
        ).toBe(true);
      if (status === '405') expect(response.headers.Allow.required).toBe(true);
    }
    expect(doc.components.headers['Retry-After'].example).toBe(UNAVAILABLE_RETRY_AFTER_SECONDS);
  });

  it('shows the messages the service sends in its error examples', () => {
    let seen = 0;
    for (const { response } of errorResponses) {
      for (const example of Object.values<any>(response.content['application/json'].examples ?? {})) {
        const { code, message } = example.value.error;
        if (code === 'METHOD_NOT_ALLOWED') expect(message).toMatch(/^This route allows only [A-Z]+(, [A-Z]+)*\.$/);
        else if (code === 'INSUFFICIENT_SCOPE')
          expect(message).toMatch(/^This API key lacks the scope "(analyze|read|feedback|policy)" this route needs\.$/);
        else expect(message).toBe(DEFAULT_MESSAGE[code as ErrorCode]);
        seen++;
      }
    }
    expect(seen).toBeGreaterThanOrEqual(CODES.length);
  });
});

describe('the decision (lambdas/domain/decision.ts)', () => {
  const decision = schemas.Decision;

  it('has the enums of PRIORITIES, ACTIONS, CATEGORIES, QUEUES and SOURCES', () => {
    expect(decision.properties.priority.enum).toEqual([...PRIORITIES]);
    expect(decision.properties.recommended_action.enum).toEqual([...ACTIONS]);
    // Documented values first; a workspace's own names (docs/partners.md, The decision) match the second branch.
    expect(decision.properties.category.anyOf[0].enum).toEqual([...CATEGORIES]);
    expect(decision.properties.queue.anyOf[0].enum).toEqual([...QUEUES]);
    expect(decision.properties.source.enum).toEqual([...SOURCES]);
  });

  it('has the fields of buildDecision, in their order, the v1 ones required, and no other', () => {
    const v1 = buildDecision(
      {
        decision_id: newDecisionId(),
        workspace_id: 'ws_x',
        source: 'email',
        received_at: '2026-11-21T09:00:00Z',
        created_at: new Date().toISOString(),
      },
      {
        score: 50,
        priority: 'medium',
        recommended_action: 'respond',
        category: 'general',
        queue: 'support',
        reasons: [],
        model_version: 'rules-1',
        confidence: 0.5,
        language: 'en',
        sentiment: 'neutral',
      },
    );
    expect(Object.keys(decision.properties)).toEqual(Object.keys(v1));
    // Decisions stored before v2 keep their shape, so the v2 fields cannot be required of every stored decision.
    expect(decision.required).toEqual(Object.keys(v1));
    expect(decision.additionalProperties).toBe(false);
    expect(decision.properties.reasons.items.additionalProperties).toBe(false);
    expect(accepts(decision, v1)).toBe(true);
    expect(accepts(decision, { ...v1, extra: true })).toBe(false);
    expect(decision.properties.decision_id.pattern).toBe(DECISION_ID_PATTERN.source);
  });

  it('ties priority to the score bands of the contract', () => {
    const built = (score: number, priority: string) =>
      buildDecision(
        {
          decision_id: newDecisionId(),
          workspace_id: 'ws_x',
          source: 'task',
          received_at: '2026-11-21T09:00:00Z',
          created_at: '2026-11-21T09:00:00.000Z',
        },
        {
          score,
          priority: priority as any,
          recommended_action: 'review',
          category: 'general',
          queue: 'operations',
          reasons: [],
          model_version: 'rules-1',
          confidence: 0.5,
          language: 'en',
          sentiment: 'neutral',
        },
      );
    for (const [score, priority] of [
      [80, 'critical'],
      [100, 'critical'],
      [60, 'high'],
      [79, 'high'],
      [35, 'medium'],
      [59, 'medium'],
      [0, 'low'],
      [34, 'low'],
    ] as const) {
      expect(accepts(decision, built(score, priority))).toBe(true);
    }
    for (const [score, priority] of [
      [79, 'critical'],
      [80, 'high'],
      [59, 'high'],
      [60, 'medium'],
      [34, 'medium'],
      [35, 'low'],
    ] as const) {
      expect(accepts(decision, built(score, priority))).toBe(false);
    }
  });

  it('describes what the scorer returns for the example signals of the document', () => {
    const examples = Object.values<any>(doc.components.requestBodies.Signal.content['application/json'].examples);
    for (const { value } of examples) {
      const nowMs = Date.parse('2026-11-21T10:00:00Z');
      const v = validateSignal(value, nowMs);
      if (!v.ok) throw new Error(`example signal refused: ${JSON.stringify(v.details)}`);
      const d = buildDecision(
        {
          decision_id: newDecisionId(nowMs),
          workspace_id: v.signal.workspace_id,
          source: v.signal.source,
          received_at: v.signal.received_at,
          created_at: new Date(nowMs).toISOString(),
        },
        scoreSignal(v.signal, new Date(nowMs)),
      );
      const check = validatorFor(decision);
      if (!check(d)) throw new Error(`${formatAjvErrors(check.errors)} in ${JSON.stringify(d)}`);
    }
  });
});

describe('the signal (lambdas/http/signal-schema.ts)', () => {
  const signal = schemas.Signal;
  const NOW = Date.parse('2026-11-21T10:00:00Z');

  it('states the limits of LIMITS, SOURCES and the 256 KiB body limit', () => {
    const p = signal.properties;
    expect(signal.required).toEqual(['workspace_id', 'source']);
    expect(signal.additionalProperties).toBe(false);
    expect(Object.keys(p)).toEqual(['workspace_id', 'source', 'subject', 'body', 'sender', 'received_at', 'metadata']);
    expect(p.workspace_id).toMatchObject({
      minLength: 1,
      maxLength: LIMITS.workspaceIdMax,
      pattern: WORKSPACE_ID_PATTERN.source,
    });
    expect(p.source.enum).toEqual([...SOURCES]);
    expect(p.subject.maxLength).toBe(LIMITS.subjectMax);
    expect(p.body.maxLength).toBe(LIMITS.bodyMax);
    expect(p.sender.maxLength).toBe(LIMITS.senderMax);
    expect(p.metadata['x-max-serialized-bytes']).toBe(LIMITS.metadataBytesMax);
    expect(p.metadata['x-max-depth']).toBe(LIMITS.metadataDepthMax);
    expect(p.received_at['x-max-future-seconds'] * 1000).toBe(LIMITS.futureToleranceMs);
    expect(doc.components.requestBodies.Signal['x-max-bytes']).toBe(MAX_BODY_BYTES);
    const idem = doc.components.parameters.IdempotencyKey;
    expect(idem).toMatchObject({ name: 'Idempotency-Key', in: 'header', required: false });
    expect(idem.schema).toMatchObject({ minLength: 1, maxLength: LIMITS.idempotencyKeyMax });
    expect(idem.schema['x-remembered-seconds']).toBe(IDEMPOTENCY_WINDOW_SECONDS);
  });

  it('accepts and refuses what validateSignal accepts and refuses', () => {
    const base = { workspace_id: 'ws_1', source: 'email', subject: 'Hello' };
    const samples: Record<string, unknown>[] = [
      base,
      { workspace_id: 'ws_1', source: 'task', body: 'Ship it' },
      { workspace_id: 'a'.repeat(128), source: 'internal', subject: 'x' },
      { workspace_id: 'a'.repeat(129), source: 'internal', subject: 'x' },
      { workspace_id: 'A.b_c:d-9', source: 'crm_event', subject: 'x' },
      { workspace_id: 'ws 1', source: 'email', subject: 'x' },
      { workspace_id: '', source: 'email', subject: 'x' },
      { workspace_id: 7, source: 'email', subject: 'x' },
      { source: 'email', subject: 'x' },
      { workspace_id: 'ws_1', subject: 'x' },
      ...SOURCES.map((s) => ({ ...base, source: s })),
      { ...base, source: 'fax' },
      { ...base, source: 'Email' },
      { ...base, subject: 'x'.repeat(1000) },
      { ...base, subject: 'x'.repeat(1001) },
      { ...base, body: 'x'.repeat(200_000) },
      { ...base, body: 'x'.repeat(200_001) },
      { ...base, subject: 42 },
      { ...base, sender: 'ann@example.com' },
      { ...base, sender: 'Ann Lee <ann@example.com>' },
      { ...base, sender: '  <ann@example.com>  ' },
      { ...base, sender: 'ann@example' },
      { ...base, sender: 'ann at example.com' },
      { ...base, sender: '' },
      { ...base, sender: '   ' },
      { ...base, sender: `${'a'.repeat(310)}@example.com` },
      { ...base, source: 'task', sender: 'not an address' },
      { ...base, source: 'task', sender: 'x'.repeat(321) },
      { ...base, received_at: '2026-11-21T09:30:00Z' },
      { ...base, received_at: '2026-11-21T09:30:00.123456789+02:00' },
      { ...base, received_at: '2026-11-21t09:30:00z' },
      { ...base, received_at: '2026-11-21' },
      { ...base, received_at: '2026-11-21T09:30:00' },
      { ...base, received_at: '2026-11-21 09:30:00Z' },
      { ...base, received_at: '2026-02-30T09:30:00Z' },
      { ...base, received_at: '2026-13-01T09:30:00Z' },
      { ...base, received_at: '2026-11-21T24:00:00Z' },
      { ...base, received_at: '2026-11-21T23:59:60Z' },
      { ...base, received_at: '2026-11-21T09:30:00+24:00' },
      { ...base, received_at: '2026-11-21T09:30:00+0100' },
      { ...base, received_at: '2026-11-21T09:30:00.Z' },
      { ...base, received_at: '2024-02-29T09:30:00Z' },
      { ...base, received_at: '2026-02-29T09:30:00Z' },
      { ...base, received_at: 1_700_000_000 },
      { ...base, metadata: { customer_tier: 'enterprise' } },
      { ...base, metadata: [] },
      { ...base, metadata: null },
      { ...base, metadata: 'vip' },
      { workspace_id: 'ws_1', source: 'crm_event', metadata: { amount: 1 } },
      { workspace_id: 'ws_1', source: 'crm_event', metadata: {} },
      { workspace_id: 'ws_1', source: 'email', subject: '  ', body: '\n\t' },
      { workspace_id: 'ws_1', source: 'email', subject: '  ', body: ' x ' },
      { workspace_id: 'ws_1', source: 'email' },
      { ...base, priority: 'high' },
      { ...base, decision_id: 'dec_x' },
    ];
    const check = validatorFor(signal);
    for (const sample of samples) {
      const expected = validateSignal(sample, NOW).ok;
      expect({ sample, accepted: check(sample) }).toEqual({ sample, accepted: expected });
    }
  });

  it('states an e-mail rule for senders equivalent to the implementation', () => {
    const rule = signal.then.properties.sender.pattern as string;
    const re = new RegExp(rule, 'u');
    const unit = fc.constantFrom(
      'a',
      'b',
      '.',
      '@',
      '<',
      '>',
      ' ',
      '"',
      ',',
      ';',
      ':',
      '(',
      ')',
      '[',
      ']',
      '\t',
      '\n',
      '\u00a0',
      'é',
    );
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 24 }), (s) => {
        expect({ s, documented: s === '' || re.test(s) }).toEqual({ s, documented: s === '' || isEmailAddress(s) });
      }),
      { numRuns: 3000 },
    );
  });

  it('documents limits that the schema cannot state, and the implementation holds them', () => {
    const base = { workspace_id: 'ws_1', source: 'internal', subject: 'x' };
    const metadataOfBytes = (n: number) => ({ pad: 'x'.repeat(n - '{"pad":""}'.length) });
    expect(Buffer.byteLength(JSON.stringify(metadataOfBytes(LIMITS.metadataBytesMax)))).toBe(16_384);
    expect(validateSignal({ ...base, metadata: metadataOfBytes(16_384) }, NOW).ok).toBe(true);
    expect(validateSignal({ ...base, metadata: metadataOfBytes(16_385) }, NOW).ok).toBe(false);
    const nested = (levels: number): unknown => (levels === 1 ? { v: 1 } : { n: nested(levels - 1) });
    expect(validateSignal({ ...base, metadata: nested(5) }, NOW).ok).toBe(true);
    expect(validateSignal({ ...base, metadata: nested(6) }, NOW).ok).toBe(false);
    expect(validateSignal({ ...base, metadata: { a: [[[{ deep: true }]]] } }, NOW).ok).toBe(true);
    expect(validateSignal({ ...base, metadata: { a: [[[[1]]]] } }, NOW).ok).toBe(true);
    expect(validateSignal({ ...base, metadata: { a: [[[[[1]]]]] } }, NOW).ok).toBe(false);
    // The future limit is measured against the clock (as the handler receives the request).
    const at = (ms: number) => new Date(Date.now() + ms).toISOString();
    expect(validateSignal({ ...base, received_at: at(24 * 3600_000 - 60_000) }, Date.now()).ok).toBe(true);
    expect(validateSignal({ ...base, received_at: at(24 * 3600_000 + 60_000) }, Date.now()).ok).toBe(false);
  });

  it('states the Idempotency-Key rule of validateIdempotencyKey', () => {
    const check = validatorFor(doc.components.parameters.IdempotencyKey.schema);
    for (const key of [
      'a',
      'order-1',
      ' spaced ',
      '~!@#$%^&*()',
      'x'.repeat(255),
      'x'.repeat(256),
      '',
      'tab\there',
      'é',
      'line\nbreak',
      '\x7f',
    ]) {
      expect({ key, documented: check(key) }).toEqual({ key, documented: validateIdempotencyKey(key) === undefined });
    }
  });
});

describe('examples', () => {
  /** Walks the dereferenced document and validates every example against the schema beside it. */
  function collectExamples(): { where: string; schema: unknown; value: unknown }[] {
    const found: { where: string; schema: unknown; value: unknown }[] = [];
    const seen = new Set<unknown>();
    const walk = (node: any, where: string) => {
      if (node === null || typeof node !== 'object' || seen.has(node)) return;
      seen.add(node);
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${where}/${i}`));
      if (node.schema && typeof node.schema === 'object') {
        // Media type, parameter or header object.
        if ('example' in node) found.push({ where: `${where}/example`, schema: node.schema, value: node.example });
        for (const [name, ex] of Object.entries<any>(node.examples ?? {}))
          found.push({ where: `${where}/examples/${name}`, schema: node.schema, value: ex.value });
      }
      if (Array.isArray(node.examples) && ('type' in node || 'allOf' in node || 'enum' in node)) {
        // A JSON Schema with its own `examples`.
        node.examples.forEach((value: unknown, i: number) =>
          found.push({ where: `${where}/examples/${i}`, schema: node, value }),
        );
      }
      for (const [k, v] of Object.entries(node)) walk(v, `${where}/${k}`);
    };
    walk(doc, '#');
    return found;
  }

  it('every example validates against its own schema', () => {
    const examples = collectExamples();
    expect(examples.length).toBeGreaterThan(30);
    for (const { where, schema, value } of examples) {
      const check = validatorFor(schema);
      if (!check(value)) throw new Error(`${where}: ${formatAjvErrors(check.errors)}`);
    }
  });

  it('every request body, response and header has an example', () => {
    const media: [string, any][] = [
      ...operations.flatMap(([m, t, op]) =>
        op.requestBody ? [[`${m} ${t} request`, op.requestBody.content['application/json']] as [string, any]] : [],
      ),
      ...responses.map((r): [string, any] => [`${r.where} ${r.status}`, r.response.content['application/json']]),
      ...Object.entries<any>(doc['x-api-gateway-responses'].responses).map(([s, r]): [string, any] => [
        `gateway ${s}`,
        r.content['application/json'],
      ]),
    ];
    for (const [where, m] of media)
      expect({ where, has: 'example' in m || Object.keys(m.examples ?? {}).length > 0 }).toEqual({ where, has: true });
    for (const [name, h] of Object.entries<any>(doc.components.headers))
      expect({ name, has: 'example' in h }).toEqual({ name, has: true });
  });

  it('every decision example is a decision the API could return for its signal', () => {
    const decisions = Object.values<any>(doc.components.examples).filter((e) => 'decision_id' in e.value);
    expect(decisions.length).toBeGreaterThanOrEqual(3);
    for (const { value } of decisions) {
      // The ULID time is the decision's created_at.
      const ulidTime = [...value.decision_id.slice(4, 14)].reduce(
        (t: number, c: string) => t * 32 + '0123456789ABCDEFGHJKMNPQRSTVWXYZ'.indexOf(c),
        0,
      );
      expect(new Date(ulidTime).toISOString()).toBe(value.created_at);
      const weights = value.reasons.map((r: { weight: number }) => Math.abs(r.weight));
      expect(weights).toEqual([...weights].sort((a: number, b: number) => b - a));
    }
  });
});

describe('the response checker used by call()', () => {
  const checker = createOpenApiChecker(doc);
  const BASE = 'http://127.0.0.1:3000/api/v1';
  const decision = doc.components.examples.DecisionCriticalIncident.value;
  const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
    status,
    headers: new Headers({ 'content-type': 'application/json', 'x-request-id': 'req-1', ...headers }),
    json: body,
    text: JSON.stringify(body),
  });
  const err = (code: string) => errorBody(code, { request_id: 'req-1' });
  const withoutRequestId = <R extends { headers: Headers }>(r: R): R => {
    r.headers.delete('x-request-id');
    return r;
  };

  it('passes documented responses', () => {
    expect(checker.check('POST', `${BASE}/signals/analyze`, reply(200, decision))).toEqual([]);
    expect(
      checker.check('POST', `${BASE}/signals/analyze`, reply(200, decision, { 'idempotent-replayed': 'true' })),
    ).toEqual([]);
    expect(checker.check('GET', `${BASE}/decisions/${decision.decision_id}?x=1`, reply(200, decision))).toEqual([]);
    expect(checker.check('GET', `${BASE}/decisions/anything`, reply(404, err('DECISION_NOT_FOUND')))).toEqual([]);
    expect(checker.check('GET', `${BASE}/nope`, reply(404, err('NOT_FOUND')))).toEqual([]);
    expect(checker.check('GET', 'http://127.0.0.1:3000/', reply(404, err('NOT_FOUND')))).toEqual([]);
    expect(
      checker.check('DELETE', `${BASE}/signals/analyze`, reply(405, err('METHOD_NOT_ALLOWED'), { allow: 'POST' })),
    ).toEqual([]);
    expect(
      checker.check('POST', `${BASE}/signals/analyze`, reply(503, err('SERVICE_UNAVAILABLE'), { 'retry-after': '2' })),
    ).toEqual([]);
    expect(
      checker.check(
        'POST',
        `${BASE}/signals/analyze`,
        withoutRequestId(reply(413, { message: 'Request Entity Too Large' })),
      ),
    ).toEqual([]);
  });

  it.each([
    ['an extra decision field', 'POST', '/signals/analyze', reply(200, { ...decision, extra: 1 })],
    ['a category that is no name', 'POST', '/signals/analyze', reply(200, { ...decision, category: 'Misc Stuff' })],
    ['a missing X-Request-Id', 'POST', '/signals/analyze', withoutRequestId(reply(200, decision))],
    ['a non-JSON content type', 'POST', '/signals/analyze', reply(200, decision, { 'content-type': 'text/plain' })],
    [
      'Idempotent-Replayed with another value',
      'POST',
      '/signals/analyze',
      reply(200, decision, { 'idempotent-replayed': 'yes' }),
    ],
    [
      'Idempotent-Replayed on an error',
      'POST',
      '/signals/analyze',
      reply(409, err('IDEMPOTENCY_CONFLICT'), { 'idempotent-replayed': 'true' }),
    ],
    ['an undocumented status', 'POST', '/signals/analyze', reply(404, err('NOT_FOUND'))],
    ['a code of another status', 'POST', '/signals/analyze', reply(403, err('UNAUTHORIZED'))],
    ['WORKSPACE_NOT_ALLOWED on GET', 'GET', '/decisions/x', reply(403, err('WORKSPACE_NOT_ALLOWED'))],
    ['NOT_FOUND for a decision', 'GET', '/decisions/x', reply(404, err('NOT_FOUND'))],
    ['503 without Retry-After', 'GET', '/decisions/x', reply(503, err('SERVICE_UNAVAILABLE'))],
    ['a 405 with a wrong Allow', 'GET', '/signals/analyze', reply(405, err('METHOD_NOT_ALLOWED'), { allow: 'GET' })],
    ['a 405 without Allow', 'GET', '/signals/analyze', reply(405, err('METHOD_NOT_ALLOWED'))],
    ['a 404 for a known path', 'GET', '/signals/analyze', reply(404, err('NOT_FOUND'))],
    ['a 405 for an unknown path', 'GET', '/nope', reply(405, err('METHOD_NOT_ALLOWED'), { allow: 'GET' })],
    [
      'a request id differing from X-Request-Id',
      'GET',
      '/nope',
      reply(404, errorBody('NOT_FOUND', { request_id: 'other' })),
    ],
    ["API Gateway's own 403", 'POST', '/signals/analyze', withoutRequestId(reply(403, { message: 'Forbidden' }))],
    ["API Gateway's own 500", 'GET', '/nope', withoutRequestId(reply(500, { message: 'Internal Server Error' }))],
    [
      'a gateway-shaped 413 with X-Request-Id',
      'POST',
      '/signals/analyze',
      reply(413, { message: 'Request Entity Too Large' }),
    ],
  ])('fails %s', (_name, method, path, r) => {
    expect(checker.check(method, `${BASE}${path}`, r)).not.toEqual([]);
  });
});
