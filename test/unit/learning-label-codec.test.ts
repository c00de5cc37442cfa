// A label item's stored counts (lambdas/domain/learning/count-codec.ts, lambdas/stores/learning-items.ts): one binary
// `cb`, which loads in a fraction of the time of the form before it (one number attribute per count), and which items
// in that older form, or in both at once (an older Lambda's ADD during a deploy), still load into the same counts.
import { labelCounts } from '../../lambdas/domain/learning/model';
import { countAttributes, countsFrom, storedCounts } from '../../lambdas/stores/learning-items';

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

it('reads the binary back exactly as stored, and as a load uses it: only counts above 0', () => {
  const item = { sk: 'c#2#category:billing', docs: 3, total: 7, cb: bytes(SAMPLE_CB), w: 17 };
  const stored = storedCounts(item);
  expect(stored.folded).toBe(17);
  expect(asEntries(stored.counts)).toEqual(asEntries(sample()));
  const loaded = countsFrom(item).counts;
  expect(loaded.text.get(5)).toBeUndefined();
  expect(asEntries(loaded).text).toEqual([
    [0, 1],
    [16_383, 300],
  ]);
  expect(loaded.senders.get(20)).toBe(2 ** 40);
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
});

it('adds count attributes to the binary when an item holds both, and a load drops what sums to 0 or less', () => {
  // What an older Lambda's fold (an ADD per count) leaves on an item a newer one rewrote.
  const item = { sk: 'c#0#category:billing', docs: 4, total: 9, cb: bytes(SAMPLE_CB), t0: 2, t5: 1, tzz: 6 };
  const stored = storedCounts(item).counts;
  expect(stored.text.get(0)).toBe(3);
  expect(stored.text.get(5)).toBe(-1);
  expect(stored.text.get(35 * 36 + 35)).toBe(6);
  const loaded = countsFrom({ ...item, t0: -1 }).counts;
  expect(loaded.text.has(0)).toBe(false);
  expect(loaded.text.has(5)).toBe(false);
});

it('keeps docs and total below 0 as stored, and a load reads them as 0', () => {
  const item = { sk: 'c#0#category:billing', docs: -1, total: -4 };
  expect(storedCounts(item).counts).toMatchObject({ docs: -1, total: -4 });
  expect(countsFrom(item).counts).toMatchObject({ docs: 0, total: 0 });
});
