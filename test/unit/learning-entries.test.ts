// How a container applies its workspace's entries (lambdas/domain/learning/entries.ts): each once however often a
// read returns it, its own feedback's removals only once the entry is read back, a newer generation as a reload.
import { type Entry, OVERLAP_MS, applyOwn, entryCursor, takeEntries } from '../../lambdas/domain/learning/entries';
import { type LabelChange, emptyModel } from '../../lambdas/domain/learning/model';

const sketch = { t: [3, 7] };
const entry = (at: number, id: string, changes: LabelChange[], generation = 0): Entry => ({
  key: `e#${String(at).padStart(13, '0')}#${id}`,
  at,
  generation,
  kind: id.startsWith('p') ? 'policy' : id.startsWith('r') ? 'reset' : 'feedback',
  sketch,
  changes,
});
const plus = (label: string): LabelChange => ({ field: 'category', label, sign: 1 });
const minus = (label: string): LabelChange => ({ field: 'category', label, sign: -1 });
const docs = (model: ReturnType<typeof emptyModel>) =>
  Object.fromEntries(model.labels.filter((l) => l.docs > 0).map((l) => [l.label, l.docs]));

it('applies each entry once, however many reads within the overlap return it', () => {
  const model = emptyModel();
  const cursor = entryCursor(0, 0);
  const read = [entry(1_000, 'f.d1.1', [plus('billing')]), entry(2_000, 'f.d2.1', [plus('refund')])];
  expect(takeEntries(model, cursor, 0, read, 3_000).applied).toBe(2);
  expect(takeEntries(model, cursor, 0, read, 4_000).applied).toBe(0);
  expect(docs(model)).toEqual({ billing: 1, refund: 1 });
  // Past the overlap they are forgotten: the next read starts after them.
  takeEntries(model, cursor, 0, [], 2_000 + OVERLAP_MS + 1);
  expect(cursor.seen.size).toBe(0);
});

it("takes out what a container's own relabelling removes only when its entry is read back, after the earlier one", () => {
  const model = emptyModel();
  const cursor = entryCursor(0, 0);
  // Another container taught d1 billing; this one, not having read it, moves d1 to refund.
  applyOwn(model, cursor, entry(2_000, 'f.d1.2', [minus('billing'), plus('refund')]));
  expect(docs(model)).toEqual({ refund: 1 });
  const read = [entry(1_000, 'f.d1.1', [plus('billing')]), entry(2_000, 'f.d1.2', [minus('billing'), plus('refund')])];
  takeEntries(model, cursor, 0, read, 3_000);
  expect(docs(model)).toEqual({ refund: 1 });
  takeEntries(model, cursor, 0, read, 4_000);
  expect(docs(model)).toEqual({ refund: 1 });
});

it('reloads on an entry of a newer generation, rereads the policy on a policy entry, skips an older generation', () => {
  const model = emptyModel();
  const cursor = entryCursor(0, 0);
  expect(takeEntries(model, cursor, 1, [entry(1_000, 'f.d1.1', [plus('billing')], 0)], 2_000).applied).toBe(0);
  expect(takeEntries(model, cursor, 1, [entry(2_500, 'p.2', [])], 3_000).policy).toBe(true);
  expect(takeEntries(model, cursor, 1, [entry(3_500, 'r.2', [], 2)], 4_000).reload).toBe(true);
  expect(docs(model)).toEqual({});
});
