// The import's pure parts: one example's validation, the per-label deltas, and how a model kept busy is answered.
import { labelDeltas } from '../../lambdas/domain/learning/label-delta';
import { ModelBusyError } from '../../lambdas/domain/ports';
import { describeError } from '../../lambdas/observability';
import { toApiError } from '../../lambdas/http/errors';
import { isDatabaseUnavailable } from '../../lambdas/stores/database-faults';
import { validateExample } from '../../lambdas/import-examples/import-examples';
import { IMPORT_BODY } from '../../lambdas/http/import-envelope';
import { listEnvelope } from '../../lambdas/http/list-body';

const now = Date.parse('2026-11-26T00:00:00Z');

it('validates an example as analyze and feedback would, naming every problem at once', () => {
  expect(
    validateExample({ signal: { source: 'email', subject: 'Hi' }, labels: { category: 'x' } }, 'ws', now),
  ).toMatchObject({ ok: true, labels: { category: 'x' } });
  const bad = validateExample({ signal: { source: 'fax', workspace_id: 'ws' }, extra: 1 }, 'ws', now);
  expect(bad.ok).toBe(false);
  // In document order (docs/partners.md, "Errors"), then the fields the example lacks.
  expect(!bad.ok && bad.details.map((d) => d.field)).toEqual(['signal.source', 'signal.body', 'extra', 'labels']);
  const unknownLast = validateExample({ labels: { priority: 'nope' }, signal: { source: 'fax' }, zzz: 1 }, 'ws', now);
  expect(!unknownLast.ok && unknownLast.details.map((d) => d.field)).toEqual([
    'labels.priority',
    'signal.source',
    'signal.body',
    'zzz',
  ]);
  const other = validateExample(
    { signal: { source: 'email', workspace_id: 'ws_b' }, labels: { queue: 'q' } },
    'ws',
    now,
  );
  // Another workspace hides none of the signal's other problems, each where the signal holds it.
  expect(!other.ok && other.details).toEqual([
    { field: 'signal.workspace_id', message: "must be the path's workspace_id or left out" },
    { field: 'signal.body', message: 'subject or body must be non-blank, unless metadata is a non-empty object' },
  ]);
  const many = validateExample(
    { signal: { source: 'sms', subject: 5, workspace_id: 'ws_b', received_at: 'bad', extra: 1 }, labels: {} },
    'ws',
    now,
  );
  expect(!many.ok && many.details.map((d) => d.field)).toEqual([
    'signal.source',
    'signal.subject',
    'signal.workspace_id',
    'signal.received_at',
    'signal.extra',
    'labels',
  ]);
});

it('refuses an envelope that is not 1 to 100 examples, or has other fields', () => {
  expect(listEnvelope(IMPORT_BODY, { examples: [1] }).ok).toBe(true);
  for (const body of [null, [], {}, { examples: [] }, { examples: new Array(101).fill(1) }, { examples: [1], x: 1 }]) {
    expect(listEnvelope(IMPORT_BODY, body).ok).toBe(false);
  }
});

it('sums sketches per label: docs, totals and counts', () => {
  const deltas = labelDeltas([
    { sketch: { t: [1, 2], s: 5, d: 6 }, labels: { category: 'a', queue: 'q' } },
    { sketch: { t: [2, 3] }, labels: { category: 'a' } },
  ]);
  expect(deltas.map((d) => [d.field, d.label, d.docs, d.total, Object.fromEntries(d.counts)])).toEqual([
    ['category', 'a', 2, 4, { t1: 1, t2: 2, t3: 1, s5: 1, d6: 1 }],
    ['queue', 'q', 1, 2, { t1: 1, t2: 1, s5: 1, d6: 1 }],
  ]);
});

it('answers a model kept busy by concurrent writes with 503 and Retry-After, not 500', () => {
  const error = toApiError(new ModelBusyError(new Error('cancelled')), isDatabaseUnavailable);
  expect(error.status).toBe(503);
  // What the log line `request failed` names: not DynamoDB's own ServiceUnavailable, which sent on-call to AWS.
  expect(describeError(new ModelBusyError()).name).toBe('ModelBusy');
});
