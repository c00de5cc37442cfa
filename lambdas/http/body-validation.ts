// The one way a JSON body is checked against its valibot schema: an object is required, and each field is reported
// once, with the first message its schema gave, every unknown field named, in the order the body holds them (so the
// `details` of every route read alike). A missing required field is reported as "is required" (docs/partners.md,
// "Errors"): valibot gives it the object's own message, which our schemas word for unknown fields.
import * as v from 'valibot';
import { comparePlaces, fieldPlacer, jsonPath } from '../domain/json-walk';
import type { ErrorDetail } from './errors';

/** A request part checked: what it holds, or every problem with it. */
export type Validated<T> = ({ ok: true } & T) | { ok: false; details: ErrorDetail[] };

export const MISSING_FIELD_MESSAGE = 'is required';

/** The field of a problem with the checked part as a whole (a name in parentheses is never a JSON path). */
const BODY_FIELD = '(body)';

/** A part's details written as paths into what holds it at `path`: `(body)`, the part itself, becomes `path`. */
export const detailsUnder = (path: string, details: readonly ErrorDetail[]): ErrorDetail[] =>
  details.map((d) => ({
    ...d,
    field: d.field.startsWith('(') ? path : d.field.startsWith('[') ? `${path}${d.field}` : `${path}.${d.field}`,
  }));

/**
 * `details` (in document order) with `detail` in its place among them, unless its field has one already: a problem a
 * check beside the schema found, named in the same answer as the schema's.
 */
export function withDetailInPlace(body: unknown, details: ErrorDetail[], detail: ErrorDetail): ErrorDetail[] {
  if (details.some((d) => d.field === detail.field)) return details;
  const placeOf = fieldPlacer(body);
  const at = placeOf(detail.field);
  const before = details.findIndex((d) => comparePlaces(placeOf(d.field), at) > 0);
  const placed = [...details];
  placed.splice(before === -1 ? placed.length : before, 0, detail);
  return placed;
}

/** An object schema's issue for a key it requires and the input lacks (an unknown key has `expected: 'never'`). */
const isMissingKey = (issue: v.BaseIssue<unknown>): boolean =>
  issue.kind === 'schema' &&
  issue.type.endsWith('object') &&
  issue.path?.at(-1)?.origin === 'key' &&
  issue.expected !== 'never';

/** An object schema's issue for a key the input holds and the schema does not. */
const isUnknownKey = (issue: v.BaseIssue<unknown>): boolean =>
  issue.kind === 'schema' && issue.type.endsWith('object') && issue.expected === 'never';

const keysOf = (issue: v.BaseIssue<unknown>): (string | number)[] =>
  issue.path?.map((p) => (typeof p.key === 'number' ? p.key : String(p.key))) ?? [];

/**
 * A path's place in the body, key by key: a key the body lacks comes after those it holds at that level. Each
 * object's key order is read once, so a body of thousands of unknown keys is placed in linear time.
 */
function placer(input: unknown): (keys: readonly (string | number)[]) => number[] {
  const orders = new Map<object, Map<string, number>>();
  const orderOf = (node: object) => {
    let order = orders.get(node);
    if (!order) orders.set(node, (order = new Map(Object.keys(node).map((key, i) => [key, i]))));
    return order;
  };
  return (keys) => {
    const place: number[] = [];
    let node = input;
    for (const key of keys) {
      if (node === null || typeof node !== 'object') break;
      const order = orderOf(node);
      const at = order.get(String(key));
      place.push(at ?? order.size);
      if (at === undefined) break;
      node = (node as Record<string, unknown>)[String(key)];
    }
    return place;
  };
}

/** What this module reads of a valibot schema: an object's entries, an array's item, an optional's wrapped schema
 * (a piped schema carries its first schema's, and its later schemas in `pipe`: a check before an object's schema). */
interface SchemaShape {
  type: string;
  entries?: Record<string, SchemaShape>;
  item?: SchemaShape;
  wrapped?: SchemaShape;
  pipe?: SchemaShape[];
}

/** The schema that holds `node`'s shape: through optionals, and past a pipe's leading checks to its object or array. */
function shapeOf(node: SchemaShape | undefined): SchemaShape | undefined {
  let at = node;
  while (at?.wrapped) at = at.wrapped;
  const inner = at && !at.entries && !at.item ? at.pipe?.find((p) => p.entries || p.item || p.wrapped) : undefined;
  return inner ? shapeOf(inner) : at;
}

/** The entries of the strict object the schema expects at `keys`, when the walk can tell (unions: it cannot). */
function strictEntriesAt(
  schema: SchemaShape,
  keys: readonly (string | number)[],
): Record<string, SchemaShape> | undefined {
  let node: SchemaShape | undefined = schema;
  for (const key of [...keys, undefined]) {
    node = shapeOf(node);
    if (!node) return undefined;
    if (key === undefined) return node.type === 'strict_object' ? node.entries : undefined;
    node = typeof key === 'number' ? node.item : node.entries?.[key];
  }
  return undefined;
}

/**
 * A detail per issue. valibot's strict object names only the first unknown key of each object: the others of that
 * object are named here too, with the same message, so one answer lists every unknown field.
 */
function issueDetails(schema: v.GenericSchema, issues: v.BaseIssue<unknown>[]) {
  const out: { keys: (string | number)[]; message: string }[] = [];
  for (const issue of issues) {
    const keys = keysOf(issue);
    const message = isMissingKey(issue) ? MISSING_FIELD_MESSAGE : issue.message;
    const holder = issue.path?.at(-1)?.input;
    const entries = isUnknownKey(issue) ? strictEntriesAt(schema, keys.slice(0, -1)) : undefined;
    if (!entries || holder === null || typeof holder !== 'object') {
      out.push({ keys, message });
      continue;
    }
    for (const key of Object.keys(holder))
      if (!Object.hasOwn(entries, key)) out.push({ keys: [...keys.slice(0, -1), key], message });
  }
  return out;
}

export function validateBody<S extends v.GenericSchema>(
  schema: S,
  input: unknown,
): Validated<{ output: v.InferOutput<S> }> {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return { ok: false, details: [{ field: BODY_FIELD, message: 'must be a JSON object' }] };
  }
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  if (result.success) return { ok: true, output: result.output };
  // In document order (docs/partners.md, "Errors"), each field once, with the first message its schema gave.
  const placeOf = placer(input);
  const placed = issueDetails(schema, result.issues).map(({ keys, message }) => ({
    field: jsonPath(keys) || BODY_FIELD,
    message,
    place: placeOf(keys),
  }));
  placed.sort((a, b) => comparePlaces(a.place, b.place));
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  for (const { field, message } of placed) {
    if (seen.has(field)) continue;
    seen.add(field);
    details.push({ field, message });
  }
  return { ok: false, details };
}
