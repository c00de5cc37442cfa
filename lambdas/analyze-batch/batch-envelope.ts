// The batch body's envelope: `{"signals": [1 to 100 signals]}`. Only the envelope is checked here; each signal is
// authorized and validated on its own afterwards, as analyze would.
import type { ErrorDetail } from '../http/errors';

export const BATCH_LIMITS = { signalsMax: 100, bodyBytes: 1024 * 1024 } as const;
export const BATCH_BODY_LIMIT = { bytes: BATCH_LIMITS.bodyBytes, message: 'The request body is larger than 1 MiB.' };

export function validateEnvelope(
  body: unknown,
): { ok: true; signals: unknown[] } | { ok: false; details: ErrorDetail[] } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return { ok: false, details: [{ field: '(body)', message: 'must be a JSON object with a signals array' }] };
  }
  const details: ErrorDetail[] = [];
  for (const key of Object.keys(body)) {
    if (key !== 'signals') details.push({ field: key, message: 'is not a field of a batch' });
  }
  const signals = (body as { signals?: unknown }).signals;
  if (!Array.isArray(signals) || signals.length < 1 || signals.length > BATCH_LIMITS.signalsMax) {
    details.push({ field: 'signals', message: 'is required and must be an array of 1 to 100 signals' });
  }
  return details.length ? { ok: false, details } : { ok: true, signals: signals as unknown[] };
}
