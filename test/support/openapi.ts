// docs/openapi.yaml as a test oracle: every response a test receives from the local API must be one the document
// describes for that method, path and status (body schema, required headers). `call()` in ./http runs
// `assertMatchesOpenApi` on every reply, so each end-to-end test checks the document as a side effect.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Ajv2020, { type AnySchema, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { parse as parseYaml } from 'yaml';

export const OPENAPI_FILE = resolve(__dirname, '..', '..', 'docs', 'openapi.yaml');

/** The methods an OpenAPI path item may hold as operations. */
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

type Json = any;

/** What the checker needs of a reply (structurally the `Reply` of ./http). */
export interface CheckedReply {
  status: number;
  headers: Headers;
  json?: unknown;
  text: string;
}

/** The document exactly as written (with `$ref`s), parsed fresh from docs/openapi.yaml. */
export function loadOpenApiSource(): Json {
  return parseYaml(readFileSync(OPENAPI_FILE, 'utf8'));
}

function pointerGet(root: Json, ref: string): Json {
  if (!ref.startsWith('#/')) throw new Error(`only local $refs are supported, got ${ref}`);
  let node = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !(key in node)) throw new Error(`unresolvable $ref ${ref}`);
    node = node[key];
  }
  return node;
}

/**
 * Resolves every local `$ref` (no cycles allowed). Each target is resolved once, so responses and schemas shared
 * through `$ref` stay the same object. A `$ref` with only `description`/`summary` beside it takes those over; any
 * other sibling keyword is kept and the target applied through `allOf` (JSON Schema 2020-12 semantics).
 */
export function dereferenceOpenApi(source: Json): Json {
  const done = new Map<string, Json>();
  const active = new Set<string>();
  const walk = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    if (typeof node.$ref === 'string') {
      const ref: string = node.$ref;
      if (active.has(ref)) throw new Error(`circular $ref ${ref}`);
      let target = done.get(ref);
      if (target === undefined) {
        active.add(ref);
        target = walk(pointerGet(source, ref));
        active.delete(ref);
        done.set(ref, target);
      }
      const siblings = Object.keys(node).filter((k) => k !== '$ref');
      if (siblings.length === 0) return target;
      const rest: Json = {};
      for (const k of siblings) rest[k] = walk(node[k]);
      if (siblings.every((k) => k === 'description' || k === 'summary')) return { ...target, ...rest };
      return { ...rest, allOf: [target, ...(rest.allOf ?? [])] };
    }
    const out: Json = {};
    for (const [k, v] of Object.entries(node)) out[k] = walk(v);
    return out;
  };
  return walk(source);
}

/** Ajv for OpenAPI 3.1 schemas (JSON Schema 2020-12), strict, with formats and the document's `x-` annotations. */
export function createSchemaAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, strictRequired: false, strictTypes: false, allErrors: true });
  addFormats(ajv);
  // OpenAPI's own schema keywords are annotations as far as validation goes.
  ajv.addVocabulary(['discriminator', 'xml', 'externalDocs', 'example']);
  return ajv;
}

const extensionKeywords = new WeakMap<Ajv2020, Set<string>>();

/** Specification extensions (`x-max-depth`, ...) are annotations for ajv. */
function registerExtensions(ajv: Ajv2020, schema: Json): void {
  if (Array.isArray(schema)) return schema.forEach((s) => registerExtensions(ajv, s));
  if (schema === null || typeof schema !== 'object') return;
  let known = extensionKeywords.get(ajv);
  if (!known) extensionKeywords.set(ajv, (known = new Set()));
  for (const [k, v] of Object.entries(schema)) {
    if (k.startsWith('x-') && !known.has(k)) {
      ajv.addKeyword(k);
      known.add(k);
    }
    registerExtensions(ajv, v);
  }
}

/** Compiles a dereferenced schema of the document. */
export function compileSchema(ajv: Ajv2020, schema: Json): ValidateFunction {
  registerExtensions(ajv, schema);
  return ajv.compile(schema as AnySchema);
}

export function formatAjvErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .map(
      (e) =>
        `${e.instancePath || '(root)'} ${e.message ?? ''}${e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''}`,
    )
    .join('; ');
}

/** The path part of every server URL (`/api/v1`); they must agree. */
export function serverBasePath(doc: Json): string {
  const bases = new Set<string>(
    (doc.servers ?? []).map((s: { url: string }) => {
      const m = /^[a-z][a-z0-9+.-]*:\/\/[^/]+(\/.*)?$/i.exec(s.url);
      if (!m) throw new Error(`server URL ${s.url} is not absolute`);
      return (m[1] ?? '').replace(/\/+$/, '');
    }),
  );
  if (bases.size !== 1) throw new Error(`servers disagree on the base path: ${[...bases].join(', ')}`);
  return [...bases][0];
}

/** Matches a document path template (`/decisions/{decision_id}`) like API Gateway: one non-empty segment per param. */
export function matchTemplate(template: string, path: string): boolean {
  const t = template.split('/');
  const p = path.split('/');
  if (t.length !== p.length) return false;
  return t.every((seg, i) => (/^\{[^}]+\}$/.test(seg) ? p[i].length > 0 : seg === p[i]));
}

export type Resolution =
  | { kind: 'operation'; template: string; method: string; operation: Json; responses: Record<string, Json> }
  | { kind: 'method_not_allowed'; template: string; allow: string[]; responses: Record<string, Json> }
  | { kind: 'not_found'; responses: Record<string, Json> };

const METHOD_SET = new Set<string>(HTTP_METHODS);

export function documentedMethods(pathItem: Json): string[] {
  return Object.keys(pathItem ?? {})
    .filter((k) => METHOD_SET.has(k))
    .map((k) => k.toUpperCase());
}

function without(responses: Record<string, Json>, status: string): Record<string, Json> {
  const { [status]: _dropped, ...rest } = responses;
  return rest;
}

/** Which responses the document allows for a request: its operation's, or the fallback's 404/405 (`x-fallback`). */
export function resolveRequest(doc: Json, method: string, url: string): Resolution {
  const pathname = new URL(url, 'http://host.invalid').pathname;
  const base = serverBasePath(doc);
  const fallback: Record<string, Json> = doc['x-fallback']?.responses ?? {};
  const relative = pathname.startsWith(`${base}/`) ? pathname.slice(base.length) : undefined;
  const template =
    relative === undefined ? undefined : Object.keys(doc.paths ?? {}).find((t) => matchTemplate(t, relative));
  if (template === undefined) return { kind: 'not_found', responses: without(fallback, '405') };
  const pathItem = doc.paths[template];
  const operation = pathItem[method.toLowerCase()];
  if (METHOD_SET.has(method.toLowerCase()) && operation) {
    return {
      kind: 'operation',
      template,
      method: method.toUpperCase(),
      operation,
      responses: operation.responses ?? {},
    };
  }
  return {
    kind: 'method_not_allowed',
    template,
    allow: documentedMethods(pathItem),
    responses: without(fallback, '404'),
  };
}

function describeResolution(resolution: Resolution, method: string): string {
  if (resolution.kind === 'operation') return `operation ${resolution.method} ${resolution.template}`;
  if (resolution.kind === 'method_not_allowed')
    return `fallback: ${method.toUpperCase()} on ${resolution.template} (documented: ${resolution.allow.join(', ')})`;
  return 'fallback: path not in the document';
}

/** Header values are strings; a schema of another type describes the serialized value (RFC 9110 style). */
function headerValue(raw: string, schema: Json): unknown {
  const type = schema?.type;
  if (type === 'integer' || type === 'number') return /^-?\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : raw;
  if (type === 'boolean') return raw === 'true' ? true : raw === 'false' ? false : raw;
  return raw;
}

export interface OpenApiChecker {
  doc: Json;
  /** Returns the problems (empty when the reply matches the document). */
  check(method: string, url: string, reply: CheckedReply): string[];
}

export function createOpenApiChecker(doc: Json = dereferenceOpenApi(loadOpenApiSource())): OpenApiChecker {
  const ajv = createSchemaAjv();
  const validators = new Map<Json, ValidateFunction>();
  const validatorFor = (schema: Json): ValidateFunction => {
    let v = validators.get(schema);
    if (!v) {
      v = compileSchema(ajv, schema);
      validators.set(schema, v);
    }
    return v;
  };

  // Every header name the document describes anywhere: such a header on a response that does not list it is a
  // difference between the service and the document.
  const knownHeaders = new Set<string>();
  const collect = (responses: Record<string, Json> | undefined) => {
    for (const r of Object.values(responses ?? {}))
      for (const h of Object.keys(r?.headers ?? {})) knownHeaders.add(h.toLowerCase());
  };
  for (const h of Object.keys(doc.components?.headers ?? {})) knownHeaders.add(h.toLowerCase());
  for (const item of Object.values<Json>(doc.paths ?? {})) for (const m of HTTP_METHODS) collect(item[m]?.responses);
  collect(doc['x-fallback']?.responses);

  const gatewayAnswers: Record<string, Json> = doc['x-api-gateway-responses']?.responses ?? {};

  function checkBody(response: Json, reply: CheckedReply, problems: string[]): void {
    const content: Record<string, Json> | undefined = response.content;
    if (!content || Object.keys(content).length === 0) {
      if (reply.text.length > 0) problems.push('the document describes no body, but the response has one');
      return;
    }
    const contentType = reply.headers.get('content-type');
    if (!contentType) return void problems.push('no Content-Type header');
    const mediaType = contentType.split(';')[0].trim().toLowerCase();
    const key =
      Object.keys(content).find((k) => k.toLowerCase() === mediaType) ??
      Object.keys(content).find((k) => k.endsWith('/*') && mediaType.startsWith(k.slice(0, -1).toLowerCase())) ??
      Object.keys(content).find((k) => k === '*/*');
    if (!key)
      return void problems.push(
        `Content-Type ${contentType} is not documented (documented: ${Object.keys(content).join(', ')})`,
      );
    const schema = content[key].schema;
    if (!schema) return;
    let body: unknown = reply.json;
    if (body === undefined) {
      try {
        body = JSON.parse(reply.text);
      } catch {
        return void problems.push('the body is not JSON');
      }
    }
    const validate = validatorFor(schema);
    if (!validate(body)) problems.push(`body does not match the schema: ${formatAjvErrors(validate.errors)}`);
  }

  function checkHeaders(response: Json, reply: CheckedReply, problems: string[]): void {
    const documented = new Map<string, Json>();
    for (const [name, header] of Object.entries<Json>(response.headers ?? {}))
      documented.set(name.toLowerCase(), header);
    for (const [name, header] of documented) {
      const raw = reply.headers.get(name);
      if (raw === null) {
        if (header.required) problems.push(`required header ${name} is missing`);
        continue;
      }
      if (header.schema) {
        const validate = validatorFor(header.schema);
        if (!validate(headerValue(raw, header.schema)))
          problems.push(`header ${name}: ${JSON.stringify(raw)} ${formatAjvErrors(validate.errors)}`);
      }
    }
    reply.headers.forEach((_value, name) => {
      const lower = name.toLowerCase();
      if (knownHeaders.has(lower) && !documented.has(lower))
        problems.push(`header ${name} is not documented for this response`);
    });
  }

  function check(method: string, url: string, reply: CheckedReply): string[] {
    const resolution = resolveRequest(doc, method, url);
    const status = String(reply.status);
    // The one answer of API Gateway (imitated by the local server) a local test can meet: a body over 10 MB. Every
    // answer of the service carries X-Request-Id; API Gateway's own answers do not, and have its own body shape,
    // documented under x-api-gateway-responses.
    if (status === '413' && !reply.headers.has('x-request-id') && gatewayAnswers[status]) {
      const problems: string[] = [];
      checkBody(gatewayAnswers[status], reply, problems);
      return problems.map((p) => `API Gateway ${status} (${describeResolution(resolution, method)}): ${p}`);
    }
    const response =
      resolution.responses[status] ?? resolution.responses[`${status[0]}XX`] ?? resolution.responses.default;
    if (!response) {
      const documented = Object.keys(resolution.responses).join(', ') || 'none';
      return [
        `status ${status} is not documented for ${describeResolution(resolution, method)} (documented: ${documented})`,
      ];
    }
    const problems: string[] = [];
    checkHeaders(response, reply, problems);
    checkBody(response, reply, problems);

    // Rules the document states in words, checked too.
    const body = reply.json as { error?: { request_id?: unknown } } | undefined;
    if (body && typeof body === 'object' && body.error && typeof body.error === 'object') {
      if (body.error.request_id !== reply.headers.get('x-request-id')) {
        problems.push(
          `error.request_id ${JSON.stringify(body.error.request_id)} differs from X-Request-Id ${JSON.stringify(reply.headers.get('x-request-id'))}`,
        );
      }
    }
    if (reply.status === 405 && resolution.kind === 'method_not_allowed') {
      const allow = (reply.headers.get('allow') ?? '')
        .split(',')
        .map((m) => m.trim())
        .filter(Boolean)
        .sort();
      if (allow.join(',') !== [...resolution.allow].sort().join(',')) {
        problems.push(
          `Allow ${JSON.stringify(reply.headers.get('allow'))} differs from the documented methods ${resolution.allow.join(', ')}`,
        );
      }
    }
    return problems.map((p) => `${describeResolution(resolution, method)}, status ${status}: ${p}`);
  }

  return { doc, check };
}

let shared: OpenApiChecker | undefined;

/**
 * Throws unless `reply` is a response docs/openapi.yaml documents for `method` and `url` (a full URL, or the path
 * as sent, with its `/api/v1` prefix): the operation (or, for paths and methods the document lacks, `x-fallback`),
 * the status, the JSON body against its schema, and the headers (required ones present, documented ones valid).
 */
export function assertMatchesOpenApi(method: string, url: string, reply: CheckedReply): void {
  shared ??= createOpenApiChecker();
  const problems = shared.check(method, url, reply);
  if (problems.length > 0) {
    const path = new URL(url, 'http://host.invalid').pathname;
    throw new Error(
      `Response to ${method.toUpperCase()} ${path} does not match docs/openapi.yaml:\n  - ${problems.join('\n  - ')}\n` +
        `  body: ${reply.text.length > 600 ? `${reply.text.slice(0, 600)}…` : reply.text}`,
    );
  }
}
