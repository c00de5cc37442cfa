// The idempotency record's hashes (docs/partners.md, "Idempotency window and decision retention"). The request's hash
// is an HMAC keyed by the raw Idempotency-Key, which is never stored: a plain SHA-256 of the body let anyone who reads
// the table confirm a guess at a signal's text (a one-time code, say) in seconds.
import { hash, createHmac } from 'node:crypto';
import { canonicalJson } from './json-walk';

/** Marks a keyed request hash; a record without it was written before, with the body's plain SHA-256. */
const KEYED = 'k1:';

const sha256 = (text: string) => hash('sha256', text, 'hex');

export interface IdempotencyRequest {
  /** SHA-256 of the partner's Idempotency-Key (the raw key is not stored). */
  keyHash: string;
  /** HMAC-SHA256 of the canonical request body, keyed by the Idempotency-Key: same key, other body is a conflict. */
  requestHash: string;
  /** The plain SHA-256 a record written before the keyed hash holds (read only for such a record, within 24 h). */
  legacyRequestHash?: () => string;
}

export function idempotencyRequest(idempotencyKey: string, body: unknown): IdempotencyRequest {
  const canonical = canonicalJson(body);
  return {
    keyHash: sha256(idempotencyKey),
    requestHash: KEYED + createHmac('sha256', idempotencyKey).update(canonical).digest('hex'),
    legacyRequestHash: () => sha256(canonical),
  };
}

/** The plain SHA-256 a record written before the keyed hash holds for `body`, computed only when such a record is met. */
export const legacyRequestHash =
  (body: unknown): (() => string) =>
  () =>
    sha256(canonicalJson(body));

/** Whether a stored record's `request_hash` is this request's. */
export function sameRequest(request: IdempotencyRequest, stored: unknown): boolean {
  if (typeof stored !== 'string') return false;
  if (stored.startsWith(KEYED) || !request.legacyRequestHash) return stored === request.requestHash;
  return stored === request.legacyRequestHash();
}
