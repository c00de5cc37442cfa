// Counts as bytes (docs/learning.md, "Storage layout"): an import's entry (`dx`) and a label item (`cb`) hold their
// counts in one binary attribute, which a load reads and parses in a fraction of the time one number attribute per
// count takes (docs/operations.md, "Worst-case work per request"). A count is its code in two bytes (its kind's index
// in COUNT_KINDS << 14 | its bucket: buckets are below 2^14), then its value as a varint.

/** The kinds of count, by index in a code: text, sender, domain. */
export const COUNT_KINDS = 'tsd';

/** Appends `n` (a whole number, 0 or above, up to 2^53) as a varint: 7 bits a byte, low first. */
export function putVarint(out: number[], n: number): void {
  // Anything else would be written as bytes that read back as other counts: refused where it is written.
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`a varint holds a whole number >= 0, not ${n}`);
  let v = n;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
}

/** A count attribute's name (model.ts's countName: kind, then bucket in base 36) as its code: kind << 14 | bucket. */
export const countCode = (name: string): number => (COUNT_KINDS.indexOf(name[0]) << 14) | parseInt(name.slice(1), 36);

/** Appends a count's code in two bytes, high first (ByteReader.code reads it). */
export function putCode(out: number[], code: number): void {
  out.push(code >>> 8, code & 0xff);
}

/** Reads varints and codes from `bytes` in turn. */
export class ByteReader {
  at = 0;

  constructor(private readonly bytes: Uint8Array) {}

  get done(): boolean {
    return this.at >= this.bytes.length;
  }

  varint(): number {
    let n = 0;
    let scale = 1;
    for (;;) {
      const b = this.bytes[this.at++];
      if (b === undefined) throw new RangeError('count bytes end inside a varint');
      n += (b & 0x7f) * scale;
      if (b < 0x80) return n;
      scale *= 0x80;
    }
  }

  code(): number {
    if (this.at + 2 > this.bytes.length) throw new RangeError('count bytes end inside a code');
    const code = (this.bytes[this.at] << 8) | this.bytes[this.at + 1];
    this.at += 2;
    return code;
  }
}

/** A label's stored counts: each kind's buckets to their counts, exactly as folds summed them (0 or below possible). */
type KindMaps = readonly [Map<number, number>, Map<number, number>, Map<number, number>];

/** A label item's counts (zero counts left out): each value zigzag-coded, since a stored count may be below 0. */
export function encodeLabelCounts(maps: KindMaps): Uint8Array {
  const codes = new Map<number, number>();
  maps.forEach((map, kind) => {
    for (const [bucket, n] of map) codes.set((kind << 14) | bucket, n);
  });
  return addToLabelCounts(undefined, codes);
}

/** Calls `visit` with each count `encodeLabelCounts` wrote, by code (kind << 14 | bucket), in the order written. */
function forEachCode(bytes: Uint8Array, visit: (code: number, n: number) => void): void {
  const reader = new ByteReader(bytes);
  while (!reader.done) {
    const code = reader.code();
    const z = reader.varint();
    visit(code, z % 2 ? -(z + 1) / 2 : z / 2);
  }
}

/** Calls `visit` with each count `encodeLabelCounts` wrote, in the order written. */
export function forEachLabelCount(bytes: Uint8Array, visit: (kind: number, bucket: number, n: number) => void): void {
  forEachCode(bytes, (code, n) => visit(code >>> 14, code & 0x3fff, n));
}

/**
 * `bytes` (as encodeLabelCounts writes them; none: no counts) with `add` summed in exactly, a sum of 0 left out.
 * `add` maps a count's code (kind << 14 | bucket) to what it adds. No map of the stored counts is built: a fold
 * rewrites every label its window touches, each of up to 3 x 16,384 counts, inside a request.
 */
export function addToLabelCounts(bytes: Uint8Array | undefined, add: ReadonlyMap<number, number>): Uint8Array {
  const out: number[] = [];
  const put = (code: number, n: number) => {
    if (n === 0) return;
    putCode(out, code);
    putVarint(out, n < 0 ? -2 * n - 1 : 2 * n);
  };
  const left = new Map(add);
  if (bytes)
    forEachCode(bytes, (code, n) => {
      put(code, n + (left.get(code) ?? 0));
      left.delete(code);
    });
  for (const [code, n] of left) put(code, n);
  return Uint8Array.from(out);
}
