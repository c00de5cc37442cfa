// Internal operational signals get priorities that rise with their severity from the text alone, and negations
// or template wording do not flip them; bug and task text gets a category beyond `task` when it says more.
// Written examples, not the labeled alert rules of the shared data: those measure quality in `npm run eval`
// (docs/decision-engine-severity.md), these pin the behaviour the lexicon was written for.
import { PRIORITIES } from '../../lambdas/domain/decision';
import { scoreSignal } from '../../lambdas/domain/engine';
import {
  ALERT_CASES,
  TICKET_CASES,
  alertSignal,
  ticketSignal,
  type AlertLabel,
  type TicketLabel,
} from '../../bin/eval/hand-written-cases';
import { reasonCodes, scorerAt } from '../support/scoring';

const NOW = new Date('2026-03-02T10:00:00Z');
const score = scorerAt(NOW, { workspace_id: 'ws_ops', received_at: '2026-03-02T09:59:00Z' });
const internal = (subject: string, body = '') => score({ source: 'internal', subject, body });
const email = (sender: string, subject: string, body: string) => score({ source: 'email', sender, subject, body });
const rank = (p: string) => PRIORITIES.length - PRIORITIES.indexOf(p as (typeof PRIORITIES)[number]);

describe('operational alerts', () => {
  const info = internal('Nightly report generated', 'The nightly usage report was generated.');
  const capacity = internal('Capacity warning', 'Cluster capacity at 92%, consider adding nodes.');
  const degraded = internal('Replica degraded', 'Replica db-2 is degraded: replication lag above threshold.');
  const unreachable = internal(
    'payments-api unreachable',
    'Health check failed: payments-api is unreachable from all regions.',
  );

  it('rise in priority with severity: information < capacity warning, degraded replica < unreachable service', () => {
    expect(rank(info.priority)).toBeLessThan(rank(capacity.priority));
    expect(rank(capacity.priority)).toBeLessThanOrEqual(rank(degraded.priority));
    expect(rank(degraded.priority)).toBeLessThan(rank(unreachable.priority));
    expect(unreachable.priority).toBe('critical');
    expect(info.priority).toBe('low');
  });

  it('are incidents for engineering once anything is wrong', () => {
    for (const a of [capacity, degraded, unreachable])
      expect([a.category, a.queue]).toEqual(['incident', 'engineering']);
  });

  it('are not made critical by a negated severity word in the rule text', () => {
    const a = internal('Alert rule: low disk', 'This alert is never critical and should not page anyone.');
    expect(a.priority).not.toBe('critical');
    expect(a.priority).not.toBe('high');
  });
});

describe('bug and task text', () => {
  it.each([
    [
      'becomes an incident when it reports an outage or degraded production',
      'Login down for all users',
      'Since the deploy the login service is down for all users in production.',
      'incident',
    ],
    [
      'becomes a security case when it reports a vulnerability',
      'XSS in comments',
      'Security vulnerability: script injection (XSS) in the comment field.',
      'security',
    ],
    [
      'becomes a support case when a customer cannot use the product',
      'Customer cannot reset password',
      'A customer cannot reset their password; the reset e-mail never arrives.',
      'support',
    ],
    ['stays a task when it is plain work', 'Update the footer year', 'Change 2025 to 2026 in the footer.', 'task'],
  ])('%s', (_name, subject, body, category) => {
    expect(score({ source: 'task', subject, body }).category).toBe(category);
  });
});

// ---- hand-written labeled cases (bin/eval/hand-written-cases.ts): behaviour, not a quality measure ----------------

const NOW_CASES = new Date('2026-03-02T10:00:00Z');
const median = (v: number[]) => {
  const s = [...v].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;

describe.each(['internal', 'email'] as const)('hand-written alert rules as %s signals', (source) => {
  const scored = ALERT_CASES.map((c) => ({ c, a: scoreSignal(alertSignal(c, source), NOW_CASES) }));
  const scoresOf = (label: AlertLabel) => scored.filter((x) => x.c.label === label).map((x) => x.a.score);

  it('has enough cases of every class', () => {
    expect(ALERT_CASES.length).toBeGreaterThanOrEqual(40);
    for (const label of ['critical', 'warning', 'info'] as const)
      expect(scoresOf(label).length).toBeGreaterThanOrEqual(12);
  });

  it('scores critical above warning above info (median and mean)', () => {
    expect(median(scoresOf('critical'))).toBeGreaterThan(median(scoresOf('warning')));
    expect(median(scoresOf('warning'))).toBeGreaterThan(median(scoresOf('info')));
    expect(mean(scoresOf('critical'))).toBeGreaterThan(mean(scoresOf('warning')) + 10);
    expect(mean(scoresOf('warning'))).toBeGreaterThan(mean(scoresOf('info')) + 10);
  });

  it('gives every critical alert a reason, and high or critical priority', () => {
    for (const { c, a } of scored.filter((x) => x.c.label === 'critical')) {
      expect([c.name, a.reasons.length > 0]).toEqual([c.name, true]);
      expect([c.name, a.priority === 'high' || a.priority === 'critical']).toEqual([c.name, true]);
      expect([c.name, a.category]).toEqual([c.name, 'incident']);
    }
  });

  it('never escalates an info alert, nor gives it more than medium', () => {
    for (const { c, a } of scored.filter((x) => x.c.label === 'info')) {
      expect([c.name, a.recommended_action === 'escalate' || a.recommended_action === 'respond_now']).toEqual([
        c.name,
        false,
      ]);
      expect([c.name, a.priority === 'low' || a.priority === 'medium']).toEqual([c.name, true]);
    }
  });

  it('puts most warnings at medium or high, never critical', () => {
    const warnings = scored.filter((x) => x.c.label === 'warning');
    for (const { c, a } of warnings) expect([c.name, a.priority]).not.toEqual([c.name, 'critical']);
    const middle = warnings.filter(({ a }) => a.priority === 'medium' || a.priority === 'high').length;
    expect(middle / warnings.length).toBeGreaterThanOrEqual(0.8);
  });
});

describe('alert wording that must not flip the severity', () => {
  it('a negated condition is not a condition', () => {
    const a = internal('Database check', 'The database is not down and there are no errors.');
    expect(reasonCodes(a)).not.toContain('OUTAGE_LANGUAGE');
    expect(reasonCodes(a)).not.toContain('WARNING_CONDITION');
    expect(a.priority).toBe('low');
  });

  it('"should never happen" does not soften a critical condition', () => {
    const a = internal(
      'Replication stopped',
      'Replication on {{ $labels.instance }} has stopped. This should never happen.',
    );
    expect(reasonCodes(a)).toContain('CRITICAL_CONDITION');
    expect(['high', 'critical']).toContain(a.priority);
  });

  it('negated urgency in an alert description is neither urgent nor "not urgent"', () => {
    const a = internal('Queue backlog growing', 'Messages pile up. Never critical on its own.');
    expect(reasonCodes(a)).not.toContain('NOT_URGENT');
    expect(reasonCodes(a)).not.toContain('URGENCY_LANGUAGE');
    expect(reasonCodes(a)).toContain('WARNING_CONDITION');
  });

  it('a description of when the alert resolves is no recovery', () => {
    for (const body of [
      'Disk on {{ $labels.instance }} is full. If not resolved, writes fail.',
      'Disk on {{ $labels.instance }} is full. The alert will be resolved once usage drops.',
      'Disk on {{ $labels.instance }} is full until resolved by an operator.',
    ]) {
      const a = internal('Disk full', body);
      expect([body, reasonCodes(a)]).not.toEqual([body, expect.arrayContaining(['ALERT_RESOLVED'])]);
      expect([body, a.priority === 'high' || a.priority === 'critical']).toEqual([body, true]);
    }
    expect(reasonCodes(internal('[RESOLVED] Disk full', 'Disk usage is back to normal.'))).toContain('ALERT_RESOLVED');
  });

  it('template placeholders add nothing and read like the values they stand for', () => {
    expect(internal('{{ $labels.alertname }}', 'VALUE = {{ $value }}\n  LABELS = {{ $labels }}').reasons).toEqual([]);
    const templated = internal(
      'Instance down',
      '{{ $labels.instance }} of job {{ $labels.job }} has been down for more than 5 minutes.',
    );
    const rendered = internal('Instance down', 'db-1:9100 of job node has been down for more than 5 minutes.');
    expect(reasonCodes(templated)).toContain('OUTAGE_LANGUAGE');
    expect(templated.priority).toBe(rendered.priority);
    const far = internal(
      'Targets down',
      '{{ $value }}% of the {{ $labels.job }} targets in {{ $labels.namespace }} namespace are down.',
    );
    expect(reasonCodes(far)).toContain('OUTAGE_LANGUAGE');
  });

  it('reads CamelCase rule names', () => {
    expect(reasonCodes(internal('KubeNodeNotReady'))).toContain('CRITICAL_CONDITION');
    expect(reasonCodes(internal('HostOutOfMemory'))).toContain('CRITICAL_CONDITION');
    expect(reasonCodes(internal('NodeFilesystemAlmostOutOfSpace'))).toContain('WARNING_CONDITION');
    expect(reasonCodes(internal('NodeFilesystemAlmostOutOfSpace'))).not.toContain('CRITICAL_CONDITION');
    expect(reasonCodes(internal('ConfigReloaded'))).toContain('INFORMATIONAL_ALERT');
  });

  it('hours to exhaustion are critical, days a warning', () => {
    expect(reasonCodes(internal('Disk filling', 'The volume will fill within 4 hours.'))).toContain(
      'CRITICAL_CONDITION',
    );
    const days = internal('Disk filling', 'The volume will fill within 4 days.');
    expect(reasonCodes(days)).toContain('WARNING_CONDITION');
    expect(reasonCodes(days)).not.toContain('CRITICAL_CONDITION');
  });

  it('reads a free share as the other side of a usage metric', () => {
    expect(reasonCodes(internal('Disk almost full', 'Only 4% left on {{ $labels.mountpoint }}.'))).toContain(
      'METRIC_CRITICAL',
    );
    expect(reasonCodes(internal('Disk almost full', 'Less than 10% disk space left.'))).toContain('METRIC_WARNING');
    expect(reasonCodes(internal('Disk usage', 'Still 40% free.')).filter((c) => c.startsWith('METRIC'))).toEqual([]);
    // The words first, as df-style checks write them.
    expect(reasonCodes(internal('Disk check', 'disk free 4% on /var'))).toContain('METRIC_CRITICAL');
    expect(reasonCodes(internal('Memory check', 'Free memory: 12%'))).toContain('METRIC_WARNING');
    expect(reasonCodes(internal('Disk check', 'disk free  :  3%'))).toContain('METRIC_CRITICAL');
    const plenty = internal('Disk check', 'disk space free 40%, disk usage 4%');
    expect(reasonCodes(plenty).filter((c) => c.startsWith('METRIC'))).toEqual([]);
  });

  it('metadata.severity replaces the severity read from the wording, and alone lands in its own band', () => {
    const info = score({ source: 'internal', subject: 'Node out of memory', metadata: { severity: 'info' } });
    expect(reasonCodes(info)).toContain('SEVERITY_LOW');
    expect(reasonCodes(info)).not.toContain('CRITICAL_CONDITION');
    expect(info.priority).toBe('low');
    const critical = score({ source: 'internal', subject: 'Config reloaded', metadata: { severity: 'critical' } });
    expect(reasonCodes(critical)).toEqual(['SEVERITY_CRITICAL']);
    expect(critical.priority).toBe('critical');
    // Not low: a warning's wording alone usually makes an alert medium, and the label must not lower it.
    const warning = score({ source: 'internal', subject: 'Config reloaded', metadata: { severity: 'warning' } });
    expect(reasonCodes(warning)).toEqual(['SEVERITY_MEDIUM']);
    expect(warning.priority).toBe('medium');
  });

  it('a monitoring alert sent by mail reads as one; ordinary mail with the same words does not', () => {
    const mail = email(
      'alertmanager@ops.example',
      '[FIRING:1] KubeNodeNotReady',
      'Node {{ $labels.node }} is not ready.',
    );
    expect(reasonCodes(mail)).toContain('CRITICAL_CONDITION');
    const chat = email('ann@example.com', 'Lunch', 'The kids are not ready yet, see you at one.');
    expect(reasonCodes(chat)).not.toContain('CRITICAL_CONDITION');
  });
});

describe('hand-written bug and task texts', () => {
  const scored = TICKET_CASES.map((c) => ({ c, a: scoreSignal(ticketSignal(c), NOW_CASES) }));
  const scoresOf = (label: TicketLabel) => scored.filter((x) => x.c.label === label).map((x) => x.a.score);

  it('has enough cases', () => {
    expect(TICKET_CASES.length).toBeGreaterThanOrEqual(20);
  });

  it('orders blockers, crashes, data loss and security above broken features above minor matters', () => {
    expect(median(scoresOf('high'))).toBeGreaterThan(median(scoresOf('medium')));
    expect(median(scoresOf('medium'))).toBeGreaterThan(median(scoresOf('low')));
    expect(Math.min(...scoresOf('high'))).toBeGreaterThanOrEqual(median(scoresOf('medium')));
    expect(Math.max(...scoresOf('low'))).toBeLessThan(median(scoresOf('medium')));
  });

  it('gives the category the text supports', () => {
    for (const { c, a } of scored) if (c.category) expect([c.title, a.category]).toEqual([c.title, c.category]);
    const categories = new Set(scored.map(({ a }) => a.category));
    for (const c of ['incident', 'security', 'support', 'task']) expect(categories).toContain(c);
  });

  it('leaves fewer than half of them in task', () => {
    expect(scored.filter(({ a }) => a.category === 'task').length / scored.length).toBeLessThan(0.5);
  });

  it('keeps defect wording out of other sources', () => {
    const mail = email('a@b.example', 'Minor typo', 'Small typo on your pricing page.');
    expect(reasonCodes(mail)).not.toContain('MINOR_ISSUE');
  });
});
