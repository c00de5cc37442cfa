// The decision engine on hand-written signals (none taken from the evaluation data sets).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CATEGORIES, priorityForScore } from '../../lambdas/domain/decision';
import type { JsonValue } from '../../lambdas/domain/signal';
import { BASE_SCORE, CATEGORY_QUEUE, MODEL_VERSION, REASON_CODES, scoreSignal } from '../../lambdas/domain/engine';
import { TokenBuffer } from '../../lambdas/domain/engine/tokens';
import { tokenizeWith } from '../support/reference-tokenizer';
import { NOW, codes, hoursFromNow, score, signal, type Input } from '../support/scorer-signals';
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

describe('reasons', () => {
  const outage: Input = {
    source: 'email',
    subject: 'Production down',
    body: 'Our site is down for all customers. Please fix this ASAP!!',
    sender: 'ops@acme.example',
    metadata: { customer_tier: 'enterprise', tags: ['urgent'] },
  };

  it('are ordered by absolute weight, then by code', () => {
    const { reasons } = score(outage);
    for (let i = 1; i < reasons.length; i++) {
      const [a, b] = [reasons[i - 1], reasons[i]];
      expect(
        Math.abs(a.weight) > Math.abs(b.weight) || (Math.abs(a.weight) === Math.abs(b.weight) && a.code < b.code),
      ).toBe(true);
    }
  });

  it('sum to score - BASE_SCORE when nothing is clamped', () => {
    const a = score({ source: 'email', subject: 'Login', body: 'I cannot log in.', sender: 'x@corp.example' });
    expect(a.reasons.reduce((s, r) => s + r.weight, 0)).toBe(a.score - BASE_SCORE);
  });

  it('never hold more of the body than a matched keyword', () => {
    const secret = 'Tracking number ZX-99812 for Mrs. Example at 12 Sample Road';
    const a = score({
      source: 'email',
      subject: 'Outage',
      body: `${secret}. Our site is down.`,
      sender: 'a@b.example',
    });
    const text = JSON.stringify(a.reasons);
    expect(text).not.toContain('ZX-99812');
    expect(text).not.toContain('Sample Road');
    for (const r of a.reasons) expect(r.message.length).toBeLessThan(120);
  });

  it('use only catalogued codes, within the catalogued weight range', () => {
    for (const [, input] of TABLE) {
      for (const r of score(input).reasons) {
        const info = REASON_CODES[r.code as keyof typeof REASON_CODES];
        expect(info).toBeDefined();
        expect(r.weight).toBeGreaterThanOrEqual(info.min);
        expect(r.weight).toBeLessThanOrEqual(info.max);
        expect(Number.isInteger(r.weight)).toBe(true);
        expect(r.weight).not.toBe(0);
      }
    }
  });

  it('explain the enterprise tier the way the contract example does', () => {
    expect(score(outage).reasons).toContainEqual({
      code: 'VIP_CUSTOMER',
      message: 'metadata.customer_tier is enterprise',
      weight: 15,
    });
    expect(codes(outage)).toContain('OUTAGE_LANGUAGE');
  });
});

describe('negation and hedging', () => {
  it('"not down" and "isn\'t broken" do not count as problems', () => {
    expect(codes({ source: 'email', body: 'Good news: the site is not down and nothing isn’t broken.' })).not.toContain(
      'OUTAGE_LANGUAGE',
    );
    expect(codes({ source: 'email', body: 'The importer isn’t broken, I was using it wrong.' })).not.toContain(
      'SUPPORT_REQUEST',
    );
    expect(codes({ source: 'email', body: 'We had no outage this quarter.' })).not.toContain('OUTAGE_LANGUAGE');
  });

  it('"not urgent" and "no rush" lower the score instead of raising it', () => {
    const urgent = score({ source: 'email', body: 'Urgent: please update the billing address on my invoice.' });
    const hedged = score({ source: 'email', body: 'Not urgent: please update the billing address on my invoice.' });
    const noRush = score({ source: 'email', body: 'No rush, please update the billing address on my invoice.' });
    expect(codes({ source: 'email', body: 'Not urgent: please update the billing address.' })).toContain('NOT_URGENT');
    expect(codes({ source: 'email', body: 'Not urgent: please update the billing address.' })).not.toContain(
      'URGENCY_LANGUAGE',
    );
    expect(hedged.score).toBeLessThan(urgent.score);
    expect(noRush.score).toBeLessThan(urgent.score);
  });

  it('handles German, French and Spanish hedges', () => {
    for (const body of ['Nicht dringend, aber bitte prüfen.', 'Ce n’est pas urgent.', 'No es urgente.']) {
      const c = codes({ source: 'email', body });
      expect(c).toContain('NOT_URGENT');
      expect(c).not.toContain('URGENCY_LANGUAGE');
    }
  });
});

describe('shouting', () => {
  it('gives one small bump, however loud', () => {
    const calm = score({ source: 'email', subject: 'Help', body: 'The export is broken.' });
    const loud = score({
      source: 'email',
      subject: 'HELP HELP HELP',
      body: 'THE EXPORT IS BROKEN!!! FIX IT!!! NOW!!!!!!',
    });
    const shout = loud.reasons.filter((r) => r.code === 'SHOUTING');
    expect(shout).toHaveLength(1);
    expect(shout[0].weight).toBe(5);
    expect(loud.score - calm.score).toBeLessThanOrEqual(5 + 15); // shouting plus at most the urgency cap
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

describe('sender', () => {
  it('VIP via metadata.vip', () => {
    const a = score({ source: 'email', body: 'Can we talk tomorrow?', sender: 'x@y.example', metadata: { vip: true } });
    expect(a.reasons).toContainEqual({ code: 'VIP_SENDER', message: 'metadata.vip is true', weight: 15 });
  });

  it('VIP via metadata.vip_senders, with a display name, by address or domain', () => {
    const byAddress = codes({
      source: 'email',
      body: 'Can we talk tomorrow?',
      sender: 'Jane Doe <CEO@BigClient.example>',
      metadata: { vip_senders: ['ceo@bigclient.example'] },
    });
    const byDomain = codes({
      source: 'email',
      body: 'Can we talk tomorrow?',
      sender: 'someone@bigclient.example',
      metadata: { vip_senders: ['@bigclient.example'] },
    });
    const other = codes({
      source: 'email',
      body: 'Hi',
      sender: 'a@other.example',
      metadata: { vip_senders: ['ceo@bigclient.example'] },
    });
    expect(byAddress).toContain('VIP_SENDER');
    expect(byDomain).toContain('VIP_SENDER');
    expect(other).not.toContain('VIP_SENDER');
  });

  it('no-reply and mailer-daemon addresses lean to archive when nothing is wrong', () => {
    for (const sender of [
      'noreply@x.example',
      'no-reply@x.example',
      'notifications@x.example',
      'mailer-daemon@x.example',
      'do-not-reply@x.example',
    ]) {
      expect(codes({ source: 'email', body: 'Your statement is available.', sender })).toContain('NO_REPLY_SENDER');
    }
  });

  it('business vs free-mail domain matters for sales leads', () => {
    const biz = score({
      source: 'email',
      body: 'Could you send a quote for 50 seats?',
      sender: 'buyer@acme-industries.example',
    });
    const free = score({ source: 'email', body: 'Could you send a quote for 50 seats?', sender: 'buyer@gmail.com' });
    expect(biz.reasons.map((r) => r.code)).toContain('SENDER_BUSINESS_DOMAIN');
    expect(free.reasons.map((r) => r.code)).toContain('SENDER_FREE_MAIL');
    expect(biz.score).toBeGreaterThan(free.score);
  });
});

describe('metadata hints', () => {
  const base: Input = {
    source: 'email',
    subject: 'Question',
    body: 'I cannot open the invoice PDF.',
    sender: 'a@b.example',
  };
  it('customer_tier enterprise > pro > none > free', () => {
    const s = (tier?: string) => score({ ...base, metadata: tier ? { customer_tier: tier } : {} }).score;
    expect(s('enterprise')).toBeGreaterThan(s('pro'));
    expect(s('pro')).toBeGreaterThan(s());
    expect(s()).toBeGreaterThan(s('free'));
    expect(s('Enterprise')).toBe(s('enterprise'));
  });

  it('tags: urgent raises, topics set the category', () => {
    expect(codes({ ...base, metadata: { tags: ['urgent'] } })).toContain('TAG_URGENT');
    const tagged = score({ source: 'email', subject: 'FYI', body: 'See attached.', metadata: { tags: ['Outage'] } });
    expect(tagged.category).toBe('incident');
    expect(tagged.reasons.map((r) => r.code)).toContain('TAG_TOPIC');
  });

  it('amount / deal_value raise sales priority, more for bigger deals', () => {
    const lead: Input = {
      source: 'email',
      body: 'Please send a quote for the enterprise plan.',
      sender: 'b@c.example',
    };
    const small = score(lead).score;
    const mid = score({ ...lead, metadata: { amount: 20000 } }).score;
    const big = score({ ...lead, metadata: { deal_value: '250,000' } }).score;
    expect(mid).toBeGreaterThan(small);
    expect(big).toBeGreaterThan(mid);
  });

  it('due_at: overdue > due within 24 h > within 3 days > later, relative to now', () => {
    const task = (due: string) => score({ source: 'task', subject: 'Prepare report', metadata: { due_at: due } });
    const overdue = task(hoursFromNow(-1));
    const soon = task(hoursFromNow(5));
    const days = task(hoursFromNow(60));
    const later = task(hoursFromNow(24 * 10));
    expect(overdue.reasons.map((r) => r.code)).toContain('DUE_OVERDUE');
    expect(soon.reasons.map((r) => r.code)).toContain('DUE_WITHIN_24H');
    expect(days.reasons.map((r) => r.code)).toContain('DUE_WITHIN_3_DAYS');
    expect(overdue.score).toBeGreaterThan(soon.score);
    expect(soon.score).toBeGreaterThan(days.score);
    expect(days.score).toBeGreaterThan(later.score);
    // The same task analysed two days later is overdue.
    const again = scoreSignal(
      signal({ source: 'task', subject: 'Prepare report', metadata: { due_at: hoursFromNow(5) } }),
      new Date(NOW.getTime() + 48 * 3_600_000),
    );
    expect(again.reasons.map((r) => r.code)).toContain('DUE_OVERDUE');
  });

  it('due_at accepts dates and offsets, ignores local times and junk', () => {
    expect(codes({ source: 'task', subject: 'x', metadata: { due_at: '2026-11-20' } })).toContain('DUE_OVERDUE');
    expect(codes({ source: 'task', subject: 'x', metadata: { due_at: '2026-11-21T12:00:00+03:00' } })).toContain(
      'DUE_OVERDUE',
    );
    expect(codes({ source: 'task', subject: 'x', metadata: { due_at: '2026-11-21T12:00:00Z' } })).toContain(
      'DUE_WITHIN_24H',
    );
    for (const due_at of ['2026-11-21T12:00:00', 'tomorrow', '1', 12345, { at: 'x' }, ['2026-11-20']] as JsonValue[]) {
      const c = codes({ source: 'task', subject: 'x', metadata: { due_at } });
      expect(c.filter((x) => x.startsWith('DUE_'))).toEqual([]);
    }
  });

  it('severity: sev1 > sev2 > warning > info, as words or numbers', () => {
    const s = (severity: JsonValue) =>
      score({ source: 'internal', subject: 'Queue depth alert on worker pool', metadata: { severity } }).score;
    expect(s('sev1')).toBeGreaterThan(s('sev2'));
    expect(s('sev2')).toBeGreaterThan(s('warning'));
    expect(s('warning')).toBeGreaterThan(s('info'));
    expect(s(1)).toBe(s('sev1'));
    expect(s('CRITICAL')).toBe(s('sev1'));
    expect(s(3)).toBe(s('warning'));
    expect(s(5)).toBe(s('info'));
  });

  it('metadata.severity beats severity words in the text', () => {
    const a = score({ source: 'internal', subject: 'SEV1 drill: ignore', metadata: { severity: 'info' } });
    expect(a.reasons.map((r) => r.code)).toContain('SEVERITY_LOW');
    expect(a.reasons.map((r) => r.code)).not.toContain('SEVERITY_CRITICAL');
  });

  it('ignores metadata of the wrong shape', () => {
    const weird = score({
      ...base,
      metadata: {
        customer_tier: 42,
        vip: 'maybe',
        tags: { a: 1 },
        due_at: null,
        amount: 'lots',
        severity: [1],
        vip_senders: 'nope',
      },
    });
    const plain = score(base);
    expect(weird.score).toBe(plain.score);
  });
});

describe('received_at', () => {
  const req: Input = { source: 'email', subject: 'Login', body: 'I cannot log in.', sender: 'a@b.example' };
  it('a signal that waited > 4 h or > 24 h is more pressing', () => {
    const fresh = score({ ...req, received_at: hoursFromNow(-1) });
    const fiveHours = score({ ...req, received_at: hoursFromNow(-5) });
    const twoDays = score({ ...req, received_at: hoursFromNow(-48) });
    expect(fiveHours.reasons.map((r) => r.code)).toContain('WAITING_OVER_4H');
    expect(twoDays.reasons.map((r) => r.code)).toContain('WAITING_OVER_24H');
    expect(fiveHours.score).toBeGreaterThan(fresh.score);
    expect(twoDays.score).toBeGreaterThan(fiveHours.score);
  });

  it('a future received_at is not more pressing', () => {
    const future = score({ ...req, received_at: hoursFromNow(20) });
    const fresh = score({ ...req, received_at: hoursFromNow(-1) });
    expect(future.score).toBe(fresh.score);
    expect(future.reasons.map((r) => r.code).filter((c) => c.startsWith('WAITING'))).toEqual([]);
  });

  it('waiting does not lift archive-type mail', () => {
    const a = score({
      source: 'email',
      subject: 'Newsletter',
      body: 'Read more. Unsubscribe',
      received_at: hoursFromNow(-72),
    });
    expect(a.recommended_action).toBe('archive');
  });
});

describe('languages', () => {
  it.each([
    ['Bitte dringend antworten.', 'URGENCY_LANGUAGE'],
    ['Bitte sofort prüfen.', 'URGENCY_LANGUAGE'],
    ['C’est urgent.', 'URGENCY_LANGUAGE'],
    ['Es urgente.', 'URGENCY_LANGUAGE'],
    ['Ausfall im Rechenzentrum.', 'OUTAGE_LANGUAGE'],
    ['Serveur en panne.', 'OUTAGE_LANGUAGE'],
    ['Hay una caída del servicio.', 'OUTAGE_LANGUAGE'],
    ['El servidor está caído.', 'OUTAGE_LANGUAGE'],
    ['Wir möchten kündigen.', 'CHURN_LANGUAGE'],
    ['Je veux résilier.', 'CHURN_LANGUAGE'],
    ['Quiero cancelar.', 'CHURN_LANGUAGE'],
  ])('recognizes "%s"', (body, code) => {
    expect(codes({ source: 'email', body })).toContain(code);
  });

  it('folds case and diacritics: KÜNDIGEN, kundigen, Re\u0301silier', () => {
    for (const w of ['KÜNDIGEN', 'kundigen', 'Re\u0301silier'])
      expect(codes({ source: 'email', body: w })).toContain('CHURN_LANGUAGE');
  });
});

describe('internal alert numbers', () => {
  it.each([
    ['disk 95% full', 'METRIC_CRITICAL'],
    ['Disk usage at 88% on db-1', 'METRIC_WARNING'],
    ['error rate 40%', 'METRIC_CRITICAL'],
    ['error rate is 3.5%', 'METRIC_WARNING'],
    ['p99 latency 4s', 'METRIC_CRITICAL'],
    ['p95 latency 1500ms', 'METRIC_WARNING'],
    ['CPU at 98%', 'METRIC_CRITICAL'],
    ['memory 91 percent', 'METRIC_WARNING'],
    ['95% disk used', 'METRIC_CRITICAL'],
  ])('%s', (text, code) => {
    expect(codes({ source: 'internal', subject: text })).toContain(code);
  });

  it.each(['disk 40% full', 'CPU at 12%', 'p99 latency 120ms', 'error rate 0.1%', 'disk 950% full', 'cpu 98 cores'])(
    '%s is no metric reason',
    (text) => {
      expect(codes({ source: 'internal', subject: text }).filter((c) => c.startsWith('METRIC'))).toEqual([]);
    },
  );
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

describe('tokenizer copies', () => {
  it('the narrow and wide copies of the loop give identical tokens', () => {
    const texts = [
      'Hello, World! It’s 42% — naïve Straße?',
      'plain ascii text. with: punctuation; and\nlines!!',
      'e\u0301te\u0301 déjà vu',
    ];
    for (const text of texts) {
      const a = new TokenBuffer();
      const b = new TokenBuffer();
      a.reset();
      b.reset();
      tokenizeWith('narrow', a, text, 1, 1000);
      tokenizeWith('wide', b, text, 1, 1000);
      expect(Array.from(a.h1.subarray(0, a.count))).toEqual(Array.from(b.h1.subarray(0, b.count)));
      expect(Array.from(a.clause.subarray(0, a.count))).toEqual(Array.from(b.clause.subarray(0, b.count)));
    }
  });
});

describe('docs/decision-engine.md', () => {
  it('documents every reason code', () => {
    const doc = readFileSync(path.resolve(__dirname, '../../docs/decision-engine.md'), 'utf8');
    for (const code of Object.keys(REASON_CODES)) expect(doc).toContain(`\`${code}\``);
  });
});
