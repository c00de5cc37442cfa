// The language detectors of docs/decision-engine.md's table on the same sentences as `npm run eval` (the eval split
// by default, `--dev` for the dev split): this engine, franc-min (a dev dependency), and tinyld and eld when found in
// the folder given as --modules=<node_modules> (they are not dependencies: e.g. `npm install --prefix /tmp/detectors
// tinyld eld`). Each restricted to the seven languages where the library allows. `und` counts as wrong.
//   npx tsx bin/eval/language-detectors.ts --modules=/tmp/detectors/node_modules [--dev]
import '../lexicon-index-check';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { SAMPLE_LANGUAGES } from '../fetch-language-sample';
import { accuracy, engineLanguage, readSample } from './language';

type Detect = (text: string) => string;
const LANGS: string[] = [...SAMPLE_LANGUAGES];
const ISO3: Record<string, string> = { eng: 'en', deu: 'de', fra: 'fr', spa: 'es', ita: 'it', por: 'pt', nld: 'nl' };
const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);

async function load(modules: string | undefined, file: string): Promise<Record<string, unknown> | null> {
  const full = modules === undefined ? null : path.join(modules, file);
  if (full === null || !existsSync(full)) return null;
  return (await import(pathToFileURL(full).href)) as Record<string, unknown>;
}

async function detectors(modules: string | undefined): Promise<[string, Detect][]> {
  const { franc } = (await import('franc-min')) as { franc: (t: string, o?: object) => string };
  const out: [string, Detect][] = [
    ['this engine', engineLanguage],
    ['franc-min', (t) => ISO3[franc(t, { only: Object.keys(ISO3), minLength: 1 })] ?? 'und'],
  ];
  const tinyld = await load(modules, 'tinyld/dist/tinyld.light.node.js');
  if (tinyld !== null) {
    const detect = (tinyld.detect ?? (tinyld.default as Record<string, unknown>).detect) as Detect &
      ((t: string, o: object) => string);
    out.push(['tinyld/light', (t) => detect(t, { only: LANGS }) || 'und']);
  }
  const eld = (await load(modules, 'eld/src/entries/static.extrasmall.js'))?.eld as
    { setLanguageSubset(l: string[]): unknown; detect(t: string): { language: string } } | undefined;
  if (eld !== undefined) {
    eld.setLanguageSubset(LANGS);
    out.push(['eld (extrasmall)', (t) => eld.detect(t).language || 'und']);
  }
  return out;
}

async function main(): Promise<void> {
  const split = process.argv.includes('--dev') ? 'dev' : 'eval';
  const sample = readSample(split);
  if (sample === null) throw new Error('sample not fetched: npx tsx bin/fetch-language-sample.ts');
  const modules = arg('modules');
  console.log(`| Detector (${split} split) | ${LANGS.join(' | ')} | overall |`);
  for (const [name, detect] of await detectors(modules)) {
    const { per, overall } = accuracy(sample, detect);
    console.log(`| ${name} | ${LANGS.map((l) => per[l].toFixed(2)).join(' | ')} | ${overall.toFixed(3)} |`);
  }
}

void main();
