// The decision engine on hand-written signals (none taken from the evaluation data sets): what the sender, the
// metadata hints and received_at add to the score.
import type { JsonValue } from '../../lambdas/domain/signal';
import { scoreSignal } from '../../lambdas/domain/engine';
import { NOW, codes, hoursFromNow, score, signal, type Input } from '../support/scorer-signals';

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

  it('reads the first entries of vip_senders and tags given as one long comma-separated string', () => {
    // 200 addresses are about 6,000 characters, well inside metadata's 16 KiB: such a string was dropped whole.
    const others = Array.from({ length: 199 }, (_, i) => `person${i}@client${i}.example`);
    const vip = codes({
      source: 'email',
      body: 'Can we talk tomorrow?',
      sender: 'ceo@bigclient.example',
      metadata: { vip_senders: ['ceo@bigclient.example', ...others].join(',') },
    });
    expect(vip).toContain('VIP_SENDER');
    const tags = codes({
      source: 'email',
      body: 'Can we talk tomorrow?',
      metadata: { tags: ['urgent', ...others.map((o) => `tag-${o.slice(0, 12)}`)].join(',') },
    });
    expect(tags).toContain('TAG_URGENT');
  });

  it('an address written as the display name is no VIP: only the one in brackets is the sender', () => {
    for (const sender of [
      'ceo@bigclient.example <>',
      'ceo@bigclient.example <x@evil.example>',
      'ceo@bigclient.example <x',
    ]) {
      const reasons = codes({
        source: 'email',
        body: 'Can we talk tomorrow?',
        sender,
        metadata: { vip_senders: ['ceo@bigclient.example'] },
      });
      expect(reasons).not.toContain('VIP_SENDER');
    }
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

  it("tags: the topic tag is chosen the same whatever the tags' order, a problem topic first", () => {
    const tagged = (tags: string[]) =>
      score({ source: 'email', subject: 'Hello there', body: 'See attached.', metadata: { tags } });
    for (const tags of [
      ['security', 'spam'],
      ['bug', 'newsletter'],
      ['notification', 'sales'],
      ['task', 'spam', 'billing'],
    ]) {
      const answers = [tags, [...tags].reverse()].map(tagged);
      expect(answers[1]).toEqual(answers[0]);
    }
    // A problem topic beside spam is not archived on the tag.
    expect(tagged(['spam', 'security'])).toMatchObject({ category: 'security' });
    expect(tagged(['security', 'spam']).recommended_action).not.toBe('archive');
    // Without a problem topic the larger weight wins: spam (-20) over sales (+15).
    expect(tagged(['sales', 'spam']).category).toBe(tagged(['spam', 'sales']).category);
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
    // Dates that do not exist are ignored, as received_at refuses them (Date.parse rolled 2026-02-30 over to March).
    const impossible = [
      '2026-02-30',
      '2026-06-31',
      '2026-02-31T10:00:00Z',
      '2026-11-20T24:00:00Z',
      '2026-11-20T10:60Z',
    ];
    for (const due_at of [
      '2026-11-21T12:00:00',
      'tomorrow',
      '1',
      12345,
      { at: 'x' },
      ['2026-11-20'],
      ...impossible,
    ] as JsonValue[]) {
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

  it("reads a tracker's metadata.priority as the author's severity when there is no severity", () => {
    const ticket: Input = { source: 'task', subject: 'App crashes on startup after the update' };
    const blocker = score({ ...ticket, metadata: { priority: 'Blocker' } });
    expect(blocker.reasons).toContainEqual(
      expect.objectContaining({ code: 'SEVERITY_CRITICAL', message: 'metadata.priority is blocker' }),
    );
    // A blocker ranks at least as high as the ticket without a label: the author's word replaces the model's reading.
    expect(blocker.score).toBeGreaterThanOrEqual(score(ticket).score);
    expect(score({ ...ticket, metadata: { priority: 'P4' } }).reasons.map((r) => r.code)).toContain('SEVERITY_LOW');
    // metadata.severity wins over metadata.priority.
    const both = score({ ...ticket, metadata: { severity: 'info', priority: 'blocker' } });
    expect(both.reasons.map((r) => r.code)).toContain('SEVERITY_LOW');
  });

  it('leaves the ranking to the engine when metadata.severity or priority names no severity', () => {
    const alert: Input = { source: 'internal', subject: 'KubeNodeNotReady: node worker-3 has been unready for 15m' };
    const plain = score(alert);
    for (const label of [null, 'bogus', 42, {}, true, '', 'Normal'] as JsonValue[]) {
      expect(score({ ...alert, metadata: { severity: label } })).toEqual(plain);
      expect(score({ ...alert, metadata: { priority: label } })).toEqual(plain);
    }
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

  it("an alert analyzed later changes only in the reasons that measure time, not in the severity model's", () => {
    const alert: Input = {
      source: 'internal',
      subject: 'HostHighCpuLoad',
      body: 'CPU load is above 85% on node-3 for 10 minutes',
    };
    const untimed = (hours: number) =>
      score({ ...alert, received_at: hoursFromNow(-hours) })
        .reasons.filter((r) => !/^(WAITING|DUE)_/.test(r.code))
        .map((r) => [r.code, r.weight]);
    expect(untimed(1)).toContainEqual(['SEVERITY_MODEL', expect.any(Number)]);
    expect(untimed(5)).toEqual(untimed(1));
    expect(untimed(25)).toEqual(untimed(1));
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
