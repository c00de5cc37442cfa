// The engine's invariants hold in a workspace's own bands: what the engine kept out of the archive, or held below
// critical as bulk mail, a policy's thresholds and points do not move there (docs/partners.md, "Workspace policy").
import { scoreSignal } from '../../lambdas/domain/engine';
import { halfSipKey } from '../../lambdas/domain/learning/half-siphash';
import { emptyModel } from '../../lambdas/domain/learning/model';
import { sketchSignal } from '../../lambdas/domain/learning/sketch';
import { applyWorkspace } from '../../lambdas/domain/learning/workspace-layer';
import { type WorkspacePolicy, compilePolicy } from '../../lambdas/domain/policy';
import type { Signal } from '../../lambdas/domain/signal';

const key = halfSipKey(Uint8Array.from([7, 6, 5, 4, 3, 2, 1, 0]));
const NOW = new Date('2026-11-21T09:30:00Z');

/** A signal of this file's workspace, received at NOW. */
const signalOf = (fields: Omit<Signal, 'workspace_id' | 'received_at'>): Signal => ({
  workspace_id: 'ws_policy',
  received_at: '2026-11-21T09:30:00Z',
  ...fields,
});

function decide(signal: Signal, settings: WorkspacePolicy) {
  const global = scoreSignal(signal, NOW);
  const policy = compilePolicy({ ...settings, version: 1, updated_at: null });
  return { global, workspace: applyWorkspace(global, signal, policy, emptyModel(), sketchSignal(key, signal)) };
}

// The engine keeps it at review (a person asks); the customer's tier and VIP flag lift it to medium.
const asking = signalOf({
  source: 'email',
  subject: 'Our monthly newsletter',
  body: 'I need help with my account, please call me. Unsubscribe here.',
  sender: 'ann@acme.example',
  metadata: { customer_tier: 'enterprise', vip: true },
});

it('does not archive a newsletter the engine kept at review when the thresholds or a keyword lower it', () => {
  const { global } = decide(asking, {});
  expect(global).toMatchObject({ category: 'newsletter', priority: 'medium', recommended_action: 'review' });
  for (const settings of [
    { thresholds: { medium: global.score + 5 } },
    { keywords: [{ phrase: 'monthly newsletter', weight: -5 }] },
  ] as WorkspacePolicy[]) {
    const { workspace } = decide(asking, settings);
    expect(workspace).toMatchObject({ priority: 'low', recommended_action: 'review' });
  }
});

// Bulk mail the engine holds at 79 (BULK_NEVER_ESCALATED): an outage notice from a newsletter address.
const notice = signalOf({
  source: 'email',
  sender: 'newsletter@status.example',
  subject: 'Major outage: all services down',
  body: 'Our platform is completely down for all customers. Unsubscribe from these updates.',
  metadata: { severity: 'sev1' },
});

it("holds bulk mail below the workspace's critical, whatever its thresholds", () => {
  const { global, workspace } = decide(notice, { thresholds: { critical: 75 } });
  expect(global.reasons.map((r) => r.code)).toContain('BULK_NEVER_ESCALATED');
  expect(global.score).toBeGreaterThanOrEqual(75);
  expect(workspace).toMatchObject({ score: 74, priority: 'high', recommended_action: 'respond_now' });
  // Still 20 plus its reasons' weights (docs/partners.md, "The decision").
  expect(20 + workspace.reasons.reduce((sum, r) => sum + r.weight, 0)).toBe(74);
});

it("archives where the workspace's own keyword names the engine's archive category", () => {
  const { global } = decide(asking, {});
  const { workspace } = decide(asking, {
    keywords: [{ phrase: 'monthly newsletter', weight: -10, category: global.category }],
  });
  expect(workspace).toMatchObject({ category: global.category, priority: 'low', recommended_action: 'archive' });
});

it('keeps the score 20 plus its reasons when the points would pass 100 before the bulk cap', () => {
  const { workspace } = decide(notice, {
    vip_senders: ['@status.example'],
    keywords: [{ phrase: 'outage', weight: 50 }],
  });
  expect(workspace).toMatchObject({ score: 79, priority: 'high' });
  expect(20 + workspace.reasons.reduce((sum, r) => sum + r.weight, 0)).toBe(79);
});

it("archives a stated problem where the workspace's own keyword names an archive category (learning would not)", () => {
  const digest = signalOf({
    source: 'email',
    sender: 'status@vendor.example',
    subject: 'Status page digest',
    body: 'Weekly summary: the EU region had an outage yesterday, now resolved.',
  });
  const { global, workspace } = decide(digest, {
    keywords: [{ phrase: 'status page digest', weight: -50, category: 'newsletter' }],
  });
  expect(global.recommended_action).not.toBe('archive');
  expect(global.reasons.map((r) => r.code)).toContain('OUTAGE_LANGUAGE');
  expect(workspace).toMatchObject({ category: 'newsletter', priority: 'low', recommended_action: 'archive' });
});

it('never escalates spam, whatever VIP and keyword points the workspace gives it (invariant 5)', () => {
  const spam = signalOf({
    source: 'email',
    sender: 'promo@deals.example',
    subject: 'You have won a free prize!!!',
    body: 'Claim your free prize and a gift card now. Click here to claim.',
  });
  const { global, workspace } = decide(spam, {
    vip_senders: ['@deals.example'],
    keywords: [
      { phrase: 'free prize', weight: 50 },
      { phrase: 'gift card', weight: 50 },
    ],
  });
  expect(global.category).toBe('spam');
  expect(workspace).toMatchObject({ score: 79, priority: 'high', recommended_action: 'respond_now' });
  expect(workspace.reasons.map((r) => r.code)).toContain('BULK_NEVER_ESCALATED');
});

it("archives no task and no internal signal as spam on a keyword's archive category (invariant 1)", () => {
  const task = signalOf({
    source: 'task',
    subject: 'Weekly digest of open tickets',
    body: 'Review the weekly digest and close what is done.',
  });
  const onTask = decide(task, { keywords: [{ phrase: 'weekly digest', weight: -40, category: 'newsletter' }] });
  expect(onTask.workspace).toMatchObject({ category: 'newsletter', priority: 'low', recommended_action: 'review' });
  const internal: Signal = { ...task, source: 'internal', subject: 'Lunch order', body: 'Lunch is at noon.' };
  const onInternal = decide(internal, { keywords: [{ phrase: 'lunch', weight: -10, category: 'spam' }] });
  expect(onInternal.workspace).toMatchObject({ category: 'spam', recommended_action: 'review' });
});
