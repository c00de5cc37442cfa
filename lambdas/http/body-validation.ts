// The one way a JSON body is checked against its valibot schema: an object is required, and each field is reported
// once, with the first message its schema gave (so the `details` of every route read alike).
import * as v from 'valibot';
import type { ErrorDetail } from './errors';

export type BodyValidation<T> = { ok: true; output: T } | { ok: false; details: ErrorDetail[] };

export function validateBody<S extends v.GenericSchema>(schema: S, input: unknown): BodyValidation<v.InferOutput<S>> {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return { ok: false, details: [{ field: '(body)', message: 'must be a JSON object' }] };
  }
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  if (result.success) return { ok: true, output: result.output };
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  for (const issue of result.issues) {
    const field = issue.path?.map((p) => String(p.key)).join('.') || '(body)';
    if (seen.has(field)) continue;
    seen.add(field);
    details.push({ field, message: issue.message });
  }
  return { ok: false, details };
}
