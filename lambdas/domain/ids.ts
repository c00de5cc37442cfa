// Identifiers: ULIDs (time-sortable, 48-bit ms timestamp + 80 random bits, Crockford base32).
import { randomInt } from 'node:crypto';

export const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** An id of `prefix` and a ULID (26 Crockford base32 digits), as ulid() writes it. */
export const ulidIdPattern = (prefix: string): RegExp => new RegExp(`^${prefix}[0-9A-HJKMNP-TV-Z]{26}$`);
export const DECISION_ID_PATTERN = ulidIdPattern('dec_');

/** `n` as `digits` Crockford base32 digits, most significant first. */
function base32(n: number, digits: number): string {
  let out = '';
  let rest = n;
  for (let i = 0; i < digits; i++) {
    out = CROCKFORD[rest % 32] + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

/** A ULID's time part: 10 Crockford base32 digits of the epoch ms. */
export const ulidTime = (ms: number): string => base32(ms, 10);

/**
 * 40 random bits from the CSPRNG, as 8 digits. crypto.randomInt draws from Node's own buffered CSPRNG: 0.1 us a call,
 * where randomBytes(16) took 3 us hot on Node 20 and 12 inside a request (docs/performance.md, "Version 4, issue 34
 * on Node 20").
 */
const random40 = (): string => base32(randomInt(2 ** 40), 8);

export function ulid(nowMs: number = Date.now()): string {
  // The 80 random bits: two uniform 40-bit draws.
  return ulidTime(nowMs) + random40() + random40();
}

export const newDecisionId = (nowMs?: number): string => `dec_${ulid(nowMs)}`;

/**
 * `n` decision ids of one moment that sort in the order they are given (ULID's monotonic form: one random draw, then
 * one more each), so a batch's decisions list in the order its signals came, as if sent one after another.
 */
export function newDecisionIds(nowMs: number, n: number): string[] {
  const time = ulidTime(nowMs);
  const high = random40();
  const low = randomInt(2 ** 40 - n);
  return Array.from({ length: n }, (_, i) => `dec_${time}${high}${base32(low + i, 8)}`);
}

/** When a decision id was made (its ULID's time part, epoch ms); the id must match DECISION_ID_PATTERN. */
export function decisionTimeMs(decisionId: string): number {
  let ms = 0;
  for (const digit of decisionId.slice(4, 14)) ms = ms * 32 + CROCKFORD.indexOf(digit);
  return ms;
}
export const newKeyId = (nowMs?: number): string => `key_${ulid(nowMs)}`;
/** Every key id ever issued (newKeyId, since version 1). */
export const KEY_ID_PATTERN = ulidIdPattern('key_');
