// The alert severity model reads words learned from every development alert source (docs/decision-engine-severity.md,
// "Severity across sources: a pooled alert model with words"): what it must not read into them. Sentences written
// here, none from the data.
import { scoreSignal, severityFeatures } from '../../lambdas/domain/engine';
import { shippedSeverityModels } from '../../lambdas/domain/engine/severity-model';
import type { Signal } from '../../lambdas/domain/signal';

const NOW = new Date('2026-03-02T10:00:00Z');
const alert = (subject: string, body: string): Signal => ({
  workspace_id: 'ws_ops',
  source: 'internal',
  received_at: '2026-03-02T09:59:00Z',
  subject,
  body,
});
const words = (subject: string, body: string) =>
  new Set(severityFeatures(alert(subject, body), NOW, shippedSeverityModels().alert.reading).words);

describe('the alert severity model', () => {
  it('reads words, and the shipped file says how; a band model of rule codes decides the band', () => {
    const { alert, alertBand } = shippedSeverityModels();
    expect(alert.words.size).toBeGreaterThan(100);
    expect(alert.reading).toEqual({ negated: 'drop', placeholders: 'drop' });
    expect(alertBand?.words.size).toBe(0);
  });

  it('does not read a negated word as the word itself', () => {
    const plain = words('Queue check', 'The ingest queue is stalled.');
    const negated = words('Queue check', 'The ingest queue is not stalled.');
    const stalled = [...plain].filter((w) => !negated.has(w));
    expect(stalled.length).toBe(1);
  });

  it('reads a template placeholder as nothing, rendered or not', () => {
    const named = words('Disk full', 'Disk on <instance> is full, N bytes left.');
    const templated = words('Disk full', 'Disk on {{ $labels.instance }} is full, {{ $value }} bytes left.');
    const bare = words('Disk full', 'Disk on is full, bytes left.');
    expect(named).toEqual(bare);
    expect(templated).toEqual(bare);
    const a = scoreSignal(alert('Disk full', 'Disk on {{ $labels.instance }} is full.'), NOW);
    const b = scoreSignal(alert('Disk full', 'Disk on <instance> is full.'), NOW);
    expect([a.score, a.priority]).toEqual([b.score, b.priority]);
  });

  it('says nothing where the rules read nothing', () => {
    const a = scoreSignal(alert('Widget sync', 'The widget sync for the blue team ran on schedule.'), NOW);
    expect(a.reasons).toEqual([]);
  });

  it('leaves a stated serious problem where the band model puts it: the words do not re-rate it', () => {
    const { alertBand, bug } = shippedSeverityModels();
    for (const [subject, body] of [
      ['Ledger writer out of memory', 'The ledger writer on node seven ran out of memory.'],
      ['Billing gateway down', 'The billing gateway is down for every region.'],
    ]) {
      const a = scoreSignal(alert(subject, body), NOW);
      const bandAlone = scoreSignal(alert(subject, body), NOW, { severity: { alert: alertBand!, bug } });
      expect([subject, a.score, a.priority]).toEqual([subject, bandAlone.score, bandAlone.priority]);
      expect([subject, a.priority === 'high' || a.priority === 'critical']).toEqual([subject, true]);
    }
  });

  it('moves an alert only inside the band the band model gives it', () => {
    const { alertBand, bug } = shippedSeverityModels();
    for (const [subject, body] of [
      // The words alone would take this one from high to medium (55 against the band model's 66).
      ['HighLatency', 'p99 latency is above 2 seconds.'],
      ['MemoryHigh', 'Memory usage is above 85% on the cache nodes.'],
      ['Replica lag high', 'Replication lag on the orders database is above five minutes.'],
      ['Certificate expires soon', 'The TLS certificate for the public site expires in 20 days.'],
    ]) {
      const a = scoreSignal(alert(subject, body), NOW);
      const bandAlone = scoreSignal(alert(subject, body), NOW, { severity: { alert: alertBand!, bug } });
      expect([subject, a.priority]).toEqual([subject, bandAlone.priority]);
    }
  });
});
