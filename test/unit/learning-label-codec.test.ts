// A label item's stored counts (lambdas/domain/learning/count-codec.ts, lambdas/stores/learning-items.ts): one binary
// `cb`, which loads in a fraction of the time of the form before it (one number attribute per count), and which items
// in that older form, or in both at once (an older Lambda's ADD during a deploy), still load into the same counts.
import { labelCounts } from '../../lambdas/domain/learning/model';
import { forEachLabelCount, putVarint } from '../../lambdas/domain/learning/count-codec';
import { countAttributes, countsFrom, labelItemPlus } from '../../lambdas/stores/learning-items';

const hex = (b: unknown) => Buffer.from(b as Uint8Array).toString('hex');
const bytes = (h: string) => Uint8Array.from(Buffer.from(h, 'hex'));

/** A label with a text, a sender and a domain count, one of each sign and size the codec must carry. */
function sample() {
  const counts = labelCounts('category', 'billing');
  counts.docs = 3;
  counts.total = 7;
  counts.text.set(0, 1).set(16_383, 300).set(5, -2);
  counts.senders.set(20, 2 ** 40);
  counts.domains.set(16_383, 1);
  return counts;
}
/** The bytes the first version of the binary form wrote for `sample()`: items written by it must load in every next. */
const SAMPLE_CB = '000002' + '3fffd804' + '000503' + '4014808080808040' + 'bfff02';

const asEntries = (counts: ReturnType<typeof labelCounts>) => ({
  docs: counts.docs,
  total: counts.total,
  text: [...counts.text].sort((x, y) => x[0] - y[0]),
  senders: [...counts.senders],
  domains: [...counts.domains],
});

it('writes docs, total and one binary of zigzag varints, zero counts left out', () => {
  const counts = sample();
  counts.text.set(9, 0);
  const attributes = countAttributes(counts);
  expect(Object.keys(attributes).sort()).toEqual(['cb', 'docs', 'total']);
  expect(hex(attributes.cb)).toBe(SAMPLE_CB);
  // A label with no counts has no binary at all.
  expect(countAttributes(labelCounts('queue', 'empty'))).toEqual({ docs: 0, total: 0 });
});

/** What a label item's binary holds, exactly, by kind: [kind, bucket, count] in the order written. */
const stored = (cb: unknown) => {
  const out: number[][] = [];
  forEachLabelCount(cb as Uint8Array, (kind, bucket, n) => out.push([kind, bucket, n]));
  return out;
};
const share = (counts: [string, number][], docs = 1, total = 0) => ({
  field: 'category' as const,
  label: 'billing',
  docs,
  total,
  counts: new Map(counts),
});

it('loads the binary as a load uses it: only counts above 0', () => {
  const item = { sk: 'c#2#category:billing', docs: 3, total: 7, cb: bytes(SAMPLE_CB), w: 17 };
  const { counts, folded } = countsFrom(item);
  expect(folded).toBe(17);
  expect(asEntries(counts)).toEqual({
    docs: 3,
    total: 7,
    text: [
      [0, 1],
      [16_383, 300],
    ],
    senders: [[20, 2 ** 40]],
    domains: [[16_383, 1]],
  });
});

it("adds a fold's share to the binary exactly, as DynamoDB's ADD did: a count below 0 stays so until a later share", () => {
  const item = { ws: 'ws_a', sk: 'c#2#category:billing', docs: 3, total: 7, cb: bytes(SAMPLE_CB), w: 17 };
  const once = labelItemPlus(
    'ws_a',
    item.sk,
    item,
    share(
      [
        ['t5', 1],
        ['t0', -1],
        ['d2', 4],
      ],
      1,
      2,
    ),
    20,
  );
  expect({ ...once, cb: stored(once.cb) }).toEqual({
    ws: 'ws_a',
    sk: item.sk,
    docs: 4,
    total: 9,
    cb: [
      [0, 16_383, 300],
      [0, 5, -1],
      [1, 20, 2 ** 40],
      [2, 16_383, 1],
      [2, 2, 4],
    ],
    w: 20,
  });
  expect(countsFrom(once).counts.text.has(5)).toBe(false);
  const twice = labelItemPlus('ws_a', item.sk, once, share([['t5', 3]]), 21);
  expect(countsFrom(twice).counts.text.get(5)).toBe(2);
  // A label with no item yet, and a share that leaves no count: no binary at all.
  expect(labelItemPlus('ws_a', 'c#0#queue:q', undefined, share([['t1', 1]]), 5)).toMatchObject({ docs: 1, w: 5 });
  const emptied = labelItemPlus('ws_a', 'c#0#queue:q', { cb: bytes('000102') }, share([['t1', -1]], 0), 6);
  expect(emptied.cb).toBeUndefined();
});

it('loads an item in the form before the binary, one number attribute a count, into the same counts', () => {
  // Sender bucket 20 would be named `sk`, the sort key: it was written `s0k`.
  const item = { ws: 'ws_a', sk: 'c#0#queue:q1', docs: 2, total: 5, t0: 4, tcr: 1, s0k: 2, d1: 3, w: 9 };
  const { counts, folded } = countsFrom(item);
  expect(folded).toBe(9);
  expect(asEntries(counts)).toEqual({
    docs: 2,
    total: 5,
    text: [
      [0, 4],
      [459, 1],
    ],
    senders: [[20, 2]],
    domains: [[1, 3]],
  });
  // A fold rewrites it as one binary holding the same counts and its share.
  const folded2 = labelItemPlus('ws_a', item.sk, item, share([['t0', 1]]), 10);
  expect(Object.keys(folded2).sort()).toEqual(['cb', 'docs', 'sk', 'total', 'w', 'ws']);
  expect(asEntries(countsFrom(folded2).counts).text).toEqual([
    [0, 5],
    [459, 1],
  ]);
});

it('adds count attributes to the binary when an item holds both, and a load drops what sums to 0 or less', () => {
  // What an older Lambda's fold (an ADD per count) leaves on an item a newer one rewrote.
  const item = { sk: 'c#0#category:billing', docs: 4, total: 9, cb: bytes(SAMPLE_CB), t0: 2, t5: 1, tzz: 6 };
  const loaded = countsFrom(item).counts;
  expect(loaded.text.get(0)).toBe(3);
  expect(loaded.text.has(5)).toBe(false);
  expect(loaded.text.get(35 * 36 + 35)).toBe(6);
  const rewritten = labelItemPlus('ws_a', item.sk, item, share([]), 30);
  expect(stored(rewritten.cb).filter(([kind]) => kind === 0)).toEqual([
    [0, 0, 3],
    [0, 16_383, 300],
    [0, 5, -1],
    [0, 35 * 36 + 35, 6],
  ]);
  expect(countsFrom({ ...item, t0: -1 }).counts.text.has(0)).toBe(false);
});

it('keeps docs and total below 0 as stored, and a load reads them as 0', () => {
  const item = labelItemPlus('ws_a', 'c#0#category:billing', undefined, share([], -1, -4), 3);
  expect(item).toMatchObject({ docs: -1, total: -4 });
  expect(countsFrom(item).counts).toMatchObject({ docs: 0, total: 0 });
});

it('refuses to write a varint it could not read back: below 0, fractional or past 2^53', () => {
  // An import's entry holds its counts unsigned; a count below 0 written there read back as other counts.
  for (const n of [-1, 0.5, 2 ** 53, Number.NaN]) expect(() => putVarint([], n)).toThrow(RangeError);
  const out: number[] = [];
  putVarint(out, 2 ** 53 - 1);
  expect(out).toHaveLength(8);
});
