// Which pooled alert severity model with words to ship (docs/decision-engine-severity.md, "Severity across sources: a
// pooled alert model with words"). Every option is fitted leaving one alert source out (15 fits per option); the figure
// a held-out source reports is that of the option with the best mean over the OTHER 14 sources' held-out figures (its
// own figure never chooses its fold), and the shipped option is the best mean over all 15.
//   npx tsx bin/severity-words-check.ts [sweep.txt]
// sweep.txt: what bin/severity-behaviour-sweep.sh printed (one option a line, with the behaviour tests that failed when
// its model was fitted on every source): the nested choice is then made among the options that failed none, and a
// fold whose choice an option left out of the sweep might have beaten says so (sweep it too).
// The score is approximated as the engine keeps it inside the band (severity.ts): the band from the rules' score plus
// the band model's points (the band model of the fold, bin/severity-folds.ts), then the rules' score plus the words
// model's clamped points, kept inside that band (the band model's points where the words model is silent);
// `npm run eval` gives the engine's own figures.
import './lexicon-index-check';
import { readFileSync } from 'node:fs';
import { severityFeatures } from '../lambdas/domain/engine';
import type { WordReading } from '../lambdas/domain/engine/severity-model';
import { modelPoints as engineModelPoints } from '../lambdas/domain/engine/severity';
import { priorityForScore } from '../lambdas/domain/decision';
import { DEFAULT_THRESHOLDS, bandOf } from '../lambdas/domain/policy';
import { foldEngineModels } from './severity-folds';
import { cachedBeside, cachedRows, type CachedRow } from './severity-features-cache';
import { ALERT_NOW, groupsOf, loadRankedAlerts, rankedSignal } from './severity-data';
import { fitRows, logitOf, type Fitted } from './severity-fit';
import { ALERT_FIT, type AlertFit } from './severity-alert-pooled';
import { spearman } from './eval/report';

const READINGS: Record<string, WordReading> = {
  'negated salted, placeholders dropped': { negated: 'salt', placeholders: 'drop' },
  'negated dropped, placeholders dropped': { negated: 'drop', placeholders: 'drop' },
};
const L2S = [30, 60, 120, 240, 480, 960];
const MIN_SOURCES = [1];
const POINTS: readonly [number, number][] = [
  [20, 20],
  [20, 40],
  [30, 30],
  [40, 40],
  [40, 60],
  [60, 60],
  [80, 80],
  [100, 100],
  [120, 120],
];
// Words alone never speak (needs a rule reason): the behaviour tests hold a bare template at the rules' score.
const GUARDS = [
  'none, needs a rule reason',
  'serious floor, needs a rule reason',
  'serious frozen, needs a rule reason',
] as const;

const clamp = (x: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, x));

function wordsOf(reading: WordReading): Record<string, number[]> {
  return cachedBeside(`alert words ${JSON.stringify(reading)} (template <x>)`, () => {
    const out: Record<string, number[]> = {};
    const now = new Date(ALERT_NOW);
    for (const r of loadRankedAlerts()) out[r.id] = severityFeatures(rankedSignal(r), now, reading).words;
    return out;
  });
}

/** Words seen in at least `k` of the rows' sources. */
function keepShared(rows: readonly CachedRow[], k: number): CachedRow[] {
  if (k <= 1) return [...rows];
  const sources = new Map<number, Set<string>>();
  for (const r of rows) for (const w of r.words) (sources.get(w) ?? sources.set(w, new Set()).get(w)!).add(r.group);
  return rows.map((r) => ({ ...r, words: r.words.filter((w) => sources.get(w)!.size >= k) }));
}

/**
 * The model's points for a row: clamped; where a stated serious problem was read, never below 0 (`serious floor`) or
 * none (`serious frozen`); with `needs a rule reason`, none where the rules read nothing (words alone say nothing).
 */
function modelPoints(m: Fitted, r: CachedRow, perLogit: number, max: number, guard: (typeof GUARDS)[number]) {
  if (guard.endsWith('needs a rule reason') && r.codes.length === 0) return null;
  if (guard.startsWith('serious frozen') && r.kept > 0) return null;
  const p = clamp(Math.round(logitOf(m, r) * perLogit), -max, max);
  return guard.startsWith('serious floor') && r.kept > 0 ? Math.max(0, p) : p;
}

const base = cachedRows().filter((r) => r.kind === 'alert');
const groups = groupsOf(base).filter((g) => new Set(base.filter((r) => r.group === g).map((r) => r.level)).size > 1);
/** Each row's band model points, from the band model of its fold (the one `npm run eval` scores it with). */
const band = new Map(
  groups.flatMap((g) => {
    const b = foldEngineModels('alert', g).severity!.alertBand!;
    return base.filter((r) => r.group === g).map((r) => [r.id, engineModelPoints(b, () => [], r) ?? 0] as const);
  }),
);
/** The score the engine gives: the words model's points (null: silent) kept inside the band model's band. */
const inBand = (r: CachedRow, points: number | null) => {
  const [lo, hi] = bandOf(priorityForScore(r.raw + band.get(r.id)!), DEFAULT_THRESHOLDS);
  return points === null ? r.raw + band.get(r.id)! : clamp(r.raw + points, lo, hi);
};
const rhoOf = (test: readonly CachedRow[], score: (r: CachedRow) => number) =>
  spearman(
    test.map((r) => clamp(score(r), 0, 100)),
    test.map((r) => r.level),
  );

/**
 * The options of a sweep's lines (`swept`) and those that failed no test (`admissible`), as `keys` writes them (the
 * sweep's defaults: ALERT_FIT).
 */
function sweptIn(sweep: string): { swept: Set<string>; admissible: Set<string> } {
  const out = new Set<string>();
  const swept = new Set<string>();
  for (const line of sweep.split('\n')) {
    const [json, tests] = line.split(' :: ');
    if (tests === undefined || !tests.includes('passed')) continue;
    const o = { ...ALERT_FIT, ...(JSON.parse(json) as Partial<AlertFit>) };
    const guard = `${o.serious === 'none' ? 'none' : `serious ${o.serious}`}${o.needsReason ? ', needs a rule reason' : ''}`;
    const key = [o.reading.negated, o.reading.placeholders, o.l2, o.perLogit, o.max, guard].join('|');
    swept.add(key);
    if (!tests.includes('failed')) out.add(key);
  }
  return { swept, admissible: out };
}

/** option name -> its key (the option as admissibleIn writes it). */
const keys = new Map<string, string>();
/** option name -> held-out rho per group. */
const figures = new Map<string, Map<string, number>>();
const put = (name: string, g: string, rho: number) =>
  (figures.get(name) ?? figures.set(name, new Map()).get(name)!).set(g, rho);

for (const g of groups) {
  const test = base.filter((r) => r.group === g);
  put(
    'rules alone',
    g,
    rhoOf(test, (r) => r.raw),
  );
  put(
    'the band model alone',
    g,
    rhoOf(test, (r) => inBand(r, null)),
  );
}
for (const [readingName, reading] of Object.entries(READINGS)) {
  const words = wordsOf(reading);
  const rows = base.map((r) => ({ ...r, words: words[r.id] }));
  for (const l2 of L2S)
    for (const k of MIN_SOURCES) {
      if (k > 1 && (readingName !== 'negated salted, placeholders dropped' || l2 > 60)) continue;
      for (const g of groups) {
        const train = keepShared(
          rows.filter((r) => r.group !== g),
          k,
        );
        const m = fitRows(train, { l2, epochs: 200, step: 0.3, useWords: true, sourcePower: 1, sourceBias: true });
        const test = rows.filter((r) => r.group === g);
        for (const [perLogit, max] of POINTS)
          for (const guard of GUARDS) {
            const name = `${readingName}; L2 ${l2}; words in >= ${k} sources; ${perLogit}/${max}; guard ${guard}`;
            if (k === 1) keys.set(name, [reading.negated, reading.placeholders, l2, perLogit, max, guard].join('|'));
            put(
              name,
              g,
              rhoOf(test, (r) => inBand(r, modelPoints(m, r, perLogit, max, guard))),
            );
          }
      }
      console.error(`${readingName} L2 ${l2} k ${k} done`);
    }
}
for (const g of groups) {
  const train = base.filter((r) => r.group !== g);
  const m = fitRows(train, { l2: 2, epochs: 200, step: 0.3, useWords: false, sourcePower: 1, sourceBias: true });
  put(
    'codes only, pooled; L2 2; 20/40',
    g,
    rhoOf(
      base.filter((r) => r.group === g),
      (r) => inBand(r, clamp(Math.round(logitOf(m, r, false) * 20), -40, 40)),
    ),
  );
}

const mean = (v: readonly number[]) => v.reduce((a, b) => a + b, 0) / v.length;
const summary = (per: ReadonlyMap<string, number>) => {
  const v = groups.map((g) => per.get(g)!);
  const s = [...v].sort((a, b) => a - b);
  return `worst ${s[0].toFixed(3)} median ${s[(s.length - 1) >> 1].toFixed(3)} mean ${mean(v).toFixed(3)}`;
};
const ranked = [...figures].sort((a, b) => mean([...b[1].values()]) - mean([...a[1].values()]));
for (const [name, per] of ranked) console.log(`${summary(per)}  ${name}`);

// Nested: each held-out group's figure from the option with the best mean over the other groups.
const nested = new Map<string, number>();
const sweep = process.argv[2] ? sweptIn(readFileSync(process.argv[2], 'utf8')) : null;
const candidates = [...figures].filter(([name]) => keys.has(name));
const options = candidates.filter(([name]) => sweep === null || sweep.admissible.has(keys.get(name)!));
console.log(`choosing among ${options.length} options`);
for (const g of groups) {
  const others = groups.filter((h) => h !== g);
  const best = options.reduce((a, b) =>
    mean(others.map((h) => b[1].get(h)!)) > mean(others.map((h) => a[1].get(h)!)) ? b : a,
  );
  nested.set(g, best[1].get(g)!);
  // The choice is the full grid's only if every option better on the other groups was swept (and failed a test).
  const bar = mean(others.map((h) => best[1].get(h)!));
  const unswept = candidates.filter(
    ([name, per]) =>
      sweep !== null && !sweep.swept.has(keys.get(name) ?? '') && mean(others.map((h) => per.get(h)!)) > bar,
  );
  const open = unswept.length ? `  (${unswept.length} better options not swept: ${unswept[0][0]}, ...)` : '';
  console.log(`${g.padEnd(40)} chosen without it: ${best[0]}  held out ${best[1].get(g)!.toFixed(3)}${open}`);
}
console.log(`nested (options chosen without the held-out source): ${summary(nested)}`);
const shipped = options.reduce((a, b) => (mean([...b[1].values()]) > mean([...a[1].values()]) ? b : a));
const unsweptBetter = candidates.filter(
  ([name, per]) =>
    sweep !== null && !sweep.swept.has(keys.get(name)!) && mean([...per.values()]) > mean([...shipped[1].values()]),
).length;
if (unsweptBetter) console.log(`${unsweptBetter} options better over all ${groups.length} not swept`);
console.log(`shipped option (best mean over all ${groups.length}): ${shipped[0]}: ${summary(shipped[1])}`);
