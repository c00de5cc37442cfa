// Synthetic e-mails for the bench: deterministic from a seed, and made of invented text only (no data-set text).
import type { Signal } from '../../lambdas/domain/signal';
import { mulberry32 } from '../seeded-random';
import { benchData } from './common';

/** Filler words, and whole sentences the scorer reacts to (outages, billing, cancellation, spam, other languages). */
const TEXT = benchData<{ filler: string; sentences: string[] }>('emails.json');
const FILLER = TEXT.filler.split(' ');
const SENTENCES = TEXT.sentences;

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
