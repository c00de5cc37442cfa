// A spam vote the scorer set aside as a doubt lowers the confidence by how likely spam the model read the text, not as
// one flag (docs/decision-engine-confidence.md, "Confidence: reproducing the model"): a doubt at p 0.35 is wrong far
// less often than one at 0.75, and a plain outage report the model reads at p 0.4 stays above any vague one-liner.
import { confidenceOf, type ConfidenceInput } from '../../lambdas/domain/engine/confidence';
import { scorerAt } from '../support/scoring';

const NOW = new Date('2026-01-15T12:00:00Z');
const score = scorerAt(NOW, { workspace_id: 'ws_test', received_at: '2026-01-15T11:59:00Z' });

describe('a doubted spam vote', () => {
  it('costs more confidence the more likely spam the model read the text', () => {
    const doubted: ConfidenceInput = {
      source: 'support_message',
      category: 'general',
      archived: false,
      best: 0,
      second: 0,
      spamProbability: 0.35,
      modelDoubted: true,
      score: 20,
      reasons: [{ code: 'SPAM_MODEL', message: 'x', weight: -10 }],
      words: 14,
    };
    expect(confidenceOf({ ...doubted, spamProbability: 0.75 })).toBeLessThan(confidenceOf(doubted));
  });

  it('leaves a plain outage report more confident than any vague one-liner', () => {
    const outage = score({
      source: 'email',
      subject: 'Production outage',
      body: 'Our checkout is down for all customers since 09:10. Every payment fails with error 500.',
    });
    expect(outage.category).toBe('incident');
    const vague = ['hi', 'quick question', 'any update?', 'please call me', 'see attached', 'ok thanks'].map(
      (body) => score({ source: 'email', body }).confidence,
    );
    expect(outage.confidence).toBeGreaterThan(Math.max(...vague));
  });
});
