// The goal shown beside each figure, its PASS/MISS check, and the table that prints them.
import { type Figures, benchData, shown } from './common';
import { ENGINE_LAMBDAS } from './first-request';

interface Goal {
  /** Shown beside the figure. */
  text: string;
  /** PASS/MISS; figures without a check are context. */
  check?: (value: number) => boolean;
}

/** A goal as goals.json writes it: its text and at most one bound. */
interface GoalRow {
  text: string;
  atMost?: number;
  atLeast?: number;
  exactly?: number;
  below?: number;
}

const atMost = (limit: number) => (v: number) => v <= limit;
const exactly = (n: number) => (v: number) => v === n;

function checkOf(row: GoalRow): Goal['check'] {
  if (row.atMost !== undefined) return atMost(row.atMost);
  const { atLeast, below } = row;
  if (atLeast !== undefined) return (v) => v >= atLeast;
  if (row.exactly !== undefined) return exactly(row.exactly);
  if (below !== undefined) return (v) => v < below;
  return undefined;
}

/** Goal text (and check) shown beside each figure in the table: goals.json. */
const GOALS: Record<string, Goal> = Object.fromEntries(
  Object.entries(benchData<Record<string, GoalRow>>('goals.json')).map(([key, row]) => [
    key,
    { text: row.text, check: checkOf(row) },
  ]),
);

/** The goal text of each cost line's figures, by suffix. */
const COST_FIGURES = benchData<Record<string, string>>('cost-goals.json');

const ENGINE_BUNDLE_RATIOS = new Set(ENGINE_LAMBDAS.map((name) => `bundle_${name}_ratio`));
/** Per-Lambda bundle rows get their goal text from their suffix. */
export function goalFor(key: string): Goal | undefined {
  if (GOALS[key]) return GOALS[key];
  if (/^bundle_\w+_asset_gzip_kib$/.test(key))
    return { text: 'context: the whole asset, index.js and the lazy bundles beside it, gzip -9' };
  if (/^bundle_\w+_asset_ratio$/.test(key))
    return {
      text: 'context: the whole asset / the reference (the size goals read index.js; the lazy X-Ray client loads only when tracing sends)',
    };
  if (/^bundle_\w+_gzip_kib$/.test(key)) return { text: 'cdk synth asset index.js, gzip -9' };
  if (/^bundle_\w+_kib$/.test(key)) return { text: 'cdk synth asset index.js, minified' };
  if (/^init_\w+_ms$/.test(key)) return { text: 'module init, median' };
  if (/^weight_\w+_kib$/.test(key))
    return { text: 'context: what this part weighs in the analyze bundle (minified bytes in output)' };
  // Issue 31: the Lambdas that bundle the decision engine may grow to 2.0x where a model file pays for it in the eval.
  if (ENGINE_BUNDLE_RATIOS.has(key))
    return { text: '<= 2.0 (index.js: bundles the engine and its models)', check: atMost(2) };
  if (/^bundle_\w+_ratio$/.test(key)) return { text: '<= 1.5 (index.js)', check: atMost(1.5) };
  if (/^init_\w+_ratio$/.test(key)) return { text: '<= 1.25', check: atMost(1.25) };
  if (/^first_request_\w+_call_ms$/.test(key)) return { text: 'context: the first request alone, after module load' };
  if (/^first_request_\w+_ms$/.test(key)) return { text: 'module load plus the first request, median' };
  if (/^first_request_\w+_ratio$/.test(key))
    return { text: "<= 1.25 (module load plus the first request / the reference's)", check: atMost(1.25) };
  const cost =
    /^cost_(\w+?)_(usd_per_million|floor_usd_per_million|floor_ratio|write_units|read_units|billed_ms_authorizer|billed_ms_route|log_bytes|log_events|calls_measured|calls_failed)$/.exec(
      key,
    );
  if (cost)
    return {
      text: COST_FIGURES[cost[2]] ?? '',
      ...(cost[2] === 'calls_failed' ? { check: exactly(0) } : {}),
    };
  return undefined;
}

/** The figures with a goal, as the markdown table docs/performance.md shows under "Latest figures". */
export function markdownTable(results: Figures, heading: string): string {
  const rows = Object.entries(results).flatMap(([k, v]) => {
    const goal = goalFor(k);
    // The machine's own speed, so a reader can tell a loaded machine from a slow build.
    if (k === 'machine_char_loop_ns_per_char') return [`| \`${k}\` | ${goal?.text ?? ''} | ${shown(v)} | |`];
    if (!goal?.check || k === 'goals_missed') return [];
    return [
      `| \`${k}\` | ${goal.text.replaceAll('|', '\\|')} | **${shown(v)}** | ${goal.check(v) ? 'PASS' : 'MISS'} |`,
    ];
  });
  const missed = `Goals missed: ${results.goals_missed ?? 0}.`;
  return [heading, '', '| Figure | Goal | Now | |', '|---|---|---|---|', ...rows, '', missed].join('\n');
}

export function printTable(results: Figures): void {
  const rows = Object.entries(results).map(([k, v]) => {
    const goal = goalFor(k);
    const status = goal?.check ? (goal.check(v) ? 'PASS' : 'MISS') : '';
    return [k, shown(v), status, goal?.text ?? ''];
  });
  const heads = ['figure', 'value', 'status', 'goal'];
  const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i].length), heads[i].length));
  const line = (r: string[]) =>
    console.log(`${r[0].padEnd(widths[0])}  ${r[1].padStart(widths[1])}  ${r[2].padEnd(widths[2])}  ${r[3]}`.trimEnd());
  line(heads);
  line(widths.map((w) => '-'.repeat(w)));
  rows.forEach(line);
}
