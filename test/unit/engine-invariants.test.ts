// The global engine's invariants (lambdas/domain/engine/invariants.ts; issue 22, item 1), as properties over
// generated signals built from spam, bulk, alarm and request wording, and over realistic hand-written ones. The
// same invariants are counted on the real held-out corpora by `npm run eval` (no corpus text lives in tests).
import fc from 'fast-check';
import type { Assessment } from '../../lambdas/domain/decision';
import type { Signal, Source } from '../../lambdas/domain/signal';
import { scoreSignal } from '../../lambdas/domain/engine';

const RUNS = { numRuns: 400 };
const NOW = new Date('2026-11-21T10:00:00Z');

const SPAMMY = [
  'you have won',
  'claim your prize',
  'lottery',
  'FREE',
  'WIN',
  'click here',
  'unsubscribe',
  'newsletter',
  'limited offer',
  'act now',
  '£1000',
  '$5,000',
  'txt',
  'call 09061701461',
  'viagra',
  'cheap',
  'http://win.example',
  'winner',
  '!!!',
  'no-reply',
  'weekly digest',
  'special promotion',
  'buy now',
  'cash',
  'guaranteed',
  'risk free',
  'URGENT',
  'bonus',
];
const ALARM = [
  'urgent',
  'ASAP',
  'down',
  'outage',
  'breach',
  'hacked',
  'lawsuit',
  'critical',
  'security',
  'error',
  'crash',
];
const FILLER = [
  'the',
  'a',
  'and',
  'today',
  'account',
  'payment',
  'service',
  'team',
  'please',
  '.',
  ',',
  '\n',
  'now',
  'update',
];
const SERIOUS = [
  'our production site is down for all customers',
  'someone broke into my account and changed the password, this is a security incident',
  'we lost all data in the database after the migration',
  'we will take legal action and sue you',
  'blocker: the app crashes on start for every user',
  'the API is unreachable, total outage',
  'unser System ist ausgefallen, kompletter Ausfall',
];
const ASKING = [
  'how do I reset my card pin?',
  'I still have not received my new card',
  'why was I charged twice?',
  'can you help me verify my top up',
  'where is my refund?',
  'I need to change my address',
];

const words = (list: readonly string[]) =>
  fc.array(fc.constantFrom(...list, ...FILLER), { maxLength: 80 }).map((ws) => ws.join(' '));
const mixed = fc.oneof(words(SPAMMY), words([...SPAMMY, ...ALARM]), words(ALARM), fc.string({ maxLength: 200 }));
const sender = fc.constantFrom(
  'winner@promo.example',
  'noreply@shop.example',
  'newsletter@news.example',
  'Ann <ann@gmail.com>',
  undefined,
);

function signalOf(source: Source, subject: string, body: string, from?: string): Signal {
  const s: Signal = { workspace_id: 'ws_inv', source, received_at: '2026-11-21T09:59:00Z', subject, body };
  if (from !== undefined) s.sender = from;
  return s;
}
const score = (s: Signal): Assessment => scoreSignal(s, NOW);

/** Runs `check` on the assessment of every generated signal: one of `sources`, with a subject, body and sender drawn. */
function forEverySignal(
  sources: Source[],
  subject: fc.Arbitrary<string>,
  body: fc.Arbitrary<string>,
  from: fc.Arbitrary<string | undefined>,
  check: (a: Assessment, source: Source) => void,
): void {
  fc.assert(
    fc.property(fc.constantFrom(...sources), subject, body, from, (source, s, b, f) =>
      check(score(signalOf(source, s, b, f)), source),
    ),
    RUNS,
  );
}
const spamBeyondDoubt = (a: Assessment) => a.reasons.some((r) => r.code === 'SPAM_MODEL' && r.weight <= -60);

describe('invariant: archive only from a channel where no-human mail exists', () => {
  it('never archives a task, and never calls a task, internal or crm_event signal spam', () => {
    forEverySignal(['task', 'internal', 'crm_event'], mixed, mixed, sender, (a, source) => {
      expect(a.category).not.toBe('spam');
      expect(a.reasons.map((r) => r.code)).not.toContain('SPAM_MODEL');
      if (source === 'task') expect(a.recommended_action).not.toBe('archive');
    });
  });

  it('archives a support message as spam only on confident model evidence or spam wording', () => {
    fc.assert(
      fc.property(mixed, mixed, (subject, body) => {
        const a = score(signalOf('support_message', subject, body));
        if (a.recommended_action === 'archive' && a.category === 'spam')
          expect(
            a.reasons.some((r) => (r.code === 'SPAM_MODEL' && r.weight <= -60) || r.code === 'SPAM_LANGUAGE'),
          ).toBe(true);
      }),
      RUNS,
    );
  });
});

describe('invariant: a person asking for something is never archived', () => {
  it('keeps every question or first-person request, whatever bulk wording surrounds it', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<Source>('email', 'support_message'),
        fc.constantFrom(...ASKING),
        words(SPAMMY),
        fc.boolean(),
        sender,
        (source, ask, around, first, from) => {
          const a = score(signalOf(source, '', first ? `${ask} ${around}` : `${around}\n${ask}`, from));
          if (!spamBeyondDoubt(a)) expect(a.recommended_action).not.toBe('archive');
        },
      ),
      RUNS,
    );
  });
});

describe('invariant: a stated serious problem is never archived', () => {
  it('keeps outages, security incidents, data loss, legal threats and blockers from every channel', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<Source>('email', 'support_message', 'task', 'internal', 'crm_event'),
        fc.constantFrom(...SERIOUS),
        words(SPAMMY),
        sender,
        (source, problem, around, from) => {
          // A defect's severity is ticket vocabulary: read in tasks and support messages ("crash" in mail is often a market's).
          fc.pre(!problem.startsWith('blocker') || source === 'task' || source === 'support_message');
          const a = score(signalOf(source, '', `${around}. ${problem}. ${around}`, from));
          if (!spamBeyondDoubt(a)) expect(a.recommended_action).not.toBe('archive');
        },
      ),
      RUNS,
    );
  });

  it('keeps a plainly written security incident sent as a support message', () => {
    const a = score(
      signalOf(
        'support_message',
        'Account compromised',
        'Someone logged into my account from another country last night and changed my password and e-mail. I did not do this. Please lock the account.',
      ),
    );
    expect(a.recommended_action).not.toBe('archive');
    expect(a.category).toBe('security');
  });
});

describe('invariant: spam and bulk mail are never escalated', () => {
  it('holds anything with spam or bulk evidence below critical', () => {
    forEverySignal(['email', 'support_message'], mixed, words([...SPAMMY, ...ALARM, ...ALARM]), sender, (a) => {
      const bulk =
        a.category === 'spam' ||
        a.category === 'newsletter' ||
        a.reasons.some((r) =>
          ['SPAM_MODEL', 'SPAM_LANGUAGE', 'NEWSLETTER_LANGUAGE', 'BULK_SENDER', 'BULK_OUTWEIGHS_ALARM'].includes(
            r.code,
          ),
        );
      if (bulk) {
        expect(a.recommended_action).not.toBe('escalate');
        expect(a.priority).not.toBe('critical');
      }
    });
  });

  it('holds mail from a bulk-mail sender below critical, whatever alarm it reports', () => {
    const bulkSender = fc.constantFrom(
      'newsletter@shop.example',
      'Deals <marketing@store.example>',
      'Weekly <info-7@newsletter.online.example>',
      'x.1@news.paper.example',
    );
    const alarm = fc.tuple(fc.constantFrom(...SERIOUS), words(ALARM)).map(([a, b]) => `${a}. ${b}`);
    forEverySignal(['email', 'support_message'], alarm, alarm, bulkSender, (a) => {
      expect(a.recommended_action).not.toBe('escalate');
      expect(a.priority).not.toBe('critical');
    });
  });
});
