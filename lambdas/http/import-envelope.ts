// The import body's envelope: `{"examples": [1 to 100 of {"signal", "labels"}]}` (docs/partners.md, "Importing your
// history, and forgetting it"). Each example is validated on its own afterwards.
import type { ListBody } from './list-body';

export const IMPORT_BODY: ListBody = {
  field: 'examples',
  max: 100,
  bodyBytes: 1024 * 1024,
  messages: {
    notObject: 'must be a JSON object with an examples array',
    unknownField: 'is not a field of an import',
    missing: 'is required',
    invalid: 'must be an array of 1 to 100 examples',
  },
};
