// A body that carries a list, `{"<field>": [1 to max items]}`: analyze-batch's signals and import's examples
// (docs/partners.md, "Analyzing in batches" and "Importing your history, and forgetting it"). Only the envelope is checked
// here, with the Idempotency-Key header; each item is checked on its own afterwards. Such a route spends one request
// of the key's limit per item once the envelope is valid and before any item (docs/partners.md, "Scopes and rate
// limits"), so a refusal stores nothing.
import { jsonPath } from '../domain/json-walk';
import type { ApiRequest, Check } from './api-handler';
import type { Validated } from './body-validation';
import { type ErrorDetail, validInput } from './errors';
import { validateIdempotencyKey } from './signal-schema';

export interface ListBody {
  field: string;
  /** Items at most; at least one. */
  max: number;
  /** The body's size limit: 413 above it. */
  bodyBytes: number;
  /** `missing` words an absent field apart from a malformed one. */
  messages: { notObject: string; unknownField: string; missing?: string; invalid: string };
}

/** The pipeline's check of a list body: its size, media type and JSON. */
export const listBodyCheck = (body: ListBody): Check => ({ jsonBody: { maxBytes: body.bodyBytes } });

/** The body's items, or every problem with its envelope. */
export function listEnvelope(spec: ListBody, body: unknown): Validated<{ items: unknown[] }> {
  const { field, max, messages } = spec;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return { ok: false, details: [{ field: '(body)', message: messages.notObject }] };
  }
  const details: ErrorDetail[] = [];
  for (const key of Object.keys(body)) {
    if (key !== field) details.push({ field: jsonPath([key]), message: messages.unknownField });
  }
  const items = (body as Record<string, unknown>)[field];
  if (items === undefined && messages.missing) details.push({ field, message: messages.missing });
  else if (!Array.isArray(items) || items.length < 1 || items.length > max) {
    details.push({ field, message: messages.invalid });
  }
  return details.length ? { ok: false, details } : { ok: true, items: items as unknown[] };
}

/**
 * The items of a valid list body and the request's Idempotency-Key, with one request of the key's limit spent per
 * item; otherwise one VALIDATION_ERROR (envelope, header and dropped keys together) or 429, having spent none.
 */
export async function takeListBody(
  spec: ListBody,
  { event, forbiddenKeys, consumeRateLimit }: ApiRequest,
): Promise<{ items: unknown[]; idempotencyKey: string | undefined }> {
  const idempotencyKey = event.headers['idempotency-key'];
  const { items } = validInput(listEnvelope(spec, event.body), validateIdempotencyKey(idempotencyKey), forbiddenKeys);
  await consumeRateLimit(items.length);
  return { items, idempotencyKey };
}
