// The learned model as DynamoDB Local stores it and a container loads it back: exactly the counts feedback wrote,
// nothing read from the label item's own attributes (docs, total) as if it were a count.
import { analyzeSignal } from '../../lambdas/application/analyze-signal';
import { recordFeedback } from '../../lambdas/application/record-feedback';
import { predictField } from '../../lambdas/domain/learning/predict';
import { sketchKeyOf, sketchSignal } from '../../lambdas/domain/learning/sketch';
import { cachedWorkspace } from '../../lambdas/domain/learning/workspace-cache';
import { serviceForFile } from '../support/local-api';

const world = serviceForFile('modelstore');

it('loads back exactly the counts the feedback wrote', async () => {
  const deps = world.service.dependencies;
  const ws = 'ws_model_store';
  const owner = { partner_id: 'acme', key_id: 'key_test' };
  const signal = {
    workspace_id: ws,
    source: 'support_message' as const,
    body: 'My card payment was declined twice at the same shop today',
    sender: 'ann@client.example',
    received_at: '2026-11-20T10:00:00Z',
  };
  for (let i = 0; i < 2; i++) {
    const workspace = await deps.workspaces.get(ws);
    const outcome = await analyzeSignal(signal, owner, deps.decisionStore, { nowMs: Date.now(), workspace });
    if (outcome.kind !== 'created') throw new Error(outcome.kind);
    const target = await deps.feedbackStore.getTarget(outcome.decision.decision_id);
    const recorded = await recordFeedback(
      target!,
      { category: 'card_declined' },
      deps.feedbackStore,
      workspace,
      new Date().toISOString(),
    );
    expect(recorded.kind).toBe('recorded');
  }

  const state = await deps.workspaceStore.loadState(ws);
  const sketch = sketchSignal(sketchKeyOf(state.sketchKey), signal);
  const [label] = state.model.labels;
  expect(state.model.labels).toHaveLength(1);
  expect(label).toMatchObject({ field: 'category', label: 'card_declined', docs: 2, total: 2 * sketch.t.length });
  expect([...label.text].sort((a, b) => a[0] - b[0])).toEqual(sketch.t.map((b) => [b, 2]));
  expect([...label.senders]).toEqual([[sketch.s, 2]]);
  expect([...label.domains]).toEqual([[sketch.d, 2]]);
  // And a container can index and use it.
  const cached = cachedWorkspace(state);
  expect(predictField(cached.state.model, 'category', sketch)?.label).toBe('card_declined');
});
