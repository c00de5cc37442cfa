// Confidence of an alert's priority band (issue 22, item 5): a careful reviewer keeps a `low` band only for a rule
// its author called info, and a `high` band for a critical or a warning one, so the band an alert lands in says
// how likely it is kept. Written here, no corpus text.
import { scoreSignal } from '../../lambdas/domain/engine';

const NOW = new Date('2026-03-02T10:00:00Z');
const alert = (subject: string, body: string) =>
  scoreSignal({ workspace_id: 'ws_test', source: 'internal', received_at: NOW.toISOString(), subject, body }, NOW);

describe('confidence of an alert follows how often its band is kept', () => {
  it('is low for an alert scored low, high for an out-of-memory or service-down alert', () => {
    const reload = alert('ConfigReloaded', 'Configuration of the ingest service was reloaded.');
    const oom = alert('HostOutOfMemory', 'Node db-1 is out of memory.');
    const down = alert('ServiceDown', 'Service checkout on host web-3 is down.');
    expect(reload.priority).toBe('low');
    expect(oom.priority).toBe('high');
    expect(reload.confidence).toBeLessThan(0.25);
    expect(oom.confidence).toBeGreaterThanOrEqual(0.85);
    expect(down.confidence).toBeGreaterThanOrEqual(0.85);
  });
});
