// Properties of the decision engine that must hold for any input.
import fc from 'fast-check';
import { ACTIONS, CATEGORIES, QUEUES, priorityForScore, type Assessment } from '../../lambdas/domain/decision';
import { SOURCES, type JsonValue, type Signal } from '../../lambdas/domain/signal';
import { ARCHIVE_CATEGORIES, BASE_SCORE, MODEL_VERSION, REASON_CODES, scoreSignal } from '../../lambdas/domain/engine';

const RUNS = { numRuns: 300 };

// Words that trigger reasons, so generated texts often carry many reasons at once (and clamp).
const WORDS = [
  'outage',
  'down',
  'site',
  'server',
  'is',
  'not',
  'no',
  'urgent',
  'asap',
  'ASAP',
  'URGENT',
  'dringend',
  'sofort',
  'panne',
  'caída',
  'Ausfall',
  'breach',
  'phishing',
  'leaked',
  'credentials',
  'lawsuit',
  'lawyer',
  'GDPR',
  'subpoena',
  'refund',
  'cancel',
  'my',
  'subscription',
  'kündigen',
  'résilier',
  'cancelar',
  'pricing',
  'quote',
  'demo',
  'seats',
  'invoice',
  'charged',
  'twice',
  'card',
  'declined',
  'help',
  'error',
  'broken',
  "isn't",
  'working',
  'thanks',
  'that',
  'fixed',
  'it',
  'unsubscribe',
  'newsletter',
  'out',
  'of',
  'office',
  'automatic',
  'reply',
  'you',
  'have',
  'won',
  'prize',
  'lottery',
  'disk',
  'cpu',
  '95%',
  'at',
  '98%',
  'p99',
  'latency',
  '4s',
  'error rate',
  '40%',
  'sev1',
  'resolved',
  'still',
  'again',
  'rush',
  'whenever',
  'unacceptable',
  'birthday',
  'dinner',
  'deadline',
  'today',
  '!!!',
  '.',
  ',',
  '?',
  '\n',
  'all',
  'users',
  'production',
  'everyone',
  'call',
  'me',
  'back',
  '09061701461',
  '£1000',
  'free',
  'entry',
  'txt',
  'WIN',
  'claim',
];

const wordy = fc.array(fc.constantFrom(...WORDS), { maxLength: 60 }).map((ws) => ws.join(' '));
const anyText = fc.oneof(
  wordy,
  fc.string({ maxLength: 300 }),
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.constant(''),
);
const timestamp = fc.oneof(
  fc
    .date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-01-01T00:00:00Z'), noInvalidDate: true })
    .map((d) => d.toISOString()),
  fc.string({ maxLength: 40 }),
  fc.constantFrom('2026-11-21', '2026-11-21T10:00:00+02:00', '2026-11-21T10:00:00', 'not a date', ''),
);
const hintedMetadata = fc.record(
  {
    customer_tier: fc.oneof(
      fc.constantFrom('enterprise', 'pro', 'business', 'free', 'trial', 'Enterprise', ''),
      fc.jsonValue(),
    ),
    vip: fc.oneof(fc.boolean(), fc.jsonValue()),
    vip_senders: fc.oneof(fc.array(fc.constantFrom('a@b.example', '@b.example', 'b.example', 'x')), fc.jsonValue()),
    tags: fc.oneof(
      fc.array(fc.constantFrom('urgent', 'outage', 'billing', 'newsletter', 'spam', 'vip', 'p1', 'sales')),
      fc.jsonValue(),
    ),
    due_at: timestamp,
    amount: fc.oneof(fc.double(), fc.integer(), fc.constantFrom('25,000', '1e9', 'lots'), fc.jsonValue()),
    deal_value: fc.oneof(fc.integer({ min: 0, max: 10_000_000 }), fc.jsonValue()),
    severity: fc.oneof(
      fc.constantFrom('sev1', 'sev2', 'critical', 'high', 'warning', 'info', 'SEV-1', 1, 2, 3, 4, 5, 0, 7, 2.5),
      fc.jsonValue(),
    ),
    event_type: fc.oneof(
      fc.constantFrom('opportunity_created', 'subscription_cancelled', 'invoice.payment_failed'),
      fc.jsonValue(),
    ),
  },
  { requiredKeys: [] },
);
const metadata = fc.oneof(
  hintedMetadata as fc.Arbitrary<{ [key: string]: JsonValue }>,
  fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 4 }), { maxKeys: 8 }),
  fc.constant(undefined),
);

const signalArb: fc.Arbitrary<Signal> = fc.record(
  {
    workspace_id: fc.constant('ws_prop'),
    source: fc.constantFrom(...SOURCES),
    subject: anyText,
    body: anyText,
    sender: fc.oneof(
      fc.constantFrom(
        'a@b.example',
        'noreply@x.example',
        'Ann <ann@gmail.com>',
        'newsletter@shop.example',
        'MAILER-DAEMON@x',
      ),
      fc.string({ maxLength: 60 }),
    ),
    received_at: timestamp,
    metadata,
  },
  { requiredKeys: ['workspace_id', 'source', 'received_at'] },
) as fc.Arbitrary<Signal>;

const nowArb = fc.oneof(
  fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-01-01T00:00:00Z'), noInvalidDate: true }),
  fc.constant(new Date('2026-11-21T10:00:00Z')),
  fc.constant(new Date(Number.NaN)),
);

function checkShape(a: Assessment) {
  expect(Number.isInteger(a.score)).toBe(true);
  expect(a.score).toBeGreaterThanOrEqual(0);
  expect(a.score).toBeLessThanOrEqual(100);
  expect(a.priority).toBe(priorityForScore(a.score));
  expect(ACTIONS).toContain(a.recommended_action);
  expect(CATEGORIES).toContain(a.category);
  expect(QUEUES).toContain(a.queue);
  expect(a.model_version).toBe(MODEL_VERSION);
  if (a.recommended_action === 'archive') {
    expect(ARCHIVE_CATEGORIES.has(a.category)).toBe(true);
    expect(a.priority).toBe('low');
  }
}

describe('scoreSignal properties', () => {
  it('score is an integer in 0..100 and the priority matches its band', () => {
    fc.assert(
      fc.property(signalArb, nowArb, (signal, now) => {
        checkShape(scoreSignal(signal, now));
      }),
      RUNS,
    );
  });

  it('reasons: stable UPPER_SNAKE catalogued codes, non-zero integer weights in range, unique, ordered', () => {
    fc.assert(
      fc.property(signalArb, nowArb, (signal, now) => {
        const { reasons } = scoreSignal(signal, now);
        const seen = new Set<string>();
        reasons.forEach((r, i) => {
          expect(r.code).toMatch(/^[A-Z][A-Z0-9_]*$/);
          const info = REASON_CODES[r.code as keyof typeof REASON_CODES];
          expect(info).toBeDefined();
          expect(Number.isInteger(r.weight)).toBe(true);
          expect(r.weight).not.toBe(0);
          expect(r.weight).toBeGreaterThanOrEqual(info.min);
          expect(r.weight).toBeLessThanOrEqual(info.max);
          expect(typeof r.message).toBe('string');
          expect(r.message.length).toBeGreaterThan(0);
          expect(seen.has(r.code)).toBe(false);
          seen.add(r.code);
          if (i > 0) {
            const p = reasons[i - 1];
            const ordered =
              Math.abs(p.weight) > Math.abs(r.weight) || (Math.abs(p.weight) === Math.abs(r.weight) && p.code < r.code);
            expect(ordered).toBe(true);
          }
        });
      }),
      RUNS,
    );
  });

  it('every point comes from a reason: weights sum to score - BASE_SCORE unless clamped', () => {
    let clampedLow = 0;
    let clampedHigh = 0;
    fc.assert(
      fc.property(signalArb, nowArb, (signal, now) => {
        const a = scoreSignal(signal, now);
        const raw = BASE_SCORE + a.reasons.reduce((s, r) => s + r.weight, 0);
        if (raw < 0) {
          clampedLow++;
          expect(a.score).toBe(0);
        } else if (raw > 100) {
          clampedHigh++;
          expect(a.score).toBe(100);
        } else {
          expect(a.score).toBe(raw);
        }
      }),
      RUNS,
    );
    // The generators reach both clamps, so the branches above are exercised.
    expect(clampedLow + clampedHigh).toBeGreaterThan(0);
  });

  it('never throws, whatever the strings and whatever the metadata (even non-JSON values)', () => {
    const wild = fc.record({
      workspace_id: fc.string(),
      source: fc.oneof(fc.constantFrom(...SOURCES), fc.string()),
      subject: fc.oneof(fc.string({ unit: 'binary', maxLength: 500 }), fc.anything()),
      body: fc.oneof(fc.string({ unit: 'binary', maxLength: 2000 }), fc.anything()),
      sender: fc.oneof(fc.string({ unit: 'binary' }), fc.anything()),
      received_at: fc.oneof(fc.string(), fc.anything()),
      metadata: fc.anything({
        maxDepth: 5,
        withNullPrototype: true,
        withMap: true,
        withSet: true,
        withBigInt: true,
        withDate: true,
      }),
    });
    fc.assert(
      fc.property(wild, nowArb, (signal, now) => {
        checkShape(scoreSignal(signal as unknown as Signal, now));
      }),
      RUNS,
    );
  });

  it('is deterministic: the same input (or a deep copy of it) gives the same assessment', () => {
    fc.assert(
      fc.property(signalArb, nowArb, signalArb, (signal, now, other) => {
        const first = scoreSignal(signal, now);
        scoreSignal(other, now); // nothing leaks from one call into the next
        const copy = structuredClone(signal);
        expect(scoreSignal(copy, new Date(now.getTime()))).toEqual(first);
      }),
      RUNS,
    );
  });

  it('never archives a stated outage, breach, legal threat or failed payment from a person, whatever bulk wording surrounds it', () => {
    // Everything but closure words ("that fixed it", "working again" legitimately turns a problem into feedback) and spam or bulk
    // markers: against those the problem is weighed, not given a veto (test/unit/engine-bulk.test.ts).
    const excluded = [
      'thanks',
      'that',
      'fixed',
      'it',
      'resolved',
      'working',
      'automatic',
      'office',
      'you',
      'have',
      'won',
      'prize',
      'lottery',
      'WIN',
      'claim',
      'free',
      'entry',
      'txt',
      '09061701461',
      '£1000',
      'unsubscribe',
      'newsletter',
    ];
    const noise = fc
      .array(fc.constantFrom(...WORDS.filter((w) => !excluded.includes(w))), { maxLength: 60 })
      .map((ws) => ws.join(' '));
    const problem = fc.constantFrom(
      'Our website is down.',
      'We found a data breach.',
      'Our lawyers will file a lawsuit.',
      'My card was declined.',
      'I want to cancel my subscription.',
    );
    // A person's address (or none): bulk wording alone (a subject and a footer) does not outweigh the problem.
    const sender = fc.constantFrom('a@gmail.com', 'ops@customer.example', undefined);
    fc.assert(
      fc.property(
        noise,
        problem,
        noise,
        sender,
        fc.constantFrom('email', 'support_message', 'crm_event', 'task') as fc.Arbitrary<Signal['source']>,
        (before, stated, after, from, source) => {
          const a = scoreSignal(
            {
              workspace_id: 'ws',
              source,
              subject: 'Unsubscribe',
              body: `${before}\n${stated}\n${after}\nUnsubscribe | View in browser`,
              sender: from,
              received_at: '2026-11-21T10:00:00Z',
            },
            new Date('2026-11-21T10:00:00Z'),
          );
          expect(a.recommended_action).not.toBe('archive');
        },
      ),
      RUNS,
    );
  });

  it('reason messages never echo body text beyond a lexicon keyword', () => {
    const marker = fc.stringMatching(/^zq[a-z]{6}$/);
    fc.assert(
      fc.property(wordy, marker, wordy, fc.constantFrom(...SOURCES), (before, mark, after, source) => {
        const a = scoreSignal(
          {
            workspace_id: 'ws',
            source,
            subject: mark,
            body: `${before} ${mark} ${after}`,
            received_at: '2026-11-21T10:00:00Z',
          },
          new Date('2026-11-21T10:00:00Z'),
        );
        for (const r of a.reasons) expect(r.message.toLowerCase()).not.toContain(mark);
      }),
      RUNS,
    );
  });
});
