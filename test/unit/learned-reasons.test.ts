// Whatever a workspace's learning changes in a decision, a LEARNED_* reason says so, with the true count behind it
// (docs/learning.md, "Reasons"; the contract: reasons name learned evidence with codes starting LEARNED_).
import { scoreSignal } from '../../lambdas/domain/engine';
import { halfSipKey } from '../../lambdas/domain/learning/half-siphash';
import { countSketch, emptyModel, labelCounts, type WorkspaceModel } from '../../lambdas/domain/learning/model';
import { sketchSignal } from '../../lambdas/domain/learning/sketch';
import { applyWorkspace } from '../../lambdas/domain/learning/workspace-layer';
import { compilePolicy } from '../../lambdas/domain/policy';
import type { Signal } from '../../lambdas/domain/signal';

const key = halfSipKey(Uint8Array.from([3, 1, 4, 1, 5, 9, 2, 6]));
const NOW = new Date('2026-11-21T09:30:00Z');
const digest = (n: number): Signal => ({
  workspace_id: 'ws_reasons',
  source: 'email',
  subject: `Weekly status digest ${n}`,
  body: 'Your weekly status digest: builds, deploys and open tickets of the week.',
  sender: 'digest@tools.example',
  received_at: '2026-11-21T09:30:00Z',
});

/** A model taught `times` digests with these labels, each field one count per digest. */
function taught(
  times: number,
  labels: Partial<Record<'category' | 'queue' | 'recommended_action', string>>,
): WorkspaceModel {
  const model = emptyModel();
  for (const [field, label] of Object.entries(labels) as ['category' | 'queue' | 'recommended_action', string][]) {
    const counts = labelCounts(field, label);
    for (let n = 0; n < times; n++) countSketch(counts, sketchSignal(key, digest(n)), 1);
    model.labels.push(counts);
  }
  model.version = times * 2;
  return model;
}

function decide(model: WorkspaceModel, signal: Signal) {
  const global = scoreSignal(signal, NOW);
  const policy = compilePolicy({ version: 1, updated_at: null });
  return { global, workspace: applyWorkspace(global, signal, policy, model, sketchSignal(key, signal)) };
}

it('names a learned queue and a learned action, and states the action no surer than its teaching', () => {
  const { global, workspace } = decide(taught(8, { queue: 'digests', recommended_action: 'archive' }), digest(99));
  expect(global.recommended_action).not.toBe('archive');
  expect(workspace).toMatchObject({ queue: 'digests', recommended_action: 'archive' });
  const learned = Object.fromEntries(
    workspace.reasons.filter((r) => r.code.startsWith('LEARNED_')).map((r) => [r.code, r]),
  );
  expect(learned.LEARNED_QUEUE).toMatchObject({ message: 'queue digests: 8 corrections for this sender', weight: 0 });
  expect(learned.LEARNED_ACTION).toMatchObject({ message: 'action archive: 8 corrections for this sender', weight: 0 });
  expect(workspace.confidence).toBeLessThan(global.confidence);
});

it('states no less confidence after a correction that agrees with the engine', () => {
  const global = scoreSignal(digest(99), NOW);
  const { workspace } = decide(taught(1, { category: global.category }), digest(99));
  expect(workspace.category).toBe(global.category);
  expect(workspace.confidence).toBeGreaterThanOrEqual(global.confidence);
});

it('gives a taught action only beside the priority it belongs to (archive beside low), else the band decides', () => {
  for (const action of ['escalate', 'respond_now', 'respond']) {
    const { workspace } = decide(taught(8, { recommended_action: action }), digest(99));
    const own = { critical: 'escalate', high: 'respond_now', medium: 'respond', low: 'review' }[workspace.priority];
    expect({ action, answered: workspace.recommended_action }).toEqual({ action, answered: own });
    // Set aside, the action is no learned field of the decision: neither its reason nor the sender's is given.
    if (own !== action) {
      expect(workspace.reasons.map((r) => r.code)).not.toContain('LEARNED_ACTION');
      expect(workspace.reasons.map((r) => r.code)).not.toContain('LEARNED_SENDER');
    }
  }
});

it('never archives a stated serious problem, whatever the sender taught (invariant 4)', () => {
  const outage: Signal = {
    ...digest(1),
    subject: 'Production outage',
    // The sender's digest wording, so that what it taught reaches this signal.
    body: 'Your weekly status digest: builds are down for all users, production outage.',
  };
  for (const labels of [{ recommended_action: 'archive' }, { category: 'newsletter' }]) {
    const { global, workspace } = decide(taught(8, labels), outage);
    expect(global.reasons.map((r) => r.code)).toContain('OUTAGE_LANGUAGE');
    expect({ labels, action: workspace.recommended_action }).not.toEqual({ labels, action: 'archive' });
  }
});

it('archives no support message the channel keeps from the archive, whatever was taught (invariant 1)', () => {
  const asSupport = (n: number): Signal => ({ ...digest(n), source: 'support_message' });
  const model = taught(8, { recommended_action: 'archive' });
  const { global, workspace } = decide(model, asSupport(99));
  expect(global.recommended_action).not.toBe('archive');
  expect(workspace.recommended_action).not.toBe('archive');
  // The same teaching on e-mail, where the channel allows it, archives.
  expect(decide(model, digest(99)).workspace.recommended_action).toBe('archive');
});
