// Small pieces every section uses: the figures type, rounding, percentiles, timing, progress lines, the repository root.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { dataDir } from '../data-splits';
import { mulberry32 } from '../seeded-random';

export type Figures = Record<string, number>;

/**
 * A figure as the tables show it (up to 3 decimals). Figures are kept unrounded: a goal is judged on the value, so
 * 1.3046 against "<= 1.3" is a miss, shown as 1.305.
 */
export const shown = (x: number) => x.toLocaleString('en-US', { maximumFractionDigits: 3 });

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Wall time of `run`, in milliseconds. */
export async function wallMs(run: () => Promise<unknown>): Promise<number> {
  const t = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - t) / 1e6;
}

/** CPU time (user + system) of this process while `run` runs, in milliseconds. */
export async function cpuMs(run: () => unknown): Promise<number> {
  const start = process.cpuUsage();
  await run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** `xs` in a seeded shuffled order, the same every run. */
export function shuffled<T>(xs: readonly T[], seed: number): T[] {
  const rnd = mulberry32(seed);
  return xs
    .map((x) => [rnd(), x] as const)
    .sort((a, b) => a[0] - b[0])
    .map(([, x]) => x);
}

export const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** A JSON file of data beside the bench's code. */
export const benchData = <T>(name: string): T => JSON.parse(readFileSync(path.join(__dirname, name), 'utf8')) as T;

/** A file of the shared data sets (../shared/data or $SAS_DATA_DIR), or '' when it is not there. */
export function readDataFile(name: string): string {
  try {
    return readFileSync(path.join(dataDir(), name), 'utf8');
  } catch {
    return '';
  }
}

/** Progress lines go to stderr, so that `--json` leaves exactly one JSON object on stdout. */
export const progress = (line: string): void => console.error(line);
