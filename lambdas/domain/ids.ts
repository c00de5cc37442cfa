// Identifiers: ULIDs (time-sortable, 48-bit ms timestamp + 80 random bits, Crockford base32).
import { randomBytes } from 'node:crypto';

export const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const DECISION_ID_PATTERN = /^dec_[0-9A-HJKMNP-TV-Z]{26}$/;

/** A ULID's time part: 10 Crockford base32 digits of the epoch ms. */
export function ulidTime(ms: number): string {
  let time = '';
  let t = ms;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  return time;
}

export function ulid(nowMs: number = Date.now()): string {
  const time = ulidTime(nowMs);
  // 16 characters of 5 random bits each: the low bits of 16 bytes from the CSPRNG.
  let rand = '';
  for (const byte of randomBytes(16)) rand += CROCKFORD[byte & 31];
  return time + rand;
}

export const newDecisionId = (nowMs?: number): string => `dec_${ulid(nowMs)}`;
export const newKeyId = (nowMs?: number): string => `key_${ulid(nowMs)}`;
