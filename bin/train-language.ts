// Rebuilds lambdas/domain/engine/language-trigrams.json: the most frequent character trigrams of each language the
// engine detects (en, de, fr, es, it, pt, nl), in rank order, taken from the `franc-min` package's data (built by its
// authors from the Universal Declaration of Human Rights; none of it is the eval's sentences). A build-time step: the
// package is a dev dependency, the analyze bundle carries only the seven profiles.
//   npx tsx bin/train-language.ts            writes the profiles, KEEP trigrams per language
//   npx tsx bin/train-language.ts --dev      first prints the dev sentences' accuracy for each profile size and
//                                            trigram weight (bin/fetch-language-sample.ts; never the eval sentences)
import './lexicon-index-check';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { useTrigramProfiles } from '../lambdas/domain/engine/language';
import { accuracy, engineLanguage, readSample } from './eval/language';

const OUT = path.resolve(__dirname, '../lambdas/domain/engine/language-trigrams.json');
/**
 * Trigrams kept per language, the most frequent (franc keeps 300), chosen with the trigram weight
 * (TRIGRAM_SHARE_PER_HIT in language.ts) on the dev sentences: see docs/decision-engine.md for the figures.
 */
const KEEP = 300;
const SIZES = [100, 150, 200, 250, 300];
const SHARES = [0.05, 0.07, 0.1, 0.15, 0.2, 0.3];
const FRANC_CODES = { en: 'eng', de: 'deu', fr: 'fra', es: 'spa', it: 'ita', pt: 'por', nl: 'nld' } as const;

async function francProfiles(keep: number): Promise<{ version: string; profiles: Record<string, string> }> {
  const { data } = (await import('franc-min/data.js')) as { data: Record<string, Record<string, string>> };
  const version = (
    JSON.parse(readFileSync(path.resolve(__dirname, '../node_modules/franc-min/package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
  const profiles: Record<string, string> = {};
  for (const [lang, code] of Object.entries(FRANC_CODES)) {
    const profile = data.Latin[code];
    if (profile === undefined) throw new Error(`franc-min ${version}: no Latin profile for ${code}`);
    // Every trigram is three characters: written one after another, no separator (fewer bytes in the bundle).
    profiles[lang] = profile.split('|').slice(0, keep).join('');
  }
  return { version, profiles };
}

async function sweep(): Promise<void> {
  const dev = readSample('dev');
  if (dev === null) throw new Error('no dev sentences: npx tsx bin/fetch-language-sample.ts');
  console.log(`dev sentences: ${Object.values(dev).reduce((s, l) => s + l.length, 0)}; overall (worst language)`);
  console.log(`size  ${SHARES.map((s) => `share ${s}`.padEnd(16)).join('')}`);
  for (const size of SIZES) {
    const { profiles } = await francProfiles(size);
    const cells = SHARES.map((share) => {
      useTrigramProfiles(profiles, share);
      const { per, overall } = accuracy(dev, engineLanguage);
      const [worst, v] = Object.entries(per).sort((a, b) => a[1] - b[1])[0];
      return `${overall.toFixed(3)} (${worst} ${v.toFixed(2)})`.padEnd(16);
    });
    console.log(`${String(size).padEnd(6)}${cells.join('')}`);
  }
  useTrigramProfiles(null);
}

async function main(): Promise<void> {
  if (process.argv.includes('--dev')) await sweep();
  const { version, profiles } = await francProfiles(KEEP);
  const file = { source: `franc-min ${version} data (trigrams ranked by frequency, most frequent first)`, profiles };
  writeFileSync(OUT, `${JSON.stringify(file, null, 2)}\n`);
  console.log(`wrote ${OUT} (${KEEP} trigrams per language)`);
}

void main();
