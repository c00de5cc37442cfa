// `--digest`: is an optimization free of behaviour changes?
import { createHash } from 'node:crypto';
import { scoreSignal } from '../../lambdas/domain/engine';
import type { Signal } from '../../lambdas/domain/signal';
import { mulberry32 } from '../seeded-random';
import { benchData, readDataFile } from './common';
import { makeEmails } from './emails';

/**
 * One SHA-256 over the scorer's decisions on a fixed set of inputs: generated e-mails through every source, random
 * text over a hostile alphabet (every tokenizer path: folds, combining marks, surrogates, apostrophes, currency,
 * line breaks, texts past the scan and token limits), and, when present, the bodies of the shared data sets
 * (../shared/data or $SAS_DATA_DIR). Run it before and after a change: equal digests, equal decisions. Each signal
 * is scored twice, and a different second decision is counted (the scorer must not depend on what it saw before).
 * Only hashes and counts are printed, never data-set text.
 */
export function decisionsDigest(): {
  signals: number;
  data_set_signals: number;
  nondeterministic: number;
  sha256: string;
} {
  const sources: Signal['source'][] = ['email', 'task', 'crm_event', 'support_message', 'internal'];
  const now = new Date('2026-11-21T10:00:00Z');
  const all = createHash('sha256');
  let signals = 0;
  let dataSet = 0;
  let nondeterministic = 0;
  const score = (signal: Signal) => {
    const decision = JSON.stringify(scoreSignal(signal, now));
    // The same signal again must get the same decision, whatever the scorer has seen in between.
    if (JSON.stringify(scoreSignal(signal, now)) !== decision) nondeterministic++;
    all.update(createHash('sha256').update(decision).digest('hex'));
    signals++;
  };
  makeEmails(3_000, 2_000, 42).forEach((e, i) => score({ ...e, source: sources[i % 5] }));
  const rnd = mulberry32(7);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  const alphabet = benchData<string[]>('digest-alphabet.json');
  const words = (
    'down outage urgent asap not no payment invoice refund cancel subscription lawyer breach security phishing ' +
    'unsubscribe newsletter thanks fixed error cpu at 98 % latency 3500 ms disk 96% sev1 p1 critical warning resolved ' +
    'back to normal quote demo seats enterprise prize won lottery claim birthday dinner k\u00fcndigen dringend ' +
    "r\u00e9silier urgente isn\u2019t l\u2019\u00e9quipe don't can't Stra\u00dfe"
  ).split(' ');
  const text = (length: number) => {
    let t = '';
    while (t.length < length)
      t += rnd() < 0.5 ? pick(words) + pick([' ', '. ', ', ', '! ', '\n', '\u2019', "'"]) : pick(alphabet);
    return t;
  };
  const metadata: Signal['metadata'][] = [
    undefined,
    {},
    { customer_tier: 'enterprise' },
    { vip: true, tags: ['billing', 'urgent'] },
    { severity: 'sev2', amount: 50_000, due_at: '2026-11-21T20:00:00Z' },
    { event: 'backup failed', tags: 'spam' },
    { customer_tier: 'free', deal_value: '120,000' },
  ];
  for (let k = 0; k < 4_000; k++) {
    const length = k % 50 === 0 ? 25_000 + Math.floor(rnd() * 20_000) : Math.floor(rnd() * 3_000);
    score({
      workspace_id: 'w',
      source: sources[k % 5],
      subject: text(Math.floor(rnd() * 80)),
      body: text(length),
      sender: pick(['a@gmail.com', 'noreply@x.com', 'Ann <news@corp.example>', undefined, 'bad']),
      received_at: pick(['2026-11-20T01:00:00Z', '2026-11-21T09:00:00Z']),
      metadata: pick(metadata),
    });
  }
  score({
    workspace_id: 'w',
    source: 'email',
    body: 'a b '.repeat(9_000) + 'site is down',
    received_at: '2026-11-21T09:00:00Z',
  });
  for (const line of readDataFile('enron-berkeley.jsonl').split('\n')) {
    if (!line.trim()) continue;
    const m = JSON.parse(line) as { subject?: string; body?: string; sender?: string; received_at?: string };
    for (const source of ['email', 'support_message', 'internal'] as const) {
      score({
        workspace_id: 'w',
        source,
        subject: m.subject ?? undefined,
        body: m.body ?? undefined,
        sender: m.sender ?? undefined,
        received_at: m.received_at ?? '2026-11-21T09:00:00Z',
      });
      dataSet++;
    }
  }
  for (const line of readDataFile('sms-spam-collection.tsv').split('\n').slice(1)) {
    if (!line.trim()) continue;
    score({
      workspace_id: 'w',
      source: 'support_message',
      body: line.slice(line.indexOf('\t') + 1),
      received_at: '2026-11-21T09:00:00Z',
    });
    dataSet++;
  }
  return { signals, data_set_signals: dataSet, nondeterministic, sha256: all.digest('hex') };
}
