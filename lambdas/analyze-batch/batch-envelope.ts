// The batch body's envelope: `{"signals": [1 to 100 signals]}`. Each signal is authorized and validated on its own
// afterwards, as analyze would.
import type { ListBody } from '../http/list-body';

export const BATCH_BODY: ListBody = {
  field: 'signals',
  max: 100,
  bodyBytes: 1024 * 1024,
  messages: {
    notObject: 'must be a JSON object with a signals array',
    unknownField: 'is not a field of a batch',
    missing: 'is required',
    invalid: 'must be an array of 1 to 100 signals',
  },
};
