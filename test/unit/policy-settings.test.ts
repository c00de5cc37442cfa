// Every policy setting, set alone, changes the decision of a signal it applies to: none is ignored because the rest
// of the policy is empty (the compiled policy's `empty` flag lets analyze skip the workspace layer). The table is keyed
// by WorkspacePolicy, so a new setting does not compile until it is given a case here.
import { buildDecision } from '../../lambdas/domain/decision';
import { scoreSignal } from '../../lambdas/domain/engine';
import { countSketch, emptyModel, labelCounts, type WorkspaceModel } from '../../lambdas/domain/learning/model';
import { halfSipKey } from '../../lambdas/domain/learning/half-siphash';
import { sketchSignal } from '../../lambdas/domain/learning/sketch';
import { applyWorkspace } from '../../lambdas/domain/learning/workspace-layer';
import { POLICY_FIELDS, type WorkspacePolicy, compilePolicy } from '../../lambdas/domain/policy';

const key = halfSipKey(Uint8Array.from([0, 1, 2, 3, 4, 5, 6, 7]));
const NOW = new Date('2026-11-21T09:30:00Z');
const signal = {
  workspace_id: 'ws_settings',
  source: 'email' as const,
  subject: 'Chargeback on invoice 4411',
  body: 'Please refund my card payment: there is a chargeback on invoice 4411.',
  sender: 'ceo@acme.example',
  received_at: '2026-11-21T09:30:00Z',
};
const global = scoreSignal(signal, NOW);

/** A model taught this signal's wording as category `card_refund`. */
function taughtModel(): WorkspaceModel {
  const model = emptyModel();
  const counts = labelCounts('category', 'card_refund');
  for (let i = 0; i < 5; i++) countSketch(counts, sketchSignal(key, signal), 1);
  model.labels.push(counts);
  model.version = 5;
  return model;
}

/** Per setting: the policy holding only it, and the model the workspace has (what the setting acts on). */
const CASES: { [K in keyof WorkspacePolicy]-?: { policy: Pick<WorkspacePolicy, K>; model?: () => WorkspaceModel } } = {
  vip_senders: { policy: { vip_senders: ['ceo@acme.example'] } },
  trusted_senders: { policy: { trusted_senders: ['@acme.example'] } },
  blocked_senders: { policy: { blocked_senders: ['@acme.example'] } },
  keywords: { policy: { keywords: [{ phrase: 'chargeback', weight: 10 }] } },
  categories: { policy: { categories: [{ name: global.category, queue: 'own_queue' }] } },
  routing: { policy: { routing: { [global.category]: 'own_queue' } } },
  thresholds: { policy: { thresholds: { critical: 99, high: 98, medium: 97 } } },
  response_minutes: { policy: { response_minutes: { critical: 1, high: 1, medium: 1, low: 1 } } },
  learning: { policy: { learning: false }, model: taughtModel },
};

function decide(settings: WorkspacePolicy, model: WorkspaceModel) {
  const policy = compilePolicy({ ...settings, version: 1, updated_at: null });
  const assessment = applyWorkspace(global, signal, policy, model, sketchSignal(key, signal));
  const ids = {
    decision_id: 'dec_x',
    workspace_id: signal.workspace_id,
    source: 'email',
    created_at: NOW.toISOString(),
  };
  return buildDecision({ ...ids, received_at: signal.received_at }, assessment, {
    policy_version: 1,
    response_minutes: policy.responseMinutes,
  });
}

it('has a case for every stored setting', () => {
  expect(Object.keys(CASES).sort()).toEqual([...POLICY_FIELDS].sort());
});

it.each(Object.entries(CASES))('%s alone changes a decision it applies to', (_field, { policy, model }) => {
  const workspaceModel = model ?? emptyModel;
  expect(decide(policy, workspaceModel())).not.toEqual(decide({}, workspaceModel()));
});
