// Throughput figures (printed, not asserted).
//   npm run bench                    table with the goal beside each figure
//   npm run --silent bench -- --json   exactly one JSON object on stdout
// Sections are plain functions returning named figures; main() collects them. To add a section,
// write another bench function, call it in main(), and give its figures a row in GOALS.
import { scoreSignal } from '../lambdas/domain/scorer';
import type { Signal } from '../lambdas/domain/signal';

type Figures = Record<string, number>;

/** Goal text shown beside each figure in the table. */
const GOALS: Record<string, string> = {
  scorer_signals_per_second: '>= 50,000 /s',
  scorer_avg_body_chars: '~2,000',
  machine_char_loop_ns_per_char: 'reference: a bare charCodeAt loop on this machine',
};

// ---- synthetic e-mails (deterministic; no data-set text) ----------------------------------------

function mulberry32(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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

function makeEmails(count: number, targetChars: number, seed: number): Signal[] {
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

// ---- sections -----------------------------------------------------------------------------------

function benchScorer(): { scorer_signals_per_second: number; scorer_avg_body_chars: number; machine_char_loop_ns_per_char: number } {
  const emails = makeEmails(2_000, 2_000, 42);
  const now = new Date('2026-11-21T10:00:00Z');
  let sink = 0;
  // Warm up the JIT, then time whole passes for at least 2 s.
  for (let r = 0; r < 3; r++) for (const e of emails) sink += scoreSignal(e, now).score;
  let scored = 0;
  const start = process.hrtime.bigint();
  let elapsed = 0;
  while (elapsed < 2) {
    for (const e of emails) sink += scoreSignal(e, now).score;
    scored += emails.length;
    elapsed = Number(process.hrtime.bigint() - start) / 1e9;
  }
  // Machine speed reference: the cheapest possible pass over the same characters. The scorer's
  // tokenizer costs a small multiple of it, so this puts the figure above in context.
  let chars = 0;
  const loopStart = process.hrtime.bigint();
  for (let r = 0; r < 20; r++) {
    for (const e of emails) {
      const body = e.body ?? '';
      for (let i = 0; i < body.length; i++) sink = (sink + body.charCodeAt(i)) | 0;
      chars += body.length;
    }
  }
  const loopNs = Number(process.hrtime.bigint() - loopStart) / chars;
  if (sink === 0.5) console.error(sink); // keeps the work observable
  const avgChars = emails.reduce((s, e) => s + (e.body?.length ?? 0), 0) / emails.length;
  return {
    scorer_signals_per_second: Math.round(scored / elapsed),
    scorer_avg_body_chars: Math.round(avgChars),
    machine_char_loop_ns_per_char: Math.round(loopNs * 100) / 100,
  };
}

// ---- output -------------------------------------------------------------------------------------

function printTable(results: Figures): void {
  const rows = Object.entries(results).map(([k, v]) => [k, v.toLocaleString('en-US'), GOALS[k] ?? '']);
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i].length), ['figure', 'value', 'goal'][i].length));
  const line = (r: string[]) => console.log(`${r[0].padEnd(widths[0])}  ${r[1].padStart(widths[1])}  ${r[2]}`);
  line(['figure', 'value', 'goal']);
  line(widths.map((w) => '-'.repeat(w)));
  rows.forEach(line);
}

function main(): void {
  const json = process.argv.includes('--json');
  const results: Figures = {};
  Object.assign(results, benchScorer());
  if (json) process.stdout.write(JSON.stringify(results) + '\n');
  else printTable(results);
}

main();
