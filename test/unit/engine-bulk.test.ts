// Bulk and spam evidence is weighed against alarm words (docs/decision-engine.md, step 8): one alarming word in a
// scam or a newsletter must not escalate it, and a person reporting a real problem must still be escalated, even
// with bulk wording around it. The texts are written for this test.
import { reasonCodes, scorerAt } from '../support/scoring';

const NOW = new Date('2026-03-02T10:00:00Z');
const score = scorerAt(NOW, { workspace_id: 'ws_test', received_at: '2026-03-02T09:58:00Z' });

describe('alarm words inside spam and bulk mail', () => {
  it('archives a prize scam that shouts URGENT instead of escalating it', () => {
    const a = score({
      source: 'email',
      subject: 'URGENT: your reward is waiting',
      body:
        'Dear winner, you have been selected in our international lottery and won 2,500,000 USD. This is urgent: ' +
        'send your full name, bank account and a processing fee today to claim your prize. Reply now, the offer ' +
        'expires in 24 hours. Click here to unsubscribe.',
      sender: 'claims@reward-office.example',
    });
    expect(a.recommended_action).toBe('archive');
    expect(a.category).toBe('spam');
    expect(reasonCodes(a)).toContain('BULK_OUTWEIGHS_ALARM');
  });

  it('keeps a security newsletter away from escalate and respond_now', () => {
    const a = score({
      source: 'email',
      subject: 'This month in security: critical vulnerabilities you should know',
      body:
        'In this issue: a critical vulnerability in a popular web framework, new phishing tricks, and our upcoming ' +
        'webinar on ransomware. Read more on our blog.\n\nYou receive this newsletter because you subscribed. ' +
        'Unsubscribe | Manage preferences | View in browser',
      sender: 'newsletter@secvendor.example',
    });
    expect(['archive', 'review']).toContain(a.recommended_action);
    expect(a.priority).not.toBe('critical');
    expect(a.category).toBe('newsletter');
  });

  it('does not make a sales pitch that mentions downtime an incident', () => {
    const a = score({
      source: 'email',
      subject: 'Never worry about downtime again',
      body:
        'Is your website down more often than you would like? Our monitoring plan catches every outage. Special ' +
        'offer this week only: 50% off the first year. Book your free trial today! To stop receiving these ' +
        'emails, unsubscribe here.',
      sender: 'offers@monitoring-deals.example',
    });
    expect(a.recommended_action).not.toBe('escalate');
    expect(a.category).not.toBe('incident');
  });
});

describe('a person reporting a real problem', () => {
  it('still escalates an outage report from a customer, even with a mailing footer', () => {
    const a = score({
      source: 'email',
      subject: 'Our production site is down',
      body:
        'Since 9:10 our production site is down for all customers and the checkout returns errors. This is urgent, ' +
        'please call me.\n\n--\nSent via HelpDesk. Unsubscribe from ticket updates.',
      sender: 'ops-lead@customer-corp.example',
    });
    expect(a.recommended_action).toBe('escalate');
    expect(a.category).toBe('incident');
    expect(reasonCodes(a)).not.toContain('BULK_OUTWEIGHS_ALARM');
  });

  it('answers a complaint written above a newsletter footer', () => {
    const a = score({
      source: 'email',
      subject: 'Again no access',
      body: 'I still cannot log in to my account, this is the third time I write. This is unacceptable.\n\nUnsubscribe | View in browser',
      sender: 'newsletter@mailer.example',
    });
    expect(a.recommended_action).not.toBe('archive');
    expect(a.category).toBe('support');
  });

  it('never lets bulk wording outweigh a sender the partner vouches for', () => {
    const a = score({
      source: 'email',
      body: 'Win a free prize, claim now! Also: our API is down since this morning. Unsubscribe.',
      metadata: { customer_tier: 'enterprise' },
    });
    expect(a.recommended_action).not.toBe('archive');
  });
});
