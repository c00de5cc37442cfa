// Computes once what the severity model reads for every ranked row (bin/severity-data.ts): word buckets, the rule
// reasons' codes and points, and the score without the model. Cached in the system's temporary folder under a hash of
// the engine's sources and the data files' sizes, so a change to the rules or the data computes it again.
import { tmpdir } from 'node:os';
import path from 'node:path';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { parseToolSettings } from '../lambdas/contract/settings';
import { BASE_SCORE, scoreSignal } from '../lambdas/domain/engine';
import { severityFeatures } from '../lambdas/domain/engine';
import { dataDir, fnv1a } from './data-splits';
import { ALERT_NOW, loadRankedAlerts, loadRankedBugs, rankedSignal, type RankedRow } from './severity-data';

export interface CachedRow extends Omit<RankedRow, 'subject' | 'body'> {
  words: number[];
  codes: string[];
  points: number;
  kept: number;
  /** BASE_SCORE plus every reason's points, without the severity model (not clamped). */
  raw: number;
}

const cacheDir = () => parseToolSettings(process.env).severityCacheDir ?? path.join(tmpdir(), 'sas-severity');
const NOW = new Date(ALERT_NOW);

const ENGINE = path.resolve(__dirname, '../lambdas/domain/engine');
const DATA = ['alert-rules-dev.jsonl', 'alert-rules-more.jsonl', 'bug-reports-dev.jsonl', 'bug-reports-more.jsonl'];

function cacheKey(): string {
  let text = DATA.map((f) => `${f}:${statSync(path.join(dataDir(), f)).size}`).join(',');
  for (const f of readdirSync(ENGINE).sort())
    if (f.endsWith('.ts') || f === 'spam-model.json' || f === 'severity-model.json')
      text += readFileSync(path.join(ENGINE, f), 'utf8');
  return fnv1a(text).toString(16);
}

/** A value computed from the cached rows, cached beside them under `name` (which must say what else it depends on). */
export function cachedBeside<T>(name: string, compute: () => T): T {
  const dir = cacheDir();
  const file = path.join(dir, `${cacheKey()}-${fnv1a(name).toString(16)}.json`);
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as T;
  const value = compute();
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, JSON.stringify(value));
  return value;
}

export function cachedRows(): CachedRow[] {
  const dir = cacheDir();
  const file = path.join(dir, `features-${cacheKey()}.json`);
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as CachedRow[];
  const out: CachedRow[] = [];
  for (const r of [...loadRankedAlerts(), ...loadRankedBugs()]) {
    const signal = rankedSignal(r);
    const f = severityFeatures(signal, NOW);
    const raw = BASE_SCORE + scoreSignal(signal, NOW, { severity: null }).reasons.reduce((s, x) => s + x.weight, 0);
    const { subject: _s, body: _b, ...rest } = r;
    out.push({ ...rest, ...f, raw });
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, JSON.stringify(out));
  return out;
}

if (require.main === module) {
  const t = Date.now();
  const rows = cachedRows();
  console.log(`${rows.length} rows in ${Date.now() - t} ms`);
}
