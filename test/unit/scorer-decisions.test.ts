// The decision engine's whole decision on hand-written signals (none taken from the evaluation data sets): a table of
// realistic signals, archive never swallowing a real problem, and determinism.
import { CATEGORIES, priorityForScore } from '../../lambdas/domain/decision';
import { CATEGORY_QUEUE, MODEL_VERSION, scoreSignal } from '../../lambdas/domain/engine';
import { score, signal, type Input } from '../support/scorer-signals';
import { TABLE } from '../support/scorer-table';

describe('scoreSignal on a table of realistic signals', () => {
  it('has at least 60 rows over every source and many categories', () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(60);
    const sources = new Set(TABLE.map((r) => r[1].source));
    expect(sources.size).toBe(5);
    const categories = new Set(TABLE.map((r) => r[4]));
    for (const c of CATEGORIES) expect(categories).toContain(c);
  });

  it.each(TABLE)('%s', (_name, input, priority, action, category) => {
    const a = score(input);
    const summary = { priority: a.priority, action: a.recommended_action, category: a.category };
    expect({ summary, reasons: a.reasons }).toEqual({ summary: { priority, action, category }, reasons: a.reasons });
    expect(a.queue).toBe(category === 'general' ? a.queue : CATEGORY_QUEUE[category]);
    expect(a.model_version).toBe(MODEL_VERSION);
    expect(a.priority).toBe(priorityForScore(a.score));
  });
});

describe('archive never swallows a real problem', () => {
  it('does not archive a no-reply system alert about an outage', () => {
    const a = score({
      source: 'email',
      subject: 'Service outage detected',
      body: 'Your site is down. This is an automated notification, do not reply.',
      sender: 'noreply@monitoring.example',
    });
    expect(a.recommended_action).not.toBe('archive');
    expect(a.category).toBe('incident');
    expect(a.reasons.map((r) => r.code)).not.toContain('NO_REPLY_SENDER');
  });

  it('does not archive a complaint that has an unsubscribe footer', () => {
    const a = score({
      source: 'email',
      subject: 'Charged twice',
      body: 'You charged my card twice this month and nobody has replied to my emails.\n\nUnsubscribe | Manage preferences',
      sender: 'customer@shop.example',
    });
    expect(a.recommended_action).not.toBe('archive');
    expect(a.category).toBe('billing');
  });

  it('does not archive a question above a list footer, whatever question mark it ends with', () => {
    for (const mark of ['?', '\uff1f', '\u061f']) {
      const a = score({
        source: 'email',
        subject: 'Contract',
        body: `Can you call back about the contract${mark}\n\nUnsubscribe | Manage your preferences | Privacy policy`,
        sender: 'buyer@client.example',
      });
      expect({ mark, action: a.recommended_action }).toEqual({ mark, action: 'review' });
    }
  });

  it('does archive the same footer when nothing is wrong', () => {
    const a = score({
      source: 'email',
      subject: 'Our November update',
      body: 'Read more on our blog.\n\nUnsubscribe | Manage preferences',
    });
    expect(a.recommended_action).toBe('archive');
  });

  it('does not archive a spam-looking message from a partner-vouched customer', () => {
    const a = score({
      source: 'support_message',
      body: 'Call me back on 07700 900123, free entry to claim my prize is broken',
      metadata: { customer_tier: 'enterprise' },
    });
    expect(a.recommended_action).not.toBe('archive');
  });
});

describe('determinism and robustness', () => {
  it('gives the same decision for the same signal and now', () => {
    for (const [, input] of TABLE) expect(score(input)).toEqual(score(input));
  });

  it('does not depend on what was scored before', () => {
    const probe: Input = {
      source: 'email',
      subject: 'Outage',
      body: 'Our site is down, urgent!',
      sender: 'a@b.example',
    };
    const first = score(probe);
    for (const [, input] of TABLE) score(input);
    expect(score(probe)).toEqual(first);
  });

  // How fast is the bench's question (npm run bench), not a test's.
  it('handles a 200,000-character body deterministically', () => {
    const body = 'All good here. '.repeat(13_000) + 'Our site is down!';
    const a = score({ source: 'email', body });
    expect(score({ source: 'email', body })).toEqual(a);
  });

  it('accepts an invalid now or received_at without throwing', () => {
    expect(() =>
      scoreSignal(signal({ source: 'email', body: 'x', received_at: 'garbage' }), new Date('nope')),
    ).not.toThrow();
  });
});
