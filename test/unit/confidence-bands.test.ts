// Confidence of an alert's priority band (issue 22, item 5): a careful reviewer keeps a `low` band only for a rule
// its author called info, and a `high` band for a critical or a warning one, so the band an alert lands in says
// how likely it is kept. Written here, no corpus text.
import { lastConfidenceInput, scoreSignal } from '../../lambdas/domain/engine';
import {
  CONFIDENCE_FEATURES,
  confidenceFeatures,
  currentConfidenceModel,
  labelChances,
  rankedKind,
} from '../../lambdas/domain/engine/confidence';

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

describe('the ordinal model behind a ranked decision', () => {
  const m = { rules: 1.8, model: 0.5, thresholds: [-2.4, 2.1] };
  it('gives label chances that add up to 1 and move toward the top label with more points', () => {
    let previousTop = -1;
    for (let points = -2; points <= 3; points += 0.25) {
      const chances = labelChances(m, { rules: points, model: 0 });
      expect(chances.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
      for (const c of chances) expect(c).toBeGreaterThanOrEqual(0);
      expect(chances[2]).toBeGreaterThan(previousTop);
      previousTop = chances[2];
    }
  });

  it("does not rank an alert that carries its author's severity", () => {
    const a = scoreSignal(
      {
        workspace_id: 'ws_test',
        source: 'internal',
        received_at: NOW.toISOString(),
        subject: 'HostOutOfMemory',
        body: 'Node db-1 is out of memory.',
        metadata: { severity: 'critical' },
      },
      NOW,
    );
    expect(a.priority).toBe('critical');
    expect(rankedKind(lastConfidenceInput())).toBeNull();
  });
});

describe('the confidence model reads every feature it names', () => {
  // confidenceFeatures writes its features as one literal, in CONFIDENCE_FEATURES' order: a name added without its
  // value (or the reverse) would shift every weight after it and no decision would say so.
  it('computes one value per named feature, for every kind of signal', () => {
    const { ordinal } = currentConfidenceModel();
    const kinds = [
      { source: 'email', subject: 'Invoice 4471', body: 'Please check why we were charged twice.' },
      { source: 'support_message', body: 'FREE entry to win a brand new phone! Text WIN to 80085 now.' },
      { source: 'task', subject: 'App crashes on launch', body: 'The app crashes on every launch since the upgrade.' },
      { source: 'internal', subject: 'DiskSpaceLow', body: 'Disk usage on the host is above 80%.' },
      { source: 'crm_event', body: 'Deal moved to negotiation.' },
    ] as const;
    for (const k of kinds) {
      scoreSignal({ workspace_id: 'ws_test', received_at: NOW.toISOString(), ...k }, NOW);
      const features = confidenceFeatures(lastConfidenceInput(), ordinal);
      expect(features).toHaveLength(CONFIDENCE_FEATURES.length);
      expect(features.every(Number.isFinite)).toBe(true);
      expect(features[CONFIDENCE_FEATURES.indexOf(k.source)]).toBe(1);
    }
  });
});

describe('thin evidence', () => {
  const mail = (body: string) =>
    scoreSignal(
      { workspace_id: 'ws_test', source: 'email', sender: 'ann@example.com', received_at: NOW.toISOString(), body },
      NOW,
    );

  it('caps the confidence of text in a language the engine cannot read, as it caps a few vague words', () => {
    // An outage report in Russian, which the engine reads as nothing: it stayed general and low at 0.99.
    const russian = mail('Наш сайт не работает для всех клиентов, срочно, мы теряем деньги каждую минуту');
    expect(russian.language).toBe('und');
    expect(russian.confidence).toBeLessThanOrEqual(0.8);
    // The same report in English has evidence of its own, and is sure of it.
    const english = mail('Our site is down for all customers, urgent, we are losing money every minute');
    expect(english.priority).toBe('critical');
    expect(english.confidence).toBeGreaterThan(0.8);
  });
});
