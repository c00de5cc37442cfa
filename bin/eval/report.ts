// Small helpers shared by the eval sections: counting, rounding, and a figure printed beside its goal.
export type Counts = Record<string, number>;

export const inc = (c: Counts, k: string) => {
  c[k] = (c[k] ?? 0) + 1;
};
export const round = (x: number, d = 4) => Math.round(x * 10 ** d) / 10 ** d;
export const pct = (n: number, total: number) => `${((100 * n) / Math.max(total, 1)).toFixed(1)}%`;

export function fmtCounts(c: Counts, order: readonly string[] | null, total: number): string {
  const keys = order ? order.filter((k) => c[k]) : Object.keys(c).sort((a, b) => c[b] - c[a] || (a < b ? -1 : 1));
  return keys.map((k) => `${k} ${c[k]} (${pct(c[k], total)})`).join(', ');
}

export interface Figure {
  name: string;
  value: number;
  goal: string;
  /** PASS/MISS; absent for context figures. */
  pass?: boolean;
}

export const figure = (name: string, value: number, goal: string, check?: (v: number) => boolean): Figure => ({
  name,
  value: round(value),
  goal,
  pass: check ? check(value) : undefined,
});

export function printFigures(title: string, figures: Figure[]): void {
  console.log(title);
  for (const f of figures) {
    const verdict = f.pass === undefined ? '' : f.pass ? 'PASS' : 'MISS';
    console.log(`  ${f.name.padEnd(52)} ${String(f.value).padStart(8)}   ${f.goal.padEnd(26)} ${verdict}`);
  }
}
