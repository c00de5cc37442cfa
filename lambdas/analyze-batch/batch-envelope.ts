// The batch body's envelope: `{"signals": [1 to 100 signals]}`. Only the envelope is checked here; each signal is
// authorized and validated on its own afterwards, as analyze would.
import { listEnvelope } from '../http/body-validation';

export const BATCH_LIMITS = { signalsMax: 100, bodyBytes: 1024 * 1024 } as const;

export const validateEnvelope = (body: unknown) =>
  listEnvelope(body, 'signals', BATCH_LIMITS.signalsMax, {
    notObject: 'must be a JSON object with a signals array',
    unknownField: 'is not a field of a batch',
    invalid: 'is required and must be an array of 1 to 100 signals',
  });
