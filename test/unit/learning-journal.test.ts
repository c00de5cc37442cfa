// How a container applies the feedback journal (lambdas/domain/learning/journal.ts): in seq order, waiting for an
// entry still in flight (and giving it up after a bound), its own feedback at once.
import {
  JOURNAL_GAP_GIVE_UP_MS,
  type JournalEntry,
  applyJournal,
  applyOwn,
  entriesToRead,
  journalCursor,
} from '../../lambdas/domain/learning/journal';
import { journalDeltas } from '../../lambdas/domain/learning/label-delta';
import { emptyModel } from '../../lambdas/domain/learning/model';

const sketchA = { t: [1, 2, 3], s: 10, d: 20 };
const sketchB = { t: [3, 4], s: 11, d: 20 };
const add = (seq: number, label: string, sketch = sketchA): JournalEntry => ({
  seq,
  sketch,
  changes: [{ field: 'category', label, sign: 1 }],
});
const move = (seq: number, from: string, to: string, sketch = sketchA): JournalEntry => ({
  seq,
  sketch,
  changes: [
    { field: 'category', label: from, sign: -1 },
    { field: 'category', label: to, sign: 1 },
  ],
});
const docs = (model: ReturnType<typeof emptyModel>) => Object.fromEntries(model.labels.map((l) => [l.label, l.docs]));

it('applies entries in seq order and waits for one still in flight, then gives it up after the bound', () => {
  const model = emptyModel();
  const cursor = journalCursor(0);
  expect(entriesToRead(cursor, 3)).toEqual([1, 2, 3]);
  // Entry 2 is not there yet: 1 applies, 3 waits behind it.
  applyJournal(
    model,
    cursor,
    3,
    new Map([
      [1, add(1, 'a')],
      [2, undefined],
      [3, add(3, 'b', sketchB)],
    ]),
    1_000,
  );
  expect(docs(model)).toEqual({ a: 1 });
  expect(cursor.applied).toBe(1);
  // Only the missing entry is read again.
  expect(entriesToRead(cursor, 3)).toEqual([2]);
  applyJournal(model, cursor, 3, new Map([[2, add(2, 'a')]]), 2_000);
  expect(docs(model)).toEqual({ a: 2, b: 1 });
  expect(cursor.applied).toBe(3);

  // Entry 4 never comes (its feedback crashed): 5 waits until the bound, then applies.
  applyJournal(
    model,
    cursor,
    5,
    new Map([
      [4, undefined],
      [5, add(5, 'b', sketchB)],
    ]),
    10_000,
  );
  applyJournal(model, cursor, 5, new Map([[4, undefined]]), 10_000 + JOURNAL_GAP_GIVE_UP_MS - 1);
  expect(docs(model)).toEqual({ a: 2, b: 1 });
  applyJournal(model, cursor, 5, new Map([[4, undefined]]), 10_000 + JOURNAL_GAP_GIVE_UP_MS);
  expect(docs(model)).toEqual({ a: 2, b: 2 });
  expect(cursor.applied).toBe(5);
});

it("applies a container's own feedback at once, and a move's subtraction only in its journal place", () => {
  const model = emptyModel();
  const cursor = journalCursor(0);
  // Another container counted the decision into "a" (entry 1); this one, not having read it, moves it to "b" (2).
  applyOwn(model, cursor, move(2, 'a', 'b'));
  expect(docs(model)).toEqual({ b: 1 });
  applyJournal(model, cursor, 2, new Map([[1, add(1, 'a')]]), 0);
  expect(docs(model)).toEqual({ a: 0, b: 1 });
  expect(cursor.applied).toBe(2);
  // Up to date: the whole move applies at once, and the entry is not applied again when read.
  applyOwn(model, cursor, move(3, 'b', 'c'));
  expect(docs(model)).toEqual({ a: 0, b: 0, c: 1 });
  applyJournal(model, cursor, 3, new Map(), 0);
  expect(docs(model)).toEqual({ a: 0, b: 0, c: 1 });
  // What the journal added to each label since the label items were read, for a label item read again.
  expect(cursor.overlay.get('category:c')).toMatchObject({ docs: 1, total: 3 });
  expect(cursor.overlay.get('category:a')).toMatchObject({ docs: 0, total: 0 });
});

it('sums a window into signed per-label deltas, the same whatever the order of the entries', () => {
  const entries = [add(1, 'a'), move(2, 'a', 'b', sketchA), add(3, 'b', sketchB)];
  const deltas = journalDeltas(entries);
  // "a" gained and lost the same sketch: nothing to write.
  expect(deltas.map((d) => [d.label, d.docs, d.total])).toEqual([['b', 2, 5]]);
  expect(Object.fromEntries(deltas[0].counts)).toEqual({ t1: 1, t2: 1, t3: 2, t4: 1, sa: 1, sb: 1, dk: 2 });
  expect(journalDeltas([...entries].reverse())).toEqual(deltas);
});
