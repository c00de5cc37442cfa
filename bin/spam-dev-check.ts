// What a spam-model variant would do in the engine on the time-ordered DEV split, never the TEST split: fits on TRAIN
// exactly as the shipped model is fitted on TRAIN + DEV (5-fold out-of-fold calibration), then scores through
// scoreSignal SpamAssassin's DEV part (55-70% by message number; its spam also as support_message), SMS's DEV lines
// and a tenth of Enron's TRAIN split held back from the fit (FNV-1a of the id modulo 10 = 5). Used to choose the
// model's options and features (docs/decision-engine-experiments.md, "The spam model: how version 3's options were
// chosen"); prints figures only, no text.
// Version 3's tool: version 4's shipped model fits on TRAIN and calibrates on DEV, and bin/train-spam-model.ts prints
// its own DEV figures and leave-one-source-out figures (--loso).
//   npx tsx bin/spam-dev-check.ts [--l2=3] [--keep=3000] [--email-weight=4] [--hard-weight=4] [--spam-weight=2] [--web-copies] [--calibrate=later] [--save=file.json | --model=file.json]
import './lexicon-index-check';
import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { Assessment } from '../lambdas/domain/decision';
import { scoreSignal } from '../lambdas/domain/engine';
import { FEATURE_COUNT, WORD_BITS } from '../lambdas/domain/engine/spam-features';
import { useSpamModel, type SpamModelFile } from '../lambdas/domain/engine/spam-model';
import type { Signal } from '../lambdas/domain/signal';
import { fnv1a, loadEnron, loadSms, loadSpamAssassin, type MailRow } from './data-splits';
import { mailSignal, FIXED_NOW } from './eval/labeled';
import { SHIPPED, examples, type Example } from './spam-examples';
import { fit, laterMailCalibration, logit, outOfFoldCalibration, type Fitted } from './spam-fit';
import { modelFile } from './train-spam-model';

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const options = {
  keepWords: Number(arg('keep') ?? SHIPPED.keepWords),
  l2: Number(arg('l2') ?? SHIPPED.l2),
  emailWeight: Number(arg('email-weight') ?? SHIPPED.emailWeight),
  hardHamWeight: Number(arg('hard-weight') ?? SHIPPED.hardHamWeight),
  spamWeight: Number(arg('spam-weight') ?? SHIPPED.spamWeight ?? 1),
  dedupe: process.argv.includes('--dedupe'),
  webCopies: process.argv.includes('--web-copies'),
};
const WORD_BUCKETS = 1 << WORD_BITS;
const enronDev = (id: string) => fnv1a(id) % 10 === 5;

const all = examples(options);
const train = all.filter((e) => e.split === 'train' && !(e.corpus === 'enron' && enronDev(e.id)));
const heldBack = all.filter(
  (e) => !e.id.endsWith('#web') && (e.split === 'dev' || (e.corpus === 'enron' && enronDev(e.id))),
);

/** A saved dev-check model back as weights by feature id (to try the engine's thresholds without refitting). */
function fittedOf(m: SpamModelFile): Fitted {
  const weights = new Float64Array(FEATURE_COUNT);
  let bucket = 0;
  m.bucket_deltas.forEach((d, i) => {
    bucket += d;
    weights[bucket] = m.bucket_weights[i] / m.scale;
  });
  m.named_weights.forEach((w, i) => (weights[WORD_BUCKETS + i] = w / m.scale));
  return { weights, bias: m.bias / m.scale };
}
const saved = arg('model') ? (JSON.parse(readFileSync(arg('model')!, 'utf8')) as SpamModelFile) : null;
const calibration = saved
  ? { a: saved.platt_a, b: saved.platt_b }
  : arg('calibrate') === 'later'
    ? laterMailCalibration(train, 0.4, options)
    : outOfFoldCalibration(train, options);
const model: Fitted = saved ? fittedOf(saved) : fit(train, options);
const file = saved ?? modelFile(model, calibration, 'dev check');
const json = JSON.stringify(file);
if (arg('save')) writeFileSync(arg('save')!, `${json}\n`);

// Model alone: ranking quality on SpamAssassin's DEV part (spam against easy ham), independent of any threshold.
const saDev = heldBack.filter((e) => e.corpus === 'sa' && e.label !== 'hard_ham');
const auc = (rows: Example[]) => {
  const s = rows.filter((e) => e.spam).map((e) => logit(model, e));
  const h = rows.filter((e) => !e.spam).map((e) => logit(model, e));
  let wins = 0;
  for (const a of s) for (const b of h) wins += a > b ? 1 : a === b ? 0.5 : 0;
  return wins / (s.length * h.length);
};
const pOf = (e: Example) => 1 / (1 + Math.exp(-(calibration.a * logit(model, e) + calibration.b)));
const recallAt = (cut: number) => {
  const spam = saDev.filter((e) => e.spam);
  const ham = saDev.filter((e) => !e.spam);
  return `p>=${cut} ${(spam.filter((e) => pOf(e) >= cut).length / spam.length).toFixed(3)}/${ham.filter((e) => pOf(e) >= cut).length}`;
};

// Spam recall when the cut lets through no, one or two ordinary e-mails of the DEV part (SpamAssassin easy ham and
// the Enron held-back tenth): what the ranking allows whatever the calibration.
const mailHam = heldBack
  .filter((e) => (e.corpus === 'sa' && e.label === 'easy_ham') || e.corpus === 'enron')
  .map((e) => logit(model, e))
  .sort((x, y) => y - x);
const saSpam = saDev.filter((e) => e.spam).map((e) => logit(model, e));
const atHam = (k: number) =>
  `${k} ham: recall ${(saSpam.filter((z) => z > mailHam[k]).length / saSpam.length).toFixed(3)} (p ${(1 / (1 + Math.exp(-(calibration.a * mailHam[k] + calibration.b)))).toFixed(2)})`;

useSpamModel(file);
const at = FIXED_NOW.toISOString();
const run = (signal: Signal, now = FIXED_NOW): Assessment => scoreSignal(signal, now);
const archived = (a: Assessment) => a.recommended_action === 'archive';
const escalated = (a: Assessment) => a.recommended_action === 'escalate' || a.priority === 'critical';
const tally: Record<string, { n: number; archived: number; escalated: number }> = {};
const note = (key: string, a: Assessment) => {
  const t = (tally[key] ??= { n: 0, archived: 0, escalated: 0 });
  t.n++;
  if (archived(a)) t.archived++;
  if (escalated(a)) t.escalated++;
};
for (const r of loadSpamAssassin().filter((r) => r.split === 'dev')) {
  note(`sa ${r.label}`, run(mailSignal(r, at)));
  if (r.label !== 'spam') continue;
  const web: Signal = { workspace_id: 'dev', source: 'support_message', received_at: at, body: r.body };
  if (r.subject) web.subject = r.subject;
  note('web-form spam', run(web));
}
for (const r of loadSms().filter((r) => r.split === 'dev'))
  note(
    `sms ${r.spam ? 'spam' : 'ham'}`,
    run({ workspace_id: 'dev', source: 'support_message', body: r.text, received_at: at }),
  );
for (const r of loadEnron().filter((r: MailRow) => r.split === 'train' && enronDev(r.id))) {
  const received = r.received_at ?? '2001-06-01T12:00:00Z';
  note('enron dev', run(mailSignal(r, received), new Date(Date.parse(received) + 5 * 60_000)));
}
useSpamModel(null);

console.log(
  `options ${JSON.stringify(options)} calibrate ${arg('calibrate') ?? 'oof'} | ${file.bucket_deltas.length} buckets, ${json.length} B, gzip ${gzipSync(json).length} B | platt a=${calibration.a} b=${calibration.b}`,
);
console.log(
  `model on SA dev: AUC ${auc(saDev).toFixed(4)} | ${[0.15, 0.5, 0.8, 0.9].map(recallAt).join(' | ')} (recall/ham flagged of ${saDev.filter((e) => !e.spam).length})`,
);
console.log(`  by rank, of ${mailHam.length} ordinary mails: ${[0, 1, 2, 5].map(atHam).join(' | ')}`);
for (const [key, t] of Object.entries(tally).sort())
  console.log(
    `  ${key.padEnd(14)} ${String(t.n).padStart(4)}  archived ${(t.archived / t.n).toFixed(3)} (${t.archived})  escalated ${t.escalated}`,
  );
