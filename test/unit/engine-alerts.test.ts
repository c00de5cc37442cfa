// Internal operational signals get priorities that rise with their severity from the text alone, and negations
// or template wording do not flip them; bug and task text gets a category beyond `task` when it says more.
// Written examples: no labeled alerts exist in the shared data (docs/decision-engine.md says so).
import { PRIORITIES } from '../../lambdas/domain/decision';
import { scoreSignal } from '../../lambdas/domain/engine';
import type { Signal } from '../../lambdas/domain/signal';

const NOW = new Date('2026-03-02T10:00:00Z');
const score = (s: Omit<Signal, 'workspace_id' | 'received_at'>) =>
  scoreSignal({ workspace_id: 'ws_ops', received_at: '2026-03-02T09:59:00Z', ...s }, NOW);
const rank = (p: string) => PRIORITIES.length - PRIORITIES.indexOf(p as (typeof PRIORITIES)[number]);

describe('operational alerts', () => {
  const info = score({ source: 'internal', subject: 'Nightly report generated', body: 'The nightly usage report was generated.' });
  const capacity = score({ source: 'internal', subject: 'Capacity warning', body: 'Cluster capacity at 92%, consider adding nodes.' });
  const degraded = score({ source: 'internal', subject: 'Replica degraded', body: 'Replica db-2 is degraded: replication lag above threshold.' });
  const unreachable = score({
    source: 'internal',
    subject: 'payments-api unreachable',
    body: 'Health check failed: payments-api is unreachable from all regions.',
  });

  it('rise in priority with severity: information < capacity warning, degraded replica < unreachable service', () => {
    expect(rank(info.priority)).toBeLessThan(rank(capacity.priority));
    expect(rank(capacity.priority)).toBeLessThanOrEqual(rank(degraded.priority));
    expect(rank(degraded.priority)).toBeLessThan(rank(unreachable.priority));
    expect(unreachable.priority).toBe('critical');
    expect(info.priority).toBe('low');
  });

  it('are incidents for engineering once anything is wrong', () => {
    for (const a of [capacity, degraded, unreachable]) expect([a.category, a.queue]).toEqual(['incident', 'engineering']);
  });

  it('are not made critical by a negated severity word in the rule text', () => {
    const a = score({ source: 'internal', subject: 'Alert rule: low disk', body: 'This alert is never critical and should not page anyone.' });
    expect(a.priority).not.toBe('critical');
    expect(a.priority).not.toBe('high');
  });
});

describe('bug and task text', () => {
  it('becomes an incident when it reports an outage or degraded production', () => {
    const a = score({ source: 'task', subject: 'Login down for all users', body: 'Since the deploy the login service is down for all users in production.' });
    expect(a.category).toBe('incident');
  });

  it('becomes a security case when it reports a vulnerability', () => {
    expect(score({ source: 'task', subject: 'XSS in comments', body: 'Security vulnerability: script injection (XSS) in the comment field.' }).category).toBe('security');
  });

  it('becomes a support case when a customer cannot use the product', () => {
    const a = score({ source: 'task', subject: 'Customer cannot reset password', body: 'A customer cannot reset their password; the reset e-mail never arrives.' });
    expect(a.category).toBe('support');
  });

  it('stays a task when it is plain work', () => {
    expect(score({ source: 'task', subject: 'Update the footer year', body: 'Change 2025 to 2026 in the footer.' }).category).toBe('task');
  });
});
