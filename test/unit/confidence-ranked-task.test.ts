// Confidence of a ticket the engine ranked (docs/decision-engine-confidence.md, "Confidence of a ranked ticket"):
// whether its band fits the tracker's priority is that tracker's habit, so every ranked ticket states what a ticket
// from a tracker the engine never saw gets on average, whatever band it lands in; a ticket that carries its author's
// priority keeps the decision's own facts. Written here, no corpus text.
import { scoreSignal } from '../../lambdas/domain/engine';
import { unseenTrackerRate } from '../../bin/train-confidence';
import type { ConfidenceInput } from '../../lambdas/domain/engine/confidence';

const NOW = new Date('2026-03-02T10:00:00Z');
const ticket = (subject: string, body: string, metadata?: Record<string, string>) =>
  scoreSignal(
    {
      workspace_id: 'ws_test',
      source: 'task',
      received_at: NOW.toISOString(),
      subject,
      body,
      ...(metadata && { metadata }),
    },
    NOW,
  );

describe('a ticket the engine ranks', () => {
  const crash = ticket(
    'App crashes on launch after upgrade',
    'Since the last release the app crashes on every launch with a null pointer exception; all users are blocked and data is lost.',
  );
  const cosmetic = ticket(
    'Typo in the settings page',
    'The label on the settings page says "Colour" in one place and "Color" in another. Cosmetic only.',
  );

  it('is not surer of a serious-looking report than of a cosmetic one', () => {
    expect(crash.priority).not.toBe(cosmetic.priority);
    expect(crash.confidence).toBe(cosmetic.confidence);
  });

  it('states a middling chance: an unseen tracker agrees with the band about half the time', () => {
    expect(crash.confidence).toBeGreaterThanOrEqual(0.4);
    expect(crash.confidence).toBeLessThanOrEqual(0.7);
  });
});

describe("the trainer's ranked_task", () => {
  const input = { source: 'task', reasons: [], score: 50, archived: false } as unknown as ConfidenceInput;
  const row = (group: string, right: boolean) => ({ kind: 'bug', group, right, input });
  const rows = [
    ...Array.from({ length: 90 }, (_, i) => row('big', i < 81)), // 0.9
    ...Array.from({ length: 10 }, (_, i) => row('small', i < 3)), // 0.3
    row('an alert', true),
  ];
  rows[rows.length - 1] = { ...rows[rows.length - 1], kind: 'alert' };

  it('weighs every tracker the same, however many tickets it has', () => {
    expect(unseenTrackerRate(rows)).toBeCloseTo(0.6, 9);
  });

  it('leaves the tracker held out out of the fit', () => {
    expect(unseenTrackerRate(rows, 'big')).toBeCloseTo(0.3, 9);
  });
});
