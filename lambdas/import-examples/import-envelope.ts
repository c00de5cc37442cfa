// The import body's envelope: `{"examples": [1 to 100 of {"signal", "labels"}]}` (contract section 13). Only the
// envelope is checked here; each example is validated on its own afterwards.
import type { ErrorDetail } from '../http/errors';

export const IMPORT_LIMITS = { examplesMax: 100, bodyBytes: 1024 * 1024 } as const;
export const IMPORT_BODY_LIMIT = { bytes: IMPORT_LIMITS.bodyBytes, message: 'The request body is larger than 1 MiB.' };

export function validateImportEnvelope(
  body: unknown,
): { ok: true; examples: unknown[] } | { ok: false; details: ErrorDetail[] } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return { ok: false, details: [{ field: '(body)', message: 'must be a JSON object with an examples array' }] };
  }
  const details: ErrorDetail[] = [];
  for (const key of Object.keys(body)) {
    if (key !== 'examples') details.push({ field: key, message: 'is not a field of an import' });
  }
  const examples = (body as { examples?: unknown }).examples;
  if (examples === undefined) details.push({ field: 'examples', message: 'is required' });
  else if (!Array.isArray(examples) || examples.length < 1 || examples.length > IMPORT_LIMITS.examplesMax) {
    details.push({ field: 'examples', message: 'must be an array of 1 to 100 examples' });
  }
  return details.length ? { ok: false, details } : { ok: true, examples: examples as unknown[] };
}
