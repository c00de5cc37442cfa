// Fetches real text in seven languages from Debian packages that no language detector was built from, and cuts it
// into sentences of 5 to 20 words for `npm run eval` (bin/eval/language.ts). The text stays outside the repository
// (default /tmp/sas-language-sample; LANGUAGE_SAMPLE_DIR to change): never commit it.
//   en fortunes-min, de fortunes-de, es fortunes-es, it fortunes-it, pt fortunes-br (fortune cookies)
//   fr manpages-fr, nl manpages-nl (translated manual pages: no French or Dutch fortunes package here)
//   npx tsx bin/fetch-language-sample.ts        (needs apt-get download and dpkg-deb; no root)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

export const SAMPLE_DIR = process.env.LANGUAGE_SAMPLE_DIR ?? '/tmp/sas-language-sample';
export const SAMPLE_LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl'] as const;
const PACKAGES: Record<(typeof SAMPLE_LANGUAGES)[number], { pkg: string; kind: 'fortunes' | 'man'; dir: string }> = {
  en: { pkg: 'fortunes-min', kind: 'fortunes', dir: 'usr/share/games/fortunes' },
  de: { pkg: 'fortunes-de', kind: 'fortunes', dir: 'usr/share/games/fortunes/de' },
  es: { pkg: 'fortunes-es', kind: 'fortunes', dir: 'usr/share/games/fortunes/es' },
  it: { pkg: 'fortunes-it', kind: 'fortunes', dir: 'usr/share/games/fortunes/it' },
  pt: { pkg: 'fortunes-br', kind: 'fortunes', dir: 'usr/share/games/fortunes' },
  fr: { pkg: 'manpages-fr', kind: 'man', dir: 'usr/share/man/fr' },
  nl: { pkg: 'manpages-nl', kind: 'man', dir: 'usr/share/man/nl' },
};
/** Sentences kept per language, taken evenly from all found. */
const PER_LANGUAGE = 300;

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const p = path.join(dir, name);
      return statSync(p).isDirectory() ? files(p) : [p];
    });
}

/** Fortune entries (separated by "%" lines) without their "-- author" lines. */
function fortuneText(file: string): string[] {
  if (file.endsWith('.dat') || file.endsWith('.u8')) return [];
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
  if (!file.endsWith('.gz')) return [];
  const raw = gunzipSync(readFileSync(file)).toString('utf8');
  return raw
    .split('\n')
    .filter((l) => !l.startsWith('.') && !l.startsWith("'"))
    .map((l) => l.replace(/\\f[A-Z0-9]|\\f\[[^\]]*\]|\\\(..|\\\[[^\]]*\]|\\[-&e ]|\\\*./g, ' '))
    .join(' ')
    .split(/\s{2,}/);
}

function sentences(texts: string[]): string[] {
  const out: string[] = [];
  for (const t of texts)
    for (const s of t.replace(/\s+/g, ' ').split(/(?<=[.!?])\s+/)) {
      const words = s
        .trim()
        .split(' ')
        .filter((w) => /\p{L}/u.test(w));
      if (words.length >= 5 && words.length <= 20 && !/[<>{}=\\/]/.test(s)) out.push(s.trim());
    }
  return out;
}

function fetchLanguage(lang: (typeof SAMPLE_LANGUAGES)[number]): number {
  const { pkg, kind, dir } = PACKAGES[lang];
  const work = path.join(SAMPLE_DIR, 'pkg', pkg);
  mkdirSync(work, { recursive: true });
  if (!readdirSync(work).some((f) => f.endsWith('.deb')))
    execFileSync('apt-get', ['download', pkg], { cwd: work, stdio: 'ignore' });
  const deb = readdirSync(work).find((f) => f.endsWith('.deb'))!;
  execFileSync('dpkg-deb', ['-x', path.join(work, deb), path.join(work, 'root')]);
  let all = files(path.join(work, 'root', dir));
  // The English fortunes directory also holds the other languages' subdirectories in some packages: top level only.
  if (lang === 'en' || lang === 'pt')
    all = all.filter((f) => path.dirname(f) === path.join(work, 'root', dir) || lang === 'pt');
  const found = sentences(all.flatMap((f) => (kind === 'fortunes' ? fortuneText(f) : manText(f))));
  const step = Math.max(1, Math.floor(found.length / PER_LANGUAGE));
  const kept = found.filter((_, i) => i % step === 0).slice(0, PER_LANGUAGE);
  writeFileSync(path.join(SAMPLE_DIR, `${lang}.txt`), `${kept.join('\n')}\n`);
  return kept.length;
}

if (require.main === module) {
  mkdirSync(SAMPLE_DIR, { recursive: true });
  for (const lang of SAMPLE_LANGUAGES) console.log(`${lang}: ${fetchLanguage(lang)} sentences (${PACKAGES[lang].pkg})`);
  console.log(`written to ${SAMPLE_DIR} (outside the repository: never commit it)`);
}
