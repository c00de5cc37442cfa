// Identifiers: ULIDs (time-sortable, 48-bit ms timestamp + 80 random bits, Crockford base32).
import { randomFillSync } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const ULID_PATTERN = /^[0-9A-HJKMNP-TV-Z]{26}$/;
export const DECISION_ID_PATTERN = /^dec_[0-9A-HJKMNP-TV-Z]{26}$/;

export function ulid(nowMs: number = Date.now()): string {
  let time = '';
  let t = nowMs;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const at = takeRandom();
  let rand = '';
  for (let i = 0; i < 16; i++) rand += CROCKFORD[pool[at + i] & 31];
  return time + rand;
}

// Random bytes are drawn 4 KiB at a time (as crypto.randomUUID buffers its own): one call into the CSPRNG per 256
// ids instead of one per id, which cost about 10 us of a request.
const pool = new Uint8Array(4096);
let poolAt = pool.length;
function takeRandom(): number {
  if (poolAt + 16 > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  poolAt += 16;
  return poolAt - 16;
}

export const newDecisionId = (nowMs?: number): string => `dec_${ulid(nowMs)}`;
export const newKeyId = (nowMs?: number): string => `key_${ulid(nowMs)}`;
