// The learning entries' stored format (lambdas/domain/learning/entries.ts, lambdas/stores/learning-items.ts): items
// written by one version must load in the next. The expected attributes and bytes were written by version 4's first
// codec (main 4f7836e), before the import deltas' codec was folded into the entry codec; since then an entry that moves
// counts is written without `expires_at`.
import { labelDeltas } from '../../lambdas/domain/learning/label-delta';
import { entryFrom, entryItem } from '../../lambdas/stores/learning-items';

const hex = (b: unknown) => Buffer.from(b as Uint8Array).toString('hex');

const IMPORT_ITEM = {
  ws: 'ws_g',
  sk: 'e#1700000000123#x.abc',
  g: 2,
  dl: ['category:billing', 'category:refund', 'queue:q1', 'priority:high'],
  dx: '02050600010100020202bc01400501bfff01000301010102232801404d0101030500010100020102bc01400501bfff01010202000201000301',
  expires_at: 1702592000,
};
const FEEDBACK_ITEM = {
  ws: 'ws_g',
  sk: 'e#1700000000456#f.d1.2',
  g: 0,
  s: '010010001700040008000f',
  ch: ['-category:a:b', '+category:c'],
  expires_at: 1702592000,
};

const deltas = labelDeltas([
  { sketch: { t: [1, 2, 700], s: 5, d: 16383 }, labels: { category: 'billing', queue: 'q1' } },
  { sketch: { t: [2, 3] }, labels: { category: 'billing', priority: 'high' } },
  { sketch: { t: [9000], s: 77 }, labels: { category: 'refund' } },
]);
const feedback = {
  sketch: { t: [4, 8, 15], s: 16, d: 23 },
  changes: [
    { field: 'category' as const, label: 'a:b', sign: -1 as const },
    { field: 'category' as const, label: 'c', sign: 1 as const },
  ],
};

it("writes an import's and a feedback's entry exactly as version 4 first stored them, but with no expiry", () => {
  // An entry that moves counts gets its expiry from the fold that sums it (docs/learning.md, "Folding").
  const { expires_at: _i, ...importItem } = IMPORT_ITEM;
  const { expires_at: _f, ...feedbackItem } = FEEDBACK_ITEM;
  const imported: Record<string, unknown> = entryItem('ws_g', 1_700_000_000_123, 'x.abc', 2, { deltas });
  expect({ ...imported, dx: hex(imported.dx) }).toEqual(importItem);
  const fed: Record<string, unknown> = entryItem('ws_g', 1_700_000_000_456, 'f.d1.2', 0, feedback);
  expect({ ...fed, s: hex(fed.s) }).toEqual(feedbackItem);
  // One that moves none (a policy change, a reset) still expires 30 days after it was written.
  expect(entryItem('ws_g', 1_700_000_000_789, 'p.3', 0, {})).toEqual({
    ws: 'ws_g',
    sk: 'e#1700000000789#p.3',
    g: 0,
    expires_at: 1702592000,
  });
});

it('reads those items back into the same counts, changes and kinds', () => {
  const bytes = (h: string) => Uint8Array.from(Buffer.from(h, 'hex'));
  const imported = entryFrom({ ...IMPORT_ITEM, dx: bytes(IMPORT_ITEM.dx) });
  expect(imported).toMatchObject({ key: IMPORT_ITEM.sk, at: 1_700_000_000_123, generation: 2, kind: 'import' });
  expect(imported.deltas).toEqual(deltas);
  const fed = entryFrom({ ...FEEDBACK_ITEM, s: bytes(FEEDBACK_ITEM.s) });
  expect(fed).toMatchObject({ kind: 'feedback', generation: 0, changes: feedback.changes, sketch: feedback.sketch });
  expect(fed.deltas).toBeUndefined();
});
