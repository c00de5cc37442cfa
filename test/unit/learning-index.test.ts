// The indexed prediction against its oracle (test/support/reference-learning.ts): the same label, and the same
// probability, as the plain loop over every label and bucket, with the index kept in step by feedback.
import { halfSipKey } from '../../lambdas/domain/learning/half-siphash';
import {
  LEARNED_FIELDS,
  type LearnedField,
  type WorkspaceModel,
  applyChanges,
  emptyModel,
  learnedChanges,
} from '../../lambdas/domain/learning/model';
import { ModelIndex, indexModel } from '../../lambdas/domain/learning/prediction-index';
import { predictField } from '../../lambdas/domain/learning/predict';
import { PostingTable } from '../../lambdas/domain/learning/posting-table';
import { sketchSignal } from '../../lambdas/domain/learning/sketch';
import { BYTES_PER_COUNT, weightOf } from '../../lambdas/domain/learning/workspace-cache';
import { mulberry32 } from '../../bin/seeded-random';
import { referencePredict } from '../support/reference-learning';

const keyOf = (bytes: Uint8Array) => halfSipKey(bytes);

// Synthetic banking77-like teaching: many categories, each with its own words over a shared everyday vocabulary.
function syntheticSentences(
  seed: number,
  categories: number,
  count: number,
): { text: string; category: string; sender?: string }[] {
  const rand = mulberry32(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
  const common = 'i my the a to is can how do what why card account money please help need still not yet'.split(' ');
  const syllables = 'ka lo mi ren tor val sen qui bar dul fen gor hap'.split(' ');
  const topic = Array.from({ length: categories }, () =>
    Array.from({ length: 6 }, () => pick(syllables) + pick(syllables) + (rand() < 0.5 ? pick(syllables) : '')),
  );
  return Array.from({ length: count }, () => {
    const c = Math.floor(rand() * categories);
    const words = Array.from({ length: 4 + Math.floor(rand() * 12) }, () =>
      rand() < 0.45 ? pick(topic[c]) : pick(common),
    );
    if (rand() < 0.3) words.push(pick(topic[Math.floor(rand() * categories)]));
    const sender = rand() < 0.2 ? `client${Math.floor(rand() * 15)}@bank${c % 4}.example` : undefined;
    return { text: words.join(' ') + (rand() < 0.5 ? '?' : ''), category: `cat_${c}`, sender };
  });
}

function teach(
  model: WorkspaceModel,
  key: ReturnType<typeof keyOf>,
  examples: ReturnType<typeof syntheticSentences>,
  seed: number,
) {
  const rand = mulberry32(seed);
  const priorities = ['low', 'medium', 'high'];
  examples.forEach((e, i) => {
    const sketch = sketchSignal(key, { body: e.text, sender: e.sender });
    const labels: Partial<Record<LearnedField, string>> = { category: e.category };
    if (i % 3 === 0) labels.priority = priorities[Math.floor(rand() * 3)];
    if (i % 5 === 0) labels.queue = `q_${Number(e.category.slice(4)) % 5}`;
    applyChanges(model, sketch, learnedChanges({}, labels));
    // Some feedback is replaced: the decision moves to other labels (and, now and then, to none).
    if (rand() < 0.1)
      applyChanges(
        model,
        sketch,
        learnedChanges(labels, rand() < 0.5 ? { category: `cat_${Math.floor(rand() * 60)}` } : {}),
      );
  });
}

describe.each([1, 2] as const)('the indexed prediction is the plain one (sketch format %i)', (format) => {
  const key = { ...keyOf(Uint8Array.from([3, 1, 4, 1, 5, 9, 2, 6])), format };

  it('same label, same probability, for every field, with the index kept in step by feedback', () => {
    const model = emptyModel();
    indexModel(model); // as the cache does on load: then every change goes through applyChanges
    teach(model, key, syntheticSentences(11, 60, 3_000), 12);
    expect(model.index?.version).toBe(model.version);
    const queries = syntheticSentences(99, 60, 600);
    let learned = 0;
    for (const q of queries) {
      const sketch = sketchSignal(key, { body: q.text, sender: q.sender });
      for (const field of LEARNED_FIELDS) {
        const fast = predictField(model, field, sketch);
        const plain = referencePredict(model, field, sketch);
        expect(fast?.label).toBe(plain?.label);
        if (!fast || !plain) continue;
        learned++;
        expect(Math.abs(fast.probability - plain.probability)).toBeLessThanOrEqual(1e-9);
        expect(fast.probability).toBe(plain.probability);
        expect({ ...fast, field: undefined }).toEqual({ ...plain, field: undefined });
      }
    }
    expect(learned).toBeGreaterThan(400);
  });

  it('an index kept in step equals one built afresh, and the cache counts its postings', () => {
    const model = emptyModel();
    indexModel(model);
    teach(model, key, syntheticSentences(5, 30, 800), 6);
    const kept = model.index as ModelIndex;
    expect(kept).toBeInstanceOf(ModelIndex);
    const rebuilt = indexModel({ version: model.version, labels: model.labels });
    const sorted = (table: PostingTable) =>
      [...table.entries()]
        .map(
          ([b, pairs]) =>
            [b, [...Array(pairs.length / 2).keys()].map((j) => `${pairs[2 * j]}:${pairs[2 * j + 1]}`).sort()] as const,
        )
        .sort((a, b) => a[0] - b[0]);
    for (const field of LEARNED_FIELDS) {
      expect(kept.fields[field].labels).toEqual(rebuilt.fields[field].labels);
      for (const kind of ['text', 'senders', 'domains'] as const)
        expect(sorted(kept.fields[field][kind])).toEqual(sorted(rebuilt.fields[field][kind]));
    }
    const counts = model.labels.reduce((sum, l) => sum + l.text.size + l.senders.size + l.domains.size, 0);
    expect(kept.postings).toBe(counts);
    expect(rebuilt.postings).toBe(counts);
    // The cache weighs at least what the index built afresh holds (weightOf estimates a load's index).
    const state = { policy: { version: 0 } as never, model, sketchKey: '00', loadCost: { requests: 0, bytes: 0 } };
    let indexBytes = 0;
    for (const field of LEARNED_FIELDS)
      for (const kind of ['text', 'senders', 'domains'] as const) indexBytes += rebuilt.fields[field][kind].bytes;
    expect(weightOf(state)).toBeGreaterThan(BYTES_PER_COUNT * counts + indexBytes);
    // ... and what this index, grown in place by teaching, holds (more than a load would build).
    let keptBytes = 0;
    for (const field of LEARNED_FIELDS)
      for (const kind of ['text', 'senders', 'domains'] as const) keptBytes += kept.fields[field][kind].bytes;
    expect(keptBytes).toBeGreaterThan(indexBytes);
    expect(weightOf(state)).toBeGreaterThan(BYTES_PER_COUNT * counts + keptBytes);
  });

  it('rebuilds the index when counts changed behind its back', () => {
    const model = emptyModel();
    const sketch = sketchSignal(key, { body: 'where is my new card' });
    expect(predictField(model, 'category', sketch)).toBeUndefined();
    applyChanges(model, sketch, learnedChanges({}, { category: 'card_arrival' }));
    applyChanges(model, sketch, learnedChanges({}, { category: 'card_arrival' }));
    const stale = { ...model, version: model.version + 1, labels: [...model.labels] };
    stale.labels[0] = { ...stale.labels[0], docs: 0 };
    expect(predictField(model, 'category', sketch)?.label).toBe('card_arrival');
    expect(predictField(stale, 'category', sketch)).toBeUndefined();
  });
});
