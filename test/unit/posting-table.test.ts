// The flat posting table against a Map of Maps doing the same changes: what a prediction reads must be exactly what
// the counts say, through growth, removals, blocks outgrown and compaction.
import { PostingTable } from '../../lambdas/domain/learning/posting-table';
import { mulberry32 } from '../../bin/seeded-random';

type Oracle = Map<number, Map<number, number>>;

function oracleAdd(oracle: Oracle, bucket: number, li: number, by: number): number {
  const pairs = oracle.get(bucket) ?? new Map<number, number>();
  oracle.set(bucket, pairs);
  const before = pairs.get(li);
  const next = (before ?? 0) + by;
  if (before === undefined) {
    if (by <= 0) return 0;
    pairs.set(li, by);
    return 1;
  }
  if (next > 0) {
    pairs.set(li, next);
    return 0;
  }
  pairs.delete(li);
  return -1;
}

/** What find() and the block say about a bucket, as label -> count. */
function read(table: PostingTable, bucket: number): Map<number, number> {
  const out = new Map<number, number>();
  const at = table.find(bucket);
  if (at < 0) return out;
  const d = table.data;
  for (let j = at + 2; j < at + 2 + 2 * d[at]; j += 2) out.set(d[j], d[j + 1]);
  return out;
}

describe('PostingTable', () => {
  it.each([
    ['a few buckets, many labels', 40, 200, 3],
    ['every bucket (the table grows to one slot per bucket)', 1 << 14, 12, 4],
  ])('holds exactly the counts a plain map does: %s', (_name, buckets, labels, seed) => {
    const rand = mulberry32(seed);
    const table = new PostingTable();
    const oracle: Oracle = new Map();
    const mismatches: number[] = [];
    for (let step = 0; step < 60_000; step++) {
      const bucket = Math.floor(rand() * buckets);
      const li = Math.floor(rand() * labels);
      // Mostly additions, some removals (feedback replaced), now and then a count taken away in full.
      const by = rand() < 0.7 ? 1 + Math.floor(rand() * 3) : rand() < 0.8 ? -1 : -1_000;
      if (table.add(bucket, li, by) !== oracleAdd(oracle, bucket, li, by)) mismatches.push(step);
      if (step % 20_000 === 19_999) table.compact();
    }
    expect(mismatches).toEqual([]);
    const wrong = [];
    for (let b = 0; b < buckets; b++) {
      const want = oracle.get(b) ?? new Map();
      const got = read(table, b);
      if (got.size !== want.size || [...want].some(([li, c]) => got.get(li) !== c)) wrong.push(b);
    }
    expect(wrong).toEqual([]);
    const entries = new Map([...table.entries()].map(([b, pairs]) => [b, pairs.length / 2]));
    for (const [b, pairs] of oracle) if (pairs.size > 0) expect(entries.get(b)).toBe(pairs.size);
    expect([...entries.values()].every((n) => n > 0)).toBe(true);
  });

  it('built at once (as a load does) holds what adding the same postings one by one holds', () => {
    const rand = mulberry32(21);
    for (const [buckets, labels] of [
      [5, 3],
      [3_000, 40],
      [1 << 14, 8],
    ]) {
      const seen = new Set<string>();
      const rows: [number, number, number][] = [];
      for (let i = 0; i < 20_000; i++) {
        const b = Math.floor(rand() * buckets);
        const li = Math.floor(rand() * labels);
        if (seen.has(`${b}:${li}`)) continue;
        seen.add(`${b}:${li}`);
        rows.push([b, li, rand() < 0.05 ? 0 : 1 + Math.floor(rand() * 50)]);
      }
      const built = PostingTable.of(
        Int32Array.from(rows, (r) => r[0]),
        Int32Array.from(rows, (r) => r[1]),
        Int32Array.from(rows, (r) => r[2]),
        rows.length,
      );
      const added = new PostingTable();
      for (const [b, li, c] of rows) added.add(b, li, c);
      const wrong = [];
      for (let b = 0; b < buckets; b++) {
        const x = read(built, b);
        const y = read(added, b);
        if (x.size !== y.size || [...x].some(([li, c]) => y.get(li) !== c)) wrong.push(b);
      }
      expect(wrong).toEqual([]);
      // And it keeps taking changes.
      built.add(0, labels + 1, 2);
      expect(read(built, 0).get(labels + 1)).toBe(2);
    }
  });

  it('a build refused for an out-of-range bucket leaves the next build right', () => {
    expect(() =>
      PostingTable.of(Int32Array.from([3, 1 << 14]), Int32Array.from([0, 0]), Int32Array.from([1, 1]), 2),
    ).toThrow(RangeError);
    const next = PostingTable.of(Int32Array.from([3]), Int32Array.from([1]), Int32Array.from([4]), 1);
    expect(read(next, 3)).toEqual(new Map([[1, 4]]));
  });

  it('finds nothing for a bucket no label counted, and nothing more once its pairs went away', () => {
    const table = new PostingTable();
    expect(table.find(7)).toBe(-1);
    expect(table.add(7, 0, -1)).toBe(0);
    expect(table.find(7)).toBe(-1);
    expect(table.add(7, 3, 2)).toBe(1);
    expect(table.add(7, 3, -2)).toBe(-1);
    expect(read(table, 7).size).toBe(0);
    expect([...table.entries()]).toEqual([]);
  });

  it('refuses a bucket outside the sketch range instead of storing it under another', () => {
    const table = new PostingTable();
    expect(() => table.add(1 << 14, 0, 1)).toThrow(RangeError);
    expect(() => table.add(-1, 0, 1)).toThrow(RangeError);
  });
});
