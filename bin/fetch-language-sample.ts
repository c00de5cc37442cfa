// Fetches real text in seven languages from Debian packages that no language detector was built from, and cuts it
// into sentences of 5 to 20 words: an eval set (`npm run eval`, bin/eval/language.ts) and a disjoint dev set (for
// choosing the detector's settings, bin/train-language.ts --dev). The text stays outside the repository (default
// /tmp/sas-language-sample; LANGUAGE_SAMPLE_DIR to change), as <dir>/eval/<lang>.txt and <dir>/dev/<lang>.txt, with
// the sources in <dir>/SOURCES.txt: never commit it.
//   en fortunes-min, de fortunes-de, es fortunes-es, it fortunes-it, pt fortunes-br (fortune cookies)
//   fr manpages-fr, nl manpages-nl (translated manual pages: no French or Dutch fortunes package here)
// And the same from Latin-script languages the detector has no word lists for (OTHER_LANGUAGES, translated manual
// pages), for which the right answer is `und`.
// fortunes-es's offensive fortunes (its `off/` folders) are left out: Debian ships them ROT13-encoded, so as written
// they are not Spanish text.
//   npx tsx bin/fetch-language-sample.ts        (needs apt-get download and dpkg-deb; no root)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parseToolSettings } from '../lambdas/contract/settings';

/** The sample's folder, read from the environment when asked (importing this module reads nothing). */
export const sampleDir = () => path.resolve(__dirname, '..', parseToolSettings(process.env).languageSampleDir);
export const SAMPLE_LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl'] as const;
/** Latin-script languages without word lists here: the detector should answer `und` for them. */
export const OTHER_LANGUAGES = ['cs', 'da', 'fi', 'hu', 'id', 'pl', 'ro', 'sv', 'tr', 'vi'] as const;
export type SampleSplit = 'eval' | 'dev';
export const samplePath = (split: SampleSplit, lang: string) => path.join(sampleDir(), split, `${lang}.txt`);

type Fetched = (typeof SAMPLE_LANGUAGES)[number] | (typeof OTHER_LANGUAGES)[number];
const PACKAGES: Record<(typeof SAMPLE_LANGUAGES)[number], { pkg: string; kind: 'fortunes' | 'man'; dir: string }> = {
  en: { pkg: 'fortunes-min', kind: 'fortunes', dir: 'usr/share/games/fortunes' },
  de: { pkg: 'fortunes-de', kind: 'fortunes', dir: 'usr/share/games/fortunes/de' },
  es: { pkg: 'fortunes-es', kind: 'fortunes', dir: 'usr/share/games/fortunes/es' },
  it: { pkg: 'fortunes-it', kind: 'fortunes', dir: 'usr/share/games/fortunes/it' },
  pt: { pkg: 'fortunes-br', kind: 'fortunes', dir: 'usr/share/games/fortunes' },
  fr: { pkg: 'manpages-fr', kind: 'man', dir: 'usr/share/man/fr' },
  nl: { pkg: 'manpages-nl', kind: 'man', dir: 'usr/share/man/nl' },
};
/** Sentences kept per language in each split, taken evenly from all found. */
const PER_LANGUAGE = 300;

/** Files under dir, sorted; `off/` folders (offensive fortunes, ROT13-encoded) left out. */
export function sampleFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const p = path.join(dir, name);
      if (!statSync(p).isDirectory()) return [p];
      return name === 'off' ? [] : sampleFiles(p);
    });
}

/** Fortune entries (separated by "%" lines) without their "-- author" lines. */
function fortuneText(file: string): string[] {
  const bytes = readFileSync(file);
  const utf8 = bytes.toString('utf8');
  // Most packages are UTF-8; an older one is Latin-1 (replacement characters tell).
  return (utf8.includes('\uFFFD') ? bytes.toString('latin1') : utf8).split(/\n%\n/).map((e) =>
    e
      .split('\n')
      .filter((l) => !/^\s*(--|—)/.test(l))
      .join(' '),
  );
}

/** A manual page's running text: macro lines dropped, font and character escapes removed. */
function manText(file: string): string[] {
  const raw = gunzipSync(readFileSync(file)).toString('utf8');
  return raw
    .split('\n')
    .filter((l) => !l.startsWith('.') && !l.startsWith("'"))
    .map((l) => l.replace(/\\f[A-Z0-9]|\\f\[[^\]]*\]|\\\(..|\\\[[^\]]*\]|\\[-&e ]|\\\*./g, ' '))
    .join(' ')
    .split(/\s{2,}/);
}

/** Distinct sentences of 5 to 20 words, in the order found. */
function sentences(texts: string[]): string[] {
  const out = new Set<string>();
  for (const t of texts)
    for (const s of t.replace(/\s+/g, ' ').split(/(?<=[.!?])\s+/)) {
      const words = s
        .trim()
        .split(' ')
        .filter((w) => /\p{L}/u.test(w));
      if (words.length >= 5 && words.length <= 20 && !/[<>{}=\\/]/.test(s)) out.add(s.trim());
    }
  return [...out];
}

/**
 * Eval and dev sentences, taken evenly from all found: the eval set every `step`-th sentence from the first, the dev
 * set every `step`-th from half a step later, so the two are disjoint (the sentences are distinct) and both span every
 * file.
 */
export function splitSentences(found: readonly string[]): Record<SampleSplit, string[]> {
  const step = Math.max(2, Math.floor(found.length / PER_LANGUAGE));
  const pick = (offset: number) => found.filter((_, i) => i % step === offset).slice(0, PER_LANGUAGE);
  return { eval: pick(0), dev: pick(step >> 1) };
}

function fetchLanguage(lang: Fetched): string {
  const { pkg, kind, dir } =
    lang in PACKAGES
      ? PACKAGES[lang as (typeof SAMPLE_LANGUAGES)[number]]
      : { pkg: `manpages-${lang}`, kind: 'man', dir: `usr/share/man/${lang}` };
  const work = path.join(sampleDir(), 'pkg', pkg);
  mkdirSync(work, { recursive: true });
  if (!readdirSync(work).some((f) => f.endsWith('.deb')))
    execFileSync('apt-get', ['download', pkg], { cwd: work, stdio: 'ignore' });
  const deb = readdirSync(work).find((f) => f.endsWith('.deb'))!;
  execFileSync('dpkg-deb', ['-x', path.join(work, deb), path.join(work, 'root')]);
  let all = sampleFiles(path.join(work, 'root', dir));
  // The English fortunes directory also holds the other languages' subdirectories in some packages: top level only.
  if (lang === 'en') all = all.filter((f) => path.dirname(f) === path.join(work, 'root', dir));
  const read = all.filter((f) => (kind === 'fortunes' ? !/\.(dat|u8)$/.test(f) : f.endsWith('.gz')));
  const found = sentences(read.flatMap((f) => (kind === 'fortunes' ? fortuneText(f) : manText(f))));
  const split = splitSentences(found);
  for (const s of ['eval', 'dev'] as const) writeFileSync(samplePath(s, lang), `${split[s].join('\n')}\n`);
  return `${lang}: ${deb}, /${dir} (${read.length} files${lang === 'es' ? ', off/ left out' : ''}): ${found.length} distinct sentences, eval ${split.eval.length}, dev ${split.dev.length}`;
}

if (require.main === module) {
  const dir = sampleDir();
  for (const s of ['eval', 'dev']) mkdirSync(path.join(dir, s), { recursive: true });
  const lines = [...SAMPLE_LANGUAGES, ...OTHER_LANGUAGES].map(fetchLanguage);
  writeFileSync(path.join(dir, 'SOURCES.txt'), `${lines.join('\n')}\n`);
  for (const line of lines) console.log(line);
  console.log(`written to ${dir}/{eval,dev} (outside the repository: never commit it)`);
}
