// HalfSipHash-2-4 with a 64-bit key and a 32-bit output (Aumasson and Bernstein's reference, halfsiphash.c): a keyed
// pseudo-random function that is cheap in 32-bit JavaScript arithmetic. Each workspace hashes its features with its
// own key, so the sketches of two workspaces share nothing and a bucket number alone does not name a word.

const rotl = (x: number, b: number) => ((x << b) | (x >>> (32 - b))) >>> 0;

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

/** HalfSipHash-2-4 of `data` under `key`, as an unsigned 32-bit integer. */
export function halfSipHash(key: HalfSipKey, data: Uint8Array): number {
  let v0 = key.k0 >>> 0;
  let v1 = key.k1 >>> 0;
  let v2 = (0x6c796765 ^ key.k0) >>> 0;
  let v3 = (0x74656462 ^ key.k1) >>> 0;
  const round = () => {
    v0 = (v0 + v1) >>> 0;
    v1 = rotl(v1, 5) ^ v0;
    v0 = rotl(v0, 16);
    v2 = (v2 + v3) >>> 0;
    v3 = rotl(v3, 8) ^ v2;
    v0 = (v0 + v3) >>> 0;
    v3 = rotl(v3, 7) ^ v0;
    v2 = (v2 + v1) >>> 0;
    v1 = rotl(v1, 13) ^ v2;
    v2 = rotl(v2, 16);
  };
  const len = data.length;
  const end = len - (len % 4);
  for (let i = 0; i < end; i += 4) {
    const m = (data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24)) >>> 0;
    v3 = (v3 ^ m) >>> 0;
    round();
    round();
    v0 = (v0 ^ m) >>> 0;
  }
  let b = (len << 24) >>> 0;
  const left = len & 3;
  if (left >= 3) b |= data[end + 2] << 16;
  if (left >= 2) b |= data[end + 1] << 8;
  if (left >= 1) b |= data[end];
  b >>>= 0;
  v3 = (v3 ^ b) >>> 0;
  round();
  round();
  v0 = (v0 ^ b) >>> 0;
  v2 = (v2 ^ 0xff) >>> 0;
  round();
  round();
  round();
  round();
  return (v1 ^ v3) >>> 0;
}
