// Small pieces every section uses: the figures type, rounding, percentiles, progress lines, the repository root.
import path from 'node:path';

export type Figures = Record<string, number>;

export const round2 = (x: number) => Math.round(x * 100) / 100;
export const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

export const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** Progress lines go to stderr, so that `--json` leaves exactly one JSON object on stdout. */
export const progress = (line: string): void => console.error(line);
