// API key format, checksum and hashing. Pure code (node:crypto and node:zlib only): used by the authorizer and the admin CLI.
//
// Format: `sas_live_` or `sas_test_`, 32 random base62 characters, then a 6-character checksum: CRC32 (IEEE, as
// zlib computes it) of everything before it, in base62 (0-9A-Za-z), most significant digit first, padded with 0.
// The checksum lets the authorizer refuse typos and garbage without a database read.
import { hash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

export const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const KEY_ENVIRONMENTS = ['live', 'test'] as const;
export type KeyEnvironment = (typeof KEY_ENVIRONMENTS)[number];

const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = /^sas_(live|test)_[0-9A-Za-z]{38}$/;

/** Base62 of a non-negative integer, most significant digit first, left-padded with `0` to `width`. */
export function toBase62(value: number, width: number): string {
  let out = '';
  let rest = value;
  do {
    out = BASE62[rest % 62] + out;
    rest = Math.floor(rest / 62);
  } while (rest > 0);
  return out.padStart(width, '0');
}

/** Node's own CRC32 (zlib's, of the UTF-8 bytes): the hand-written table loop it replaced cost the authorizer a few µs. */
export function keyChecksum(body: string): string {
  return toBase62(crc32(body), CHECKSUM_LENGTH);
}

/** Where key randomness comes from: Node's CSPRNG. A parameter of `generateApiKey` so tests can see it is used. */
type RandomSource = (size: number) => Uint8Array;
export const CSPRNG: RandomSource = randomBytes;

/** Uniform base62 characters from `random` (rejection sampling: bytes >= 248 would bias the modulo). */
function randomBase62(length: number, random: RandomSource): string {
  let out = '';
  while (out.length < length) {
    for (const byte of random(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

/** Issues a new plaintext key. Show it once; store only `hashApiKey(key)`. */
export function generateApiKey(env: KeyEnvironment = 'live', random: RandomSource = CSPRNG): string {
  const body = `sas_${env}_${randomBase62(RANDOM_LENGTH, random)}`;
  return body + keyChecksum(body);
}

/** Whether a stored key has expired at `nowMs`: from its `expires_at` on, it lets no request in. */
export const keyExpired = (key: { expires_at?: string }, nowMs: number): boolean =>
  key.expires_at !== undefined && Date.parse(key.expires_at) <= nowMs;

/** True when `key` has the documented shape and a matching checksum. Cheap: no I/O. */
export function isWellFormedApiKey(key: string): boolean {
  if (!KEY_PATTERN.test(key)) return false;
  const cut = key.length - CHECKSUM_LENGTH;
  return keyChecksum(key.slice(0, cut)) === key.slice(cut);
}

/** A whole API key somewhere in a string (its checksum must match: an id may look like one by chance only). */
const KEY_CANDIDATE = /sas_(?:live|test)_[0-9A-Za-z]{38}/g;
/**
 * True when `value` holds a whole, well-formed key: what ids are checked against (a workspace or partner id stored
 * before a looser rule must keep working) and what the audit log refuses as its last line of defence.
 */
export const holdsApiKey = (value: string): boolean =>
  value.includes('sas_') && [...value.matchAll(KEY_CANDIDATE)].some((m) => isWellFormedApiKey(m[0]));

/**
 * What reads as a key, whole or not: the prefix in any case, with `_` or `-`, and at least 16 of the key's characters.
 * Only the 32 random characters are secret and the checksum can be computed again, so a key one character short or
 * mistyped gives the whole key away. A display prefix (`sas_live_Ab3x`) is not one. Used to mask what is logged or
 * repeated, and to refuse new text and new ids that would be stored; ids already stored are checked by holdsApiKey.
 */
const KEY_LIKE = /sas[_-](?:live|test)[_-][0-9A-Za-z]{16,}/gi;
export const looksLikeApiKey = (value: string): boolean => /sas/i.test(value) && value.search(KEY_LIKE) !== -1;
/** `value` with everything that reads as an API key replaced: what an error may repeat of a caller's input, and log. */
export const withoutApiKeys = (value: string): string =>
  /sas/i.test(value) ? value.replace(KEY_LIKE, '<API key>') : value;

/** SHA-256 of the key, hex: the only form in which a key is stored. */
export function hashApiKey(key: string): string {
  // One-shot hash: no Hash object per request (about a third of createHash's time).
  return hash('sha256', key, 'hex');
}

/** Non-secret display prefix, e.g. `sas_live_Ab3x`: enough for a person to tell keys apart. */
export function displayPrefix(key: string): string {
  return key.slice(0, 'sas_live_'.length + 4);
}

/**
 * Extracts the key from an Authorization header value: `Bearer <key>`, scheme case-insensitive.
 * Anything else counts as no key at all.
 */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^bearer +(\S+) *$/i.exec(header);
  return match ? match[1] : undefined;
}
