// Rebuilds lambdas/domain/engine/language-english-words.json: English words of business and operations text that the
// other six languages do not write, so that a short English subject ("Login page broken after deploy") is not
// named Dutch or French by its character trigrams, which were built from a declaration of rights, not from
// alerts, tickets and mail. A build-time step; the analyze bundle carries only the list.
//
// A word is kept when it is in at least two of four English sources (alert summaries of alert-rules-dev.jsonl, the
// training tracker's bug summaries, the subjects of Enron's training split, and the English originals of this
// machine's gettext catalogs), is in none of the dev sentences of de/fr/es/it/pt/nl (bin/fetch-language-sample.ts)
// nor their function words, no translation catalog of those languages writes it more than a tenth as often as the
// English source that uses it most, and fewer than two of their translations write it with an accent. Every text is
// folded as the engine's tokenizer folds it ("expiré" is the engine's "expire"). The catalogs
// (/usr/share/locale/<lang>/LC_MESSAGES/*.mo) are what the machine has installed: the list is the artifact,
// reproducible on a machine with the same packages. The held-out English texts the eval reads (the other alert
// sources, the other trackers, Enron's test split, BANKING77) are never read here.
//   npx tsx bin/train-english-words.ts [--keep=600]
import './lexicon-index-check';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { FUNCTION_WORDS } from '../lambdas/domain/engine/language';
import { BUG_TRAIN_PROJECT, loadAlerts, loadBugs, loadEnron } from './data-splits';
import { readSample } from './eval/language';

const OUT = path.resolve(__dirname, '../lambdas/domain/engine/language-english-words.json');
/** Words kept, the most frequent first: about 2 KiB gzip in the analyze bundle. */
const KEEP = Number(/^--keep=(\d+)$/.exec(process.argv.find((a) => a.startsWith('--keep=')) ?? '')?.[1] ?? 600);
const OTHERS = ['de', 'fr', 'es', 'it', 'pt', 'nl'];
/** A catalog may write the word at most this share of the English rate (untranslated names, key labels). */
const FOREIGN_SHARE = 0.1;
const LOCALES = '/usr/share/locale';
/** Translations writing a word with an accent that make it another language's (one may be a typo or a name). */
const MIN_ACCENTED = 2;

/** Folded as the engine's tokenizer folds (engine/tokens.ts): "création" is the engine's "creation". */
const SPECIAL_FOLDS: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ł: 'l', ı: 'i', þ: 'th' };
const fold = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[ßæœøđłıþ]/g, (c) => SPECIAL_FOLDS[c])
    .normalize('NFD')
    .replace(/\p{M}/gu, '');
const wordsOf = (text: string): Set<string> => new Set(fold(text).match(/[a-z]{3,}/g) ?? []);
/** Words written with a letter English does not use ("expiré"), as the engine reads them: another language's. */
const accentedWordsOf = (text: string): string[] =>
  (text.match(/\p{L}{3,}/gu) ?? []).filter((w) => /\P{ASCII}/u.test(w)).map(fold);

/** The share of texts each word appears in. */
function rates(texts: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of texts) for (const w of wordsOf(t)) out.set(w, (out.get(w) ?? 0) + 1 / texts.length);
  return out;
}

/** A gettext .mo file's translated messages: [English original, translation]. */
function readCatalog(file: string): [string, string][] {
  const b = readFileSync(file);
  const le = b.readUInt32LE(0) === 0x950412de;
  const u32 = (o: number) => (le ? b.readUInt32LE(o) : b.readUInt32BE(o));
  const [n, originals, translations] = [u32(8), u32(12), u32(16)];
  const text = (table: number, i: number) =>
    b.toString('utf8', u32(table + 8 * i + 4), u32(table + 8 * i + 4) + u32(table + 8 * i)).split('\0')[0];
  const out: [string, string][] = [];
  for (let i = 0; i < n; i++) {
    const [id, str] = [text(originals, i), text(translations, i)];
    if (id !== '' && str !== '' && str !== id) out.push([id, str]);
  }
  return out;
}

function catalogs(lang: string): [string, string][] {
  const out: [string, string][] = [];
  for (const dir of lang === 'pt' ? ['pt', 'pt_BR'] : [lang]) {
    const folder = path.join(LOCALES, dir, 'LC_MESSAGES');
    if (!existsSync(folder)) continue;
    for (const f of readdirSync(folder).sort()) if (f.endsWith('.mo')) out.push(...readCatalog(path.join(folder, f)));
  }
  if (out.length === 0) throw new Error(`no ${lang} gettext catalogs under ${LOCALES}`);
  return out;
}

function main(): void {
  const dev = readSample('dev');
  if (dev === null) throw new Error('no dev sentences: npx tsx bin/fetch-language-sample.ts');
  const originals = new Set<string>();
  const foreign = new Map<string, number>();
  // A word the other languages write with an accent: "expiré" and "vidéo" are the engine's "expire" and "video".
  const accented = new Map<string, number>();
  for (const lang of OTHERS) {
    const pairs = catalogs(lang);
    for (const [id] of pairs) originals.add(id);
    for (const [w, r] of rates(pairs.map(([, str]) => str))) foreign.set(w, Math.max(foreign.get(w) ?? 0, r));
    for (const [, str] of pairs) for (const w of accentedWordsOf(str)) accented.set(w, (accented.get(w) ?? 0) + 1);
  }
  const inDevSentences = new Set(OTHERS.flatMap((l) => dev[l].flatMap((s) => [...wordsOf(s)])));
  const known = new Set(Object.values(FUNCTION_WORDS).flatMap((list) => list.split(' ')));
  const sources = [
    rates(loadAlerts().map((a) => a.summary)),
    rates(loadBugs().flatMap((b) => (b.project === BUG_TRAIN_PROJECT ? [b.summary] : []))),
    rates(loadEnron().flatMap((e) => (e.split === 'train' && e.subject ? [e.subject] : []))),
    rates([...originals]),
  ];
  const kept: [string, number][] = [];
  for (const w of new Set(sources.flatMap((s) => [...s.keys()]))) {
    const r = sources.map((s) => s.get(w) ?? 0);
    // Ranked by the signal sources (not the catalogs), so the list is what partners' subjects say most.
    const signalRate = Math.max(r[0], r[1], r[2]);
    if (r.filter((x) => x > 0).length < 2 || signalRate === 0 || known.has(w) || inDevSentences.has(w)) continue;
    if ((foreign.get(w) ?? 0) > FOREIGN_SHARE * signalRate || (accented.get(w) ?? 0) >= MIN_ACCENTED) continue;
    kept.push([w, signalRate]);
  }
  kept.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const words = kept
    .slice(0, KEEP)
    .map(([w]) => w)
    .sort();
  writeFileSync(
    OUT,
    `${JSON.stringify({ built_by: 'bin/train-english-words.ts', candidates: kept.length, words: words.join(' ') }, null, 2)}\n`,
  );
  console.log(`${words.length} of ${kept.length} candidate words -> ${path.relative(process.cwd(), OUT)}`);
}

main();
