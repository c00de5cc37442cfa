// The spam model's training examples (bin/train-spam-model.ts): every development corpus's messages as the engine's
// spam features (lambdas/domain/engine/spam-features.ts), weighted as a fit's options say. The TEST split is never read.
import {
  GRAM_FLAG,
  PREFIX_FLAG,
  WORD_BUCKETS,
  featureId,
  spamFeatures,
  trigramsRead,
} from '../lambdas/domain/engine/spam-features';
import { TRIGRAM_TEXT_GRAMS } from '../lambdas/domain/engine/spam-model';
import { TokenBuffer } from '../lambdas/domain/engine/tokens';
import {
  fnv1a,
  jsonl,
  loadAlerts,
  loadBugs,
  loadEnron,
  loadSms,
  loadSpamAssassin,
  loadThaiSms,
  type Split,
} from './data-splits';

/** How a model is fitted; the defaults are the shipped model's (chosen on the time-ordered dev split). */
export interface FitOptions {
  /** Word buckets kept (the largest |weight| after a first fit over all of them), then refitted: the file's size. */
  keepWords: number;
  /** L2 penalty, over the total example weight. */
  l2: number;
  /** SpamAssassin is the only e-mail spam: its messages count this many times. */
  emailWeight: number;
  /** SpamAssassin's hard ham (newsletters, commercial mail: it may be archived) counts this many times. */
  hardHamWeight: number;
  /** SpamAssassin's spam counts this many times more than its ham (class weighting). */
  spamWeight?: number;
  /** The SMS collections' spam counts this many times more than their ham. */
  smsSpamWeight?: number;
  /** Count a message whose subject and body repeat an earlier one's of the same corpus once only. */
  dedupe?: boolean;
  /** SpamAssassin's messages count half with their sender and half without (as a web form sends them). */
  webCopies?: boolean;
}
export const SHIPPED: FitOptions = { keepWords: 4500, l2: 3, emailWeight: 4, hardHamWeight: 4, spamWeight: 2 };

/** Where an example comes from: SpamAssassin, the SMS collections, and ordinary text of the other corpora. */
export type SpamCorpus = 'sa' | 'sms' | 'thai' | 'enron' | 'bugs' | 'alerts';
/** Enron has no DEV split in bin/data-splits.ts: a tenth of its TRAIN split (id hash modulo 10 = 5) serves as one. */
export const enronDev = (id: string) => fnv1a(id) % 10 === 5;
/**
 * A bug report or alert rule the spam model read as ordinary text: fitted on (TRAIN, fnv1a % 8 = 0) or calibrated and
 * cut on (DEV, 1). The eval's archive rows on alerts measure the rest apart (bin/eval/main.ts).
 */
export const inSpamFitting = (id: string) => fnv1a(id) % 8 <= 1;

export interface Example {
  id: string;
  features: Int32Array;
  /** Of the features, the words and the Thai trigrams: what the verdict counts as known evidence where weighted. */
  words: Int32Array;
  grams: Int32Array;
  spam: boolean;
  weight: number;
  split: Split;
  corpus: SpamCorpus;
  /** Read mostly by its Thai trigrams: the engine applies the trigram cut. */
  trigramText?: boolean;
  /** SpamAssassin DEV: the features without the sender (as a web form sends the message). */
  webFeatures?: Int32Array;
  /** SpamAssassin: the message's place in its folder by message number (0 first, 1 last); otherwise -1. */
  order: number;
  label: string;
}

export function examples(options: FitOptions = SHIPPED): Example[] {
  const buf = new TokenBuffer();
  const scratch = new Int32Array(8192);
  const featuresOf = (subject: string | null, body: string, sender: string | null) => {
    buf.reset();
    buf.add(subject ?? '', 0, 1000);
    buf.add(body, 1, 20_000);
    return scratch.slice(0, spamFeatures(buf, sender, scratch)).map(featureId);
  };
  // The features, and of them the words and the Thai trigrams as spamVerdict tells them apart (before featureId strips
  // the flags): where the model weighs them, they are the evidence the scorer counts.
  const measured = (subject: string | null, body: string, sender: string | null) => {
    const features = featuresOf(subject, body, sender);
    const raw = scratch.subarray(0, features.length);
    return {
      features,
      words: raw.filter((f) => f < WORD_BUCKETS && (f & (PREFIX_FLAG | GRAM_FLAG)) === 0),
      grams: raw.filter((f) => (f & GRAM_FLAG) !== 0).map(featureId),
    };
  };
  // As the engine tells text read mostly by its trigrams (spamVerdict's trigramText), from the features alone.
  const readByTrigrams = (body: string) => {
    buf.reset();
    buf.add(body, 1, 20_000);
    spamFeatures(buf, null, scratch);
    return trigramsRead() >= TRIGRAM_TEXT_GRAMS;
  };
  const out: Example[] = [];
  const sa = loadSpamAssassin();
  const numbers = new Map<string, number[]>();
  for (const r of sa) {
    const [folder, number] = r.id.split('/');
    numbers.set(folder, [...(numbers.get(folder) ?? []), Number(number)]);
  }
  for (const list of numbers.values()) list.sort((x, y) => x - y);
  const orderOf = (id: string) => {
    const list = numbers.get(id.split('/')[0])!;
    return list.indexOf(Number(id.split('/')[1])) / list.length;
  };
  const seen = new Set<string>();
  // The TEST split is skipped before anything is compared with it.
  const repeated = (split: Split, key: string) =>
    split === 'test' || (options.dedupe === true && (seen.has(key) || (seen.add(key), false)));
  // With webCopies, each SpamAssassin message counts half as sent and half without its sender (as a web form sends it).
  const copies = options.webCopies === true ? [false, true] : [true];
  for (const r of sa) {
    if (repeated(r.split, `sa ${r.subject ?? ''}\n${r.body}`)) continue;
    const weight =
      r.label === 'hard_ham'
        ? options.hardHamWeight
        : options.emailWeight * (r.label === 'spam' ? (options.spamWeight ?? 1) : 1);
    for (const withSender of copies)
      out.push({
        id: withSender ? r.id : `${r.id}#web`,
        order: orderOf(r.id),
        ...measured(r.subject, r.body, withSender ? r.sender : null),
        webFeatures: r.split === 'dev' ? featuresOf(r.subject, r.body, null) : undefined,
        spam: r.label === 'spam',
        weight: weight / copies.length,
        split: r.split,
        corpus: 'sa',
        label: r.label,
      });
  }
  loadSms().forEach((r, i) =>
    repeated(r.split, `sms ${r.text}`)
      ? undefined
      : out.push({
          id: `sms/${i}`,
          order: -1,
          ...measured(null, r.text, null),
          spam: r.spam,
          weight: r.spam ? (options.smsSpamWeight ?? 1) : 1,
          split: r.split,
          corpus: 'sms',
          label: r.spam ? 'spam' : 'ham',
        }),
  );
  for (const r of loadEnron())
    out.push({
      id: r.id,
      order: -1,
      ...measured(r.subject, r.body, r.sender),
      spam: false,
      weight: 1,
      split: r.split === 'train' && enronDev(r.id) ? 'dev' : r.split,
      corpus: 'enron',
      label: r.label,
    });
  for (const r of loadThaiSms())
    out.push({
      id: r.id,
      order: -1,
      ...measured(null, r.text, null),
      spam: r.spam,
      weight: r.spam ? (options.smsSpamWeight ?? 1) : 1,
      split: r.split,
      corpus: 'thai',
      trigramText: readByTrigrams(r.text),
      label: r.spam ? 'spam' : 'ham',
    });
  // Business text of the ranking corpora as ordinary text: an eighth of the training tracker's bugs and of the
  // alert rules for TRAIN and another eighth for DEV (both are never spam; a partner may forward either by mail). The
  // bug test projects stay out.
  const ordinary = (id: string, subject: string, body: string, corpus: 'bugs' | 'alerts') => {
    if (!inSpamFitting(id)) return;
    const k = fnv1a(id) % 8;
    out.push({
      id,
      order: -1,
      ...measured(subject, body, null),
      spam: false,
      weight: 1,
      split: k === 0 ? 'train' : 'dev',
      corpus,
      label: 'ham',
    });
  };
  for (const r of loadBugs()) if (r.split === 'train') ordinary(r.id, r.summary, r.description, 'bugs');
  for (const r of loadAlerts()) ordinary(r.id, r.name || r.summary, r.description, 'alerts');
  for (const r of jsonl('alert-rules-more.jsonl'))
    ordinary(
      `${String(r.source)}/${String(r.alert)}`,
      typeof r.alert === 'string' ? r.alert : '',
      typeof r.description === 'string' ? r.description : '',
      'alerts',
    );
  return out.filter((e) => e.split !== 'test');
}
