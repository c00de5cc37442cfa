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

// The state lives in one module-level array so the round is a plain function the JIT inlines (a closure per call
// made every hash allocate).
const V = new Uint32Array(4);

function round(): void {
  V[0] += V[1];
  V[1] = rotl(V[1], 5) ^ V[0];
  V[0] = rotl(V[0], 16);
  V[2] += V[3];
  V[3] = rotl(V[3], 8) ^ V[2];
  V[0] += V[3];
  V[3] = rotl(V[3], 7) ^ V[0];
  V[2] += V[1];
  V[1] = rotl(V[1], 13) ^ V[2];
  V[2] = rotl(V[2], 16);
}

/** HalfSipHash-2-4 of `data` under `key`, as an unsigned 32-bit integer. */
export function halfSipHash(key: HalfSipKey, data: Uint8Array): number {
  V[0] = key.k0;
  V[1] = key.k1;
  V[2] = 0x6c796765 ^ key.k0;
  V[3] = 0x74656462 ^ key.k1;
  const len = data.length;
  const end = len - (len % 4);
  for (let i = 0; i < end; i += 4) {
    const m = data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24);
    V[3] ^= m;
    round();
    round();
    V[0] ^= m;
  }
  let b = len << 24;
  const left = len & 3;
  if (left >= 3) b |= data[end + 2] << 16;
  if (left >= 2) b |= data[end + 1] << 8;
  if (left >= 1) b |= data[end];
  V[3] ^= b;
  round();
  round();
  V[0] ^= b;
  V[2] ^= 0xff;
  round();
  round();
  round();
  round();
  return (V[1] ^ V[3]) >>> 0;
}
