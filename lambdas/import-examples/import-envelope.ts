// The import body's envelope: `{"examples": [1 to 100 of {"signal", "labels"}]}` (docs/partners.md, "Importing your
// history, and forgetting it"). Only the envelope is checked here; each example is validated on its own afterwards.
import { listEnvelope } from '../http/body-validation';

export const IMPORT_LIMITS = { examplesMax: 100, bodyBytes: 1024 * 1024 } as const;

export const validateImportEnvelope = (body: unknown) =>
  listEnvelope(body, 'examples', IMPORT_LIMITS.examplesMax, {
    notObject: 'must be a JSON object with an examples array',
    unknownField: 'is not a field of an import',
    missing: 'is required',
    invalid: 'must be an array of 1 to 100 examples',
  });
