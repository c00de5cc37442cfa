// The one way a JSON body is checked against its valibot schema: an object is required, and each field is reported
// once, with the first message its schema gave (so the `details` of every route read alike). A missing required
// field is reported as "is required" (docs/partners.md, "Errors"): valibot gives it the object's own message, which our
// schemas word for unknown fields.
import * as v from 'valibot';
import { jsonPath } from '../domain/json-walk';
import type { ErrorDetail } from './errors';

/** A request part checked: what it holds, or every problem with it. */
export type Validated<T> = ({ ok: true } & T) | { ok: false; details: ErrorDetail[] };

export const MISSING_FIELD_MESSAGE = 'is required';

/** An object schema's issue for a key it requires and the input lacks (an unknown key has `expected: 'never'`). */
const isMissingKey = (issue: v.BaseIssue<unknown>): boolean =>
  issue.kind === 'schema' &&
  issue.type.endsWith('object') &&
  issue.path?.at(-1)?.origin === 'key' &&
  issue.expected !== 'never';

export function validateBody<S extends v.GenericSchema>(
  schema: S,
  input: unknown,
): Validated<{ output: v.InferOutput<S> }> {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return { ok: false, details: [{ field: '(body)', message: 'must be a JSON object' }] };
  }
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  if (result.success) return { ok: true, output: result.output };
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  for (const issue of result.issues) {
    const field =
      jsonPath(issue.path?.map((p) => (typeof p.key === 'number' ? p.key : String(p.key))) ?? []) || '(body)';
    if (seen.has(field)) continue;
    seen.add(field);
    details.push({ field, message: isMissingKey(issue) ? MISSING_FIELD_MESSAGE : issue.message });
  }
  return { ok: false, details };
}
