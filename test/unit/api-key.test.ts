import { createHash, randomBytes } from 'node:crypto';
import { crc32 as zlibCrc32 } from 'node:zlib';
import {
  CSPRNG,
  bearerToken,
  displayPrefix,
  generateApiKey,
  hashApiKey,
  holdsApiKey,
  isWellFormedApiKey,
  keyChecksum,
  looksLikeApiKey,
  toBase62,
  withoutApiKeys,
} from '../../lambdas/domain/api-key';

describe('API key format', () => {
  it('issues sas_live_/sas_test_ keys: 32 base62 random characters and a 6-character checksum', () => {
    for (const env of ['live', 'test'] as const) {
      const key = generateApiKey(env);
      expect(key).toMatch(new RegExp(`^sas_${env}_[0-9A-Za-z]{32}[0-9A-Za-z]{6}$`));
      expect(key.slice(-6)).toBe(keyChecksum(key.slice(0, -6)));
      expect(isWellFormedApiKey(key)).toBe(true);
    }
  });

  it('writes the checksum in base62 (0-9A-Za-z), most significant digit first, zero-padded to 6', () => {
    expect(toBase62(0, 6)).toBe('000000');
    expect(toBase62(61, 6)).toBe('00000z');
    expect(toBase62(62, 6)).toBe('000010');
    expect(toBase62(0xffffffff, 6)).toBe('4gfFC3');
    const body = 'sas_test_' + 'A'.repeat(32);
    const expected = toBase62(zlibCrc32(body), 6);
    expect(keyChecksum(body)).toBe(expected);
  });

  it('refuses a key whose checksum does not match, or that has the wrong shape', () => {
    const key = generateApiKey('live');
    const last = key.at(-1)!;
    const tampered = key.slice(0, -1) + (last === 'a' ? 'b' : 'a');
    expect(isWellFormedApiKey(tampered)).toBe(false);
    const flipped = key.slice(0, 12) + (key[12] === 'Q' ? 'R' : 'Q') + key.slice(13);
    expect(isWellFormedApiKey(flipped)).toBe(false);
    expect(isWellFormedApiKey('sas_prod_' + key.slice(9))).toBe(false);
    expect(isWellFormedApiKey(key + 'x')).toBe(false);
    expect(isWellFormedApiKey('')).toBe(false);
  });

  it("draws every random character from the byte source, by default Node's CSPRNG", () => {
    // The default source is crypto.randomBytes itself, not a stand-in such as Math.random.
    expect(CSPRNG).toBe(randomBytes);
    // The random part is a pure function of the bytes the source gives: nothing else feeds it.
    const counting = (size: number) => Uint8Array.from({ length: size }, (_, i) => i % 62);
    const key = generateApiKey('test', counting);
    expect(key.slice(9, 41)).toBe('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'.slice(0, 32));
    expect(generateApiKey('test', counting)).toBe(key);
  });

  it('skips bytes of 248 and above, so every base62 character is equally likely', () => {
    // 248..255 would map onto 0..7 a second time; only the bytes below 248 may be used.
    const biased = (size: number) => Uint8Array.from({ length: size }, (_, i) => (i % 2 === 0 ? 250 : 1));
    expect(generateApiKey('live', biased).slice(9, 41)).toBe('1'.repeat(32));
  });

  it('hashes with SHA-256 as hex, a different digest for a one-character change, and a short non-secret prefix', () => {
    const key = generateApiKey('live');
    expect(hashApiKey(key)).toBe(createHash('sha256').update(key).digest('hex'));
    const neighbour = key.slice(0, 20) + (key[20] === 'a' ? 'b' : 'a') + key.slice(21);
    expect(hashApiKey(neighbour)).not.toBe(hashApiKey(key));
    expect(displayPrefix(key)).toBe(key.slice(0, 13));
    expect(displayPrefix(key)).toMatch(/^sas_live_[0-9A-Za-z]{4}$/);
  });

  it('reads Bearer with a case-insensitive scheme; anything else is no key', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bearer abc')).toBe('abc');
    expect(bearerToken('BEARER abc')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeUndefined();
    expect(bearerToken('Bearer')).toBeUndefined();
    expect(bearerToken('Bearer a b')).toBeUndefined();
    expect(bearerToken('abc')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });

  it('masks what reads as a key, whole, short or mistyped, in any case; an id counts as one only when whole', () => {
    const key = generateApiKey('test');
    const mistyped = key.slice(0, -1) + (key.at(-1) === 'a' ? 'b' : 'a');
    // Only the 32 random characters are secret: a key one character short gives the rest away.
    for (const leaked of [
      key,
      key.slice(0, -1),
      mistyped,
      key.slice(0, 9 + 16),
      key.toUpperCase(),
      `sas-test-${key.slice(9)}`,
    ]) {
      expect(looksLikeApiKey(`revoke ${leaked}?`)).toBe(true);
      expect(withoutApiKeys(`/workspaces/${leaked}/policy`)).toBe('/workspaces/<API key>/policy');
    }
    for (const fine of [displayPrefix(key), key.slice(0, 9 + 15), 'sas_prod_' + key.slice(9), 'ws_sas_live']) {
      expect(looksLikeApiKey(fine)).toBe(false);
      expect(withoutApiKeys(fine)).toBe(fine);
    }
    // Ids already stored keep working: only a whole, well-formed key makes an id one.
    expect(holdsApiKey(`acme:${key}`)).toBe(true);
    for (const id of ['acme:sas_live_customersupport01', key.slice(0, -1), mistyped])
      expect(holdsApiKey(id)).toBe(false);
  });
});
