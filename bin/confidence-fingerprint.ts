// What confidence-model.json's logistic was fitted on, in one short digest: the facts of the decision (the confidence
// model's inputs) the engine gives a fixed set of signals written here (no corpus text). The trainer's rows are the
// engine's decisions on the development data, so a change that moves these facts (a spam or severity model refitted, a
// rule or a cut moved) moves the rows too and the file no longer comes out of bin/train-confidence.ts as checked in;
// test/unit/confidence-model-fitted.test.ts fails until the model is refitted (docs/decision-engine-confidence.md,
// "Confidence: reproducing the model"). Cheap enough for `npm test`: the full refit is not.
import { createHash } from 'node:crypto';
import { lastConfidenceInput, scoreSignal } from '../lambdas/domain/engine';
import type { Signal } from '../lambdas/domain/signal';

const NOW = new Date('2026-03-02T10:00:00Z');
const AT = '2026-03-02T09:58:00Z';
type Probe = Omit<Signal, 'workspace_id' | 'received_at'>;

/**
 * Each kind of row the trainer reads (e-mail, web form and SMS, a ticket and an alert without their author's label;
 * nothing it does not read, so a change there is no false alarm): the spam model's vote and doubt, an archive, a
 * hold-back, the rules' and the severity models' points.
 */
const PROBES: readonly Probe[] = [
  {
    source: 'email',
    subject: 'Production outage',
    body: 'Our checkout is down for all customers since 09:10. Every payment fails with error 500.',
  },
  {
    source: 'email',
    subject: 'You have WON a FREE prize!!!',
    body: 'Congratulations! You have been selected to receive a $1000 gift card. Click here to claim your prize now. Limited time offer, act now! Unsubscribe here.',
    sender: 'winner@promo-deals.example',
  },
  { source: 'email', body: 'quick question' },
  { source: 'email', body: 'ok thanks' },
  {
    source: 'email',
    subject: 'Minutes of Tuesday meeting',
    body: 'Hi all, attached are the minutes from Tuesday. Please send me your comments on the budget section by Friday so I can circulate a final version next week. Thanks, Dana',
  },
  {
    source: 'email',
    subject: 'Our spring newsletter',
    body: 'This month in the newsletter: new features, customer stories and upcoming webinars. Read more on our blog. You receive this mail because you subscribed. Unsubscribe or manage your preferences here.',
    sender: 'news@vendor.example',
  },
  {
    source: 'email',
    subject: 'Re: invoice 4471',
    body: 'Could you please check why we were charged twice for invoice 4471? I need a refund of the second charge before the end of the month.',
  },
  {
    source: 'support_message',
    body: 'Cheap meds online, no prescription needed!!! Best prices guaranteed, visit www.pills-deal.example now and get 80% off your first order.',
  },
  {
    source: 'support_message',
    body: 'I cannot log in since this morning, the app says my password is wrong but I reset it twice. Can you help?',
  },
  { source: 'support_message', body: 'FREE entry to win a brand new phone! Text WIN to 80085 now. T&C apply.' },
  // Short support messages whose spam vote sits between the short-message cut and the long one, and below it beside
  // spam wording: they archive or not by those cuts alone.
  { source: 'support_message', body: 'Dear customer your account has a bonus waiting, call us free now to claim it' },
  {
    source: 'support_message',
    body: 'Congratulations you have been chosen for a cash reward. Call now to claim before midnight.',
  },
  {
    source: 'task',
    subject: 'App crashes on launch after upgrade',
    body: 'Since the last release the app crashes on every launch with a null pointer exception; all users are blocked.',
  },
  {
    source: 'task',
    subject: 'Typo in the settings page',
    body: 'The label on the settings page says "Colour" in one place and "Color" in another. Cosmetic only.',
  },
  {
    source: 'internal',
    subject: 'DatabaseDown',
    body: 'The primary database on <instance> has not answered for 5 minutes; writes are failing.',
  },
  {
    source: 'internal',
    subject: 'DiskSpaceLow',
    body: 'Disk usage on <instance> is above 80% for the last hour.',
  },
];

const r4 = (x: number) => Math.round(x * 1e4) / 1e4;

/** The digest of the confidence inputs the engine, with its shipped models, gives the probes today. */
export function decisionFingerprint(): string {
  const h = createHash('sha256');
  for (const p of PROBES) {
    scoreSignal({ workspace_id: 'ws_fingerprint', received_at: AT, ...p }, NOW);
    const c = lastConfidenceInput();
    h.update(
      JSON.stringify([
        c.source,
        c.category,
        c.archived,
        r4(c.best),
        r4(c.second),
        c.spamProbability === null ? null : r4(c.spamProbability),
        c.modelDoubted === true,
        r4(c.score),
        c.heldBack === true,
        c.reasons.map((r) => [r.code, r4(r.weight)]),
        c.words,
        c.authorSeverity === true,
      ]),
    );
  }
  return h.digest('hex').slice(0, 16);
}
