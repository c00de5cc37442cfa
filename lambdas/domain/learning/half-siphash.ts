// HalfSipHash-2-4 with a 64-bit key and a 32-bit output (Aumasson and Bernstein's reference, halfsiphash.c): a keyed
// pseudo-random function that is cheap in 32-bit JavaScript arithmetic. Each workspace hashes its features with its
// own key, so the sketches of two workspaces share nothing and a bucket number alone does not name a word.

export interface HalfSipKey {
  k0: number;
  k1: number;
}

/** The key from 8 bytes (little-endian words, as the reference reads them). */
export function halfSipKey(bytes: Uint8Array): HalfSipKey {
  if (bytes.length !== 8) throw new Error('HalfSipHash needs an 8-byte key');
  const word = (i: number) => (bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24)) >>> 0;
  return { k0: word(0), k1: word(4) };
}

// The state lives in four local int32 variables and the rounds are written out, so a hash allocates nothing and the
// JIT keeps the state in registers. Arithmetic is on int32 (`| 0`); the result is made unsigned at the end.

/** HalfSipHash-2-4 of the first `length` bytes of `data` (all of them by default) under `key`, as an unsigned 32-bit integer. */
export function halfSipHash(key: HalfSipKey, data: Uint8Array, length: number = data.length): number {
  let v0 = key.k0 | 0;
  let v1 = key.k1 | 0;
  let v2 = (0x6c796765 ^ key.k0) | 0;
  let v3 = (0x74656462 ^ key.k1) | 0;
  const len = length;
  const end = len - (len % 4);
  for (let i = 0; i < end; i += 4) {
    const m = data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24);
    v3 ^= m;
    // The SipRound is written out here and below: a shared helper would need the four words in an array or object,
    // and keeping them in locals is what makes this fast.
    for (let r = 0; r < 2; r++) {
      v0 = (v0 + v1) | 0;
      v1 = ((v1 << 5) | (v1 >>> 27)) ^ v0;
      v0 = (v0 << 16) | (v0 >>> 16);
      v2 = (v2 + v3) | 0;
      v3 = ((v3 << 8) | (v3 >>> 24)) ^ v2;
      v0 = (v0 + v3) | 0;
      v3 = ((v3 << 7) | (v3 >>> 25)) ^ v0;
      v2 = (v2 + v1) | 0;
      v1 = ((v1 << 13) | (v1 >>> 19)) ^ v2;
      v2 = (v2 << 16) | (v2 >>> 16);
    }
    v0 ^= m;
  }
  let b = len << 24;
  const left = len & 3;
  if (left >= 3) b |= data[end + 2] << 16;
  if (left >= 2) b |= data[end + 1] << 8;
  if (left >= 1) b |= data[end];
  v3 ^= b;
  for (let r = 0; r < 6; r++) {
    if (r === 2) {
      v0 ^= b;
      v2 ^= 0xff;
    }
    v0 = (v0 + v1) | 0;
    v1 = ((v1 << 5) | (v1 >>> 27)) ^ v0;
    v0 = (v0 << 16) | (v0 >>> 16);
    v2 = (v2 + v3) | 0;
    v3 = ((v3 << 8) | (v3 >>> 24)) ^ v2;
    v0 = (v0 + v3) | 0;
    v3 = ((v3 << 7) | (v3 >>> 25)) ^ v0;
    v2 = (v2 + v1) | 0;
    v1 = ((v1 << 13) | (v1 >>> 19)) ^ v2;
    v2 = (v2 << 16) | (v2 >>> 16);
  }
  return (v1 ^ v3) >>> 0;
}
