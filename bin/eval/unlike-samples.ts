// Text unlike a tracker's or an alert source's history, for the learned priority's "like the history" test (issue 31;
// docs/decision-engine-warm.md, "Warm"): fixed samples of 150 BANKING77 queries, Enron mail and ordinary SMS, and
// business text of the other kind. bin/fit-warm-gate.ts chooses the test on UNLIKE (no more of it may pass than
// before); UNLIKE_CHECK, disjoint from it and from the background's texts (bin/train-background.ts), is only reported:
// by the fit script beside its choice, and by `npm run eval`'s warm section.
import { banking77Rows, fnv1a, jsonl, loadSms } from '../data-splits';
import type { RankedDecision } from '../severity-folds';

/** A signal's text, as the sketch reads it. */
export type Text = { subject?: string; body: string };

/** Enron rows and ordinary SMS lines (by their index among the ordinary ones) in UNLIKE: never in the background. */
export const isUnlikeSampleEnron = (index: number) => index % 7 === 3;
export const isUnlikeSampleSms = (hamIndex: number) => hamIndex % 29 === 2;

const enronRows = () => jsonl('enron-berkeley.jsonl') as Record<string, string | null>[];
const mail = (m: Record<string, string | null>): Text => ({
  subject: m.subject ?? undefined,
  body: String(m.body ?? '').slice(0, 20_000),
});

export const UNLIKE: Record<string, () => Text[]> = {
  banking: () =>
    banking77Rows()
      .filter((_, i) => i % 53 === 1)
      .slice(0, 150)
      .map(([body]) => ({ body })),
  enron: () =>
    enronRows()
      .filter((_, i) => isUnlikeSampleEnron(i))
      .slice(0, 150)
      .map(mail),
  sms: () =>
    loadSms()
      .filter((r) => !r.spam)
      .filter((_, i) => isUnlikeSampleSms(i))
      .slice(0, 150)
      .map((r) => ({ body: r.text })),
};

/** Reported, never chosen on (keys start with "check"): Enron's and the SMS collection's held-out splits. */
export const UNLIKE_CHECK: Record<string, () => Text[]> = {
  'check banking': () =>
    banking77Rows()
      .filter((_, i) => i % 53 === 27)
      .slice(0, 150)
      .map(([body]) => ({ body })),
  'check enron': () =>
    enronRows()
      .filter((m, i) => !isUnlikeSampleEnron(i) && fnv1a(String(m.id)) % 10 >= 6)
      .slice(0, 150)
      .map(mail),
  'check sms': () =>
    loadSms()
      .filter((r) => !r.spam)
      .filter((r, i) => r.split !== 'train' && !isUnlikeSampleSms(i))
      .slice(0, 150)
      .map((r) => ({ body: r.text })),
};
export const isCheck = (corpus: string) => corpus.startsWith('check');

/** Business text of the other kind (a tracker's bugs under an alert source's history, and back): 150 fixed signals. */
export const otherKind = (all: readonly RankedDecision[], kind: 'alert' | 'bug', from = 0): Text[] =>
  all
    .filter((d) => d.kind !== kind)
    .sort((x, y) => fnv1a(`other:${x.id}`) - fnv1a(`other:${y.id}`) || (x.id < y.id ? -1 : 1))
    .slice(from, from + 150)
    .map((d) => ({ subject: d.signal.subject, body: d.signal.body ?? '' }));
