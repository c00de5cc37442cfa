import { crc32 as zlibCrc32 } from 'node:zlib';
import {
  bearerToken,
  crc32,
  displayPrefix,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
  keyChecksum,
  toBase62,
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

  it('computes CRC32 exactly as zlib does, including non-ASCII text', () => {
    for (const text of ['', 'a', 'sas_live_abc', 'héllo wörld ✓', 'x'.repeat(1000)]) {
      expect(crc32(text)).toBe(zlibCrc32(text));
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

  it('draws keys from a CSPRNG: 1,000 keys are distinct and use the whole alphabet', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateApiKey()));
    expect(keys.size).toBe(1000);
    const chars = new Set([...keys].flatMap((k) => [...k.slice(9, 41)]));
    expect(chars.size).toBe(62);
  });

  it('stores only SHA-256 hex, and shows a short non-secret prefix', () => {
    const key = generateApiKey('live');
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).not.toContain(key.slice(9, 41));
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
});
