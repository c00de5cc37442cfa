// Which pooled alert severity model with words to ship (docs/decision-engine.md, "Severity across sources: a pooled
// alert model with words"). Every option is fitted leaving one alert source out (15 fits per option); the figure a
// held-out source reports is that of the option with the best mean over the OTHER 14 sources' held-out figures (its own
// figure never chooses its fold), and the shipped option is the best mean over all 15.
//   npx tsx bin/severity-words-check.ts [sweep.txt]
// sweep.txt: what bin/severity-behaviour-sweep.sh printed (one option a line, with the behaviour tests that failed when
// its model was fitted on every source): the nested choice is then made among the options that failed none.
// The score is approximated as the rules' score plus the model's clamped points (the engine adds them the same way);
// `npm run eval` gives the engine's own figures.
import { readFileSync } from 'node:fs';
import { severityFeatures } from '../lambdas/domain/engine';
import type { WordReading } from '../lambdas/domain/engine/severity-model';
import { cachedBeside, cachedRows, type CachedRow } from './severity-features-cache';
import { ALERT_NOW, groupsOf, loadRankedAlerts, rankedSignal } from './severity-data';
import { fitRows, logitOf, type Fitted } from './severity-fit';
import { ALERT_FIT, type AlertFit } from './severity-alert-pooled';
import { spearman } from './eval/report';

const READINGS: Record<string, WordReading> = {
  plain: { negated: 'keep', placeholders: 'keep' },
  'placeholders dropped': { negated: 'keep', placeholders: 'drop' },
  'negated salted': { negated: 'salt', placeholders: 'keep' },
  'negated salted, placeholders dropped': { negated: 'salt', placeholders: 'drop' },
  'negated dropped, placeholders dropped': { negated: 'drop', placeholders: 'drop' },
};
const L2S = [30, 60, 120, 240, 480, 960];
const MIN_SOURCES = [1, 3];
const POINTS: readonly [number, number][] = [
  [20, 20],
  [20, 40],
  [30, 30],
  [40, 40],
  [40, 60],
  [60, 60],
  [80, 80],
];
const GUARDS = [
  'none',
  'serious floor',
  'serious floor, needs a rule reason',
  'serious frozen',
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
  if (guard.endsWith('needs a rule reason') && r.codes.length === 0) return 0;
  if (guard.startsWith('serious frozen') && r.kept > 0) return 0;
  const p = clamp(Math.round(logitOf(m, r) * perLogit), -max, max);
  return guard !== 'none' && r.kept > 0 ? Math.max(0, p) : p;
}

const base = cachedRows().filter((r) => r.kind === 'alert');
const groups = groupsOf(base).filter((g) => new Set(base.filter((r) => r.group === g).map((r) => r.level)).size > 1);
const rhoOf = (test: readonly CachedRow[], score: (r: CachedRow) => number) =>
  spearman(
    test.map((r) => clamp(score(r), 0, 100)),
    test.map((r) => r.level),
  );

/** The options of a sweep's lines that failed no test, as `keys` writes them (the sweep's defaults: ALERT_FIT). */
function admissibleIn(sweep: string): Set<string> {
  const out = new Set<string>();
  for (const line of sweep.split('\n')) {
    const [json, tests] = line.split(' :: ');
    if (tests === undefined || !tests.includes('passed') || tests.includes('failed')) continue;
    const o = { ...ALERT_FIT, ...(JSON.parse(json) as Partial<AlertFit>) };
    const guard = o.serious === 'none' ? 'none' : `serious ${o.serious}${o.needsReason ? ', needs a rule reason' : ''}`;
    out.add([o.reading.negated, o.reading.placeholders, o.l2, o.perLogit, o.max, guard].join('|'));
  }
  return out;
}

/** option name -> its key (the option as admissibleIn writes it). */
const keys = new Map<string, string>();
/** option name -> held-out rho per group. */
const figures = new Map<string, Map<string, number>>();
const put = (name: string, g: string, rho: number) =>
  (figures.get(name) ?? figures.set(name, new Map()).get(name)!).set(g, rho);

for (const g of groups)
  put(
    'rules alone',
    g,
    rhoOf(
      base.filter((r) => r.group === g),
      (r) => r.raw,
    ),
  );
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
              rhoOf(test, (r) => r.raw + modelPoints(m, r, perLogit, max, guard)),
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
      (r) => r.raw + clamp(Math.round(logitOf(m, r, false) * 20), -40, 40),
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
const admissible = process.argv[2] ? admissibleIn(readFileSync(process.argv[2], 'utf8')) : null;
const options = [...figures].filter(
  ([name]) => name !== 'rules alone' && (admissible === null || admissible.has(keys.get(name) ?? '')),
);
console.log(`choosing among ${options.length} options`);
for (const g of groups) {
  const others = groups.filter((h) => h !== g);
  const best = options.reduce((a, b) =>
    mean(others.map((h) => b[1].get(h)!)) > mean(others.map((h) => a[1].get(h)!)) ? b : a,
  );
  nested.set(g, best[1].get(g)!);
  console.log(`${g.padEnd(40)} chosen without it: ${best[0]}  held out ${best[1].get(g)!.toFixed(3)}`);
}
console.log(`nested (options chosen without the held-out source): ${summary(nested)}`);
const shipped = options.reduce((a, b) => (mean([...b[1].values()]) > mean([...a[1].values()]) ? b : a));
console.log(`shipped option (best mean over all ${groups.length}): ${shipped[0]}: ${summary(shipped[1])}`);
