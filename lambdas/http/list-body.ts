// A body that carries a list, `{"<field>": [1 to max items]}`: analyze-batch's signals and import's examples
// (docs/partners.md, "Analyzing in batches" and "Importing your history, and forgetting it"). Only the envelope is checked
// here, with the Idempotency-Key header; each item is checked on its own afterwards. Such a route spends one request
// of the key's limit per item once the envelope is valid and before any item (docs/partners.md, "Scopes and rate
// limits"), so a refusal stores nothing.
import { type DroppedKey, jsonPath } from '../domain/json-walk';
import type { ApiRequest, Check } from './api-handler';
import { type Validated, detailsUnder } from './body-validation';
import { type ErrorDetail, validInput, withForbiddenKeys } from './errors';
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
  const items = (body as Record<string, unknown>)[field];
  const listProblem: ErrorDetail | undefined =
    items === undefined && messages.missing
      ? { field, message: messages.missing }
      : !Array.isArray(items) || items.length < 1 || items.length > max
        ? { field, message: messages.invalid }
        : undefined;
  // In document order (docs/partners.md, "Errors"); a missing list last.
  const details: ErrorDetail[] = [];
  for (const key of Object.keys(body)) {
    if (key !== field) details.push({ field: jsonPath([key]), message: messages.unknownField });
    else if (listProblem) details.push(listProblem);
  }
  if (items === undefined && listProblem) details.push(listProblem);
  return details.length ? { ok: false, details } : { ok: true, items: items as unknown[] };
}

/** A valid list body's items, ready to be checked one by one. */
interface ListItems {
  items: unknown[];
  idempotencyKey: string | undefined;
  /** What the Idempotency-Key covers: the body, with the keys dropped from its items, so a fixed body is another. */
  request: unknown;
  /**
   * An item's own check as the answer reports it (docs/partners.md, "Errors"): each field a path into the body
   * (`signals[3].subject`), and the forbidden keys the item held, each a problem of that item alone.
   */
  checkItem: <T>(index: number, checked: Validated<T>) => Validated<T>;
  /** An item's problems found later (a label past the limit), written as `checkItem` writes them. */
  itemDetails: (index: number, details: ErrorDetail[]) => ErrorDetail[];
}

/**
 * The items of a valid list body and the request's Idempotency-Key, with one request of the key's limit spent per
 * item; otherwise one VALIDATION_ERROR (envelope, header and dropped keys outside the items together) or 429, having
 * spent none.
 */
export async function takeListBody(
  spec: ListBody,
  { event, forbiddenKeys, consumeRateLimit }: ApiRequest,
): Promise<ListItems> {
  const idempotencyKey = event.headers['idempotency-key'];
  const inItem = (key: DroppedKey) => key.item !== undefined && key.item.list === spec.field;
  const { items } = validInput(
    listEnvelope(spec, event.body),
    validateIdempotencyKey(idempotencyKey),
    forbiddenKeys.filter((key) => !inItem(key)),
    event.body,
  );
  await consumeRateLimit(items.length);
  const itemDetails = (index: number, details: ErrorDetail[]) => detailsUnder(`${spec.field}[${index}]`, details);
  const dropped = new Map<number, DroppedKey[]>();
  for (const key of forbiddenKeys.filter(inItem)) {
    const index = key.item!.index;
    if (!dropped.has(index)) dropped.set(index, []);
    dropped.get(index)!.push(key);
  }
  return {
    items,
    idempotencyKey,
    request: dropped.size ? { body: event.body, dropped_keys: forbiddenKeys.map((key) => key.field) } : event.body,
    checkItem: (index, checked) => {
      const own = checked.ok ? [] : itemDetails(index, checked.details);
      const details = withForbiddenKeys(event.body, own, dropped.get(index) ?? []);
      return details.length ? { ok: false, details } : checked;
    },
    itemDetails,
  };
}
