// Synthetic e-mails for the bench: deterministic from a seed, and made of invented text only (no data-set text).
import type { Signal } from '../../lambdas/domain/signal';
import { mulberry32 } from '../seeded-random';

const FILLER = (
  'we the our your team project update meeting schedule review report quarter budget plan customer account ' +
  'please thanks regards attached document version draft change request timeline next week monday friday ' +
  'proposal contract partner service product feature release integration data export dashboard access user ' +
  'question answer follow call notes agenda item status progress risk owner deadline approval sign invoice ' +
  'support ticket order delivery shipment office travel lunch conference room available tomorrow morning'
).split(' ');

const SENTENCES = [
  'Our production site is down for all customers since this morning.',
  'I cannot log in to the dashboard, it keeps showing an error message.',
  'We were charged twice for the same invoice this month.',
  'We want to cancel our subscription at the end of the term.',
  'Could you send us a quote for 200 seats of the enterprise plan?',
  'Our lawyer will be in touch regarding the breach of contract.',
  'We found leaked credentials in a public repository.',
  'Thanks, that fixed it, you can close this ticket.',
  'This is not urgent, whenever you have time.',
  'URGENT: please respond ASAP!!',
  'To unsubscribe from this newsletter, click here. View in browser.',
  'I am currently out of the office with limited access to email.',
  'Die Seite ist nicht erreichbar, bitte dringend prüfen.',
  'Nous voulons résilier notre contrat.',
];

export function makeEmails(count: number, targetChars: number, seed: number): Signal[] {
  const rnd = mulberry32(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  const out: Signal[] = [];
  for (let n = 0; n < count; n++) {
    const parts: string[] = [];
    let length = 0;
    while (length < targetChars) {
      let sentence: string;
      if (rnd() < 0.08) sentence = pick(SENTENCES);
      else {
        const words: string[] = [];
        const len = 6 + Math.floor(rnd() * 14);
        for (let w = 0; w < len; w++) words.push(pick(FILLER));
        words[0] = words[0][0].toUpperCase() + words[0].slice(1);
        sentence = `${words.join(' ')}${rnd() < 0.15 ? '?' : '.'}`;
      }
      parts.push(sentence);
      length += sentence.length + 1;
      if (rnd() < 0.12) {
        parts.push('\n\n');
        length += 2;
      }
    }
    out.push({
      workspace_id: 'ws_bench',
      source: 'email',
      subject: `Re: ${pick(FILLER)} ${pick(FILLER)} ${n}`,
      body: parts.join(' '),
      sender: `person${n % 97}@${rnd() < 0.3 ? 'gmail.com' : 'example-corp.com'}`,
      received_at: '2026-11-21T08:00:00Z',
      metadata: n % 3 === 0 ? { customer_tier: pick(['enterprise', 'pro', 'free']), tags: ['billing'] } : {},
    });
  }
  return out;
}
