// Rebuilds lambdas/domain/learning/background-model.json: how generic text fills the sketch's text buckets under a
// fixed, public key (background.ts reads it). The learned priority's "like the history" test compares a signal's
// likelihood under a workspace's taught priorities with its likelihood under this background (issue 31;
// docs/decision-engine-warm.md, "Warm"), so words every text has no longer make any text look like a tracker's history.
// Generic text: the TRAIN splits of SpamAssassin's easy ham, Enron and the SMS Spam Collection's ordinary messages
// (bin/data-splits.ts), less the fixed samples bin/fit-warm-gate.ts measures unlike text on. No label, no tracker,
// no alert rule, no BANKING77 query is read.
//   npx tsx bin/train-background.ts          writes the file
//   npx tsx bin/train-background.ts --check  compares the refit with the file, nothing written (exit 1 if they differ)
// Deterministic: same data, same file.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  BACKGROUND_FORMAT,
  BACKGROUND_KEY,
  BACKGROUND_PROBE,
  type BackgroundFile,
} from '../lambdas/domain/learning/background';
import { TEXT_BUCKETS, sketchKeyOf, sketchSignal } from '../lambdas/domain/learning/sketch';
import { type MailRow, loadEnron, loadSms, loadSpamAssassin } from './data-splits';
import { type Text, isUnlikeSampleEnron, isUnlikeSampleSms } from './eval/unlike-samples';

const OUT = path.resolve(__dirname, '..', 'lambdas', 'domain', 'learning', 'background-model.json');

function backgroundTexts(): Text[] {
  const text = (m: MailRow) => ({ subject: m.subject ?? undefined, body: m.body.slice(0, 20_000) });
  const mail = loadSpamAssassin()
    .filter((m) => m.split === 'train' && m.label === 'easy_ham')
    .map(text);
  const enron = loadEnron()
    .filter((m, i) => m.split === 'train' && !isUnlikeSampleEnron(i))
    .map(text);
  const sms = loadSms()
    .filter((r) => !r.spam)
    .filter((r, i) => r.split === 'train' && !isUnlikeSampleSms(i))
    .map((r) => ({ body: r.text }));
  return [...mail, ...enron, ...sms];
}

function backgroundFile(): BackgroundFile {
  const key = sketchKeyOf(BACKGROUND_KEY);
  const counts = new Uint16Array(TEXT_BUCKETS);
  const texts = backgroundTexts();
  if (texts.length > 0xffff) throw new Error('more background texts than a 16-bit count holds');
  for (const t of texts) for (const b of sketchSignal(key, t).t) counts[b]++;
  const bytes = Buffer.alloc(2 * TEXT_BUCKETS);
  counts.forEach((c, i) => bytes.writeUInt16LE(c, 2 * i));
  const total = counts.reduce((a, c) => a + c, 0);
  return {
    format: BACKGROUND_FORMAT,
    key: BACKGROUND_KEY,
    probe: sketchSignal(key, { body: BACKGROUND_PROBE }).t,
    documents: texts.length,
    total,
    counts: bytes.toString('base64'),
  };
}

if (require.main === module) {
  const text = `${JSON.stringify(backgroundFile())}\n`;
  if (process.argv.includes('--check')) {
    const same = readFileSync(OUT, 'utf8') === text;
    console.log(same ? 'background-model.json reproduces' : 'background-model.json differs from the refit');
    process.exit(same ? 0 : 1);
  }
  writeFileSync(OUT, text);
  console.log(`wrote ${OUT}`);
}
