// Chooses the ticket mapping from the bug model's log-odds to score points (points per unit, the offset, the bound)
// inside TIMOB only (2-fold CV by id hash, as bin/train-confidence.ts cross-fits): per variant, out-of-fold rho with
// the tracker priority, the share of reports whose band fits it (as bin/eval/labeled.ts defines "right"), the shares in
// `low`, high or critical, critical and at 100, whether the hand-written ticket ordering (test/unit/engine-alerts.test.ts)
// holds with the model fitted on all of TIMOB, and how many hand-written tickets land in a band their label fits.
//   npx tsx bin/severity-band-check.ts [--affine=50,25,60;40,20,60] [--hand]
//   --test also scores the test projects with the shipped model: only to report a choice already made.
import { scoreSignal, severityFeatures } from '../lambdas/domain/engine';
import { shippedSeverityModels, severityLogit, type SeverityModel } from '../lambdas/domain/engine/severity-model';
import type { Signal } from '../lambdas/domain/signal';
import { BUG_LEVEL, fnv1a, loadBugs } from './data-splits';
import { TICKET_CASES, ticketSignal, TICKET_LEVEL } from './eval/hand-written-cases';
import { bugSignal, FIXED_NOW } from './eval/labeled';
import { spearman } from './eval/report';
import { bugExample, fitBugModel, severityModelOf } from './train-severity-model';

interface Ticket {
  level: number;
  /** 20 + every reason's points without the model (the score before clamping). */
  raw: number;
  points: number;
  /** The model's log-odds minus its bias. */
  z: number;
  signal: Signal;
}

function ticket(signal: Signal, level: number, model: SeverityModel): Ticket {
  const { reasons } = scoreSignal(signal, FIXED_NOW, { severity: null });
  const raw = 20 + reasons.reduce((s, r) => s + r.weight, 0);
  const f = severityFeatures(signal, FIXED_NOW);
  const z = severityLogit(model, f.words, f.codes, f.points) - model.bias;
  return { level, raw, points: f.points, z, signal };
}

/** A mapping from log-odds (minus bias) to points over BASE_SCORE before the kept points. */
type Mapping = (z: number) => number;
const affine =
  (a: number, c: number): Mapping =>
  (z) =>
    a * z + c;

function scoreOf(t: Ticket, g: Mapping, max: number): number {
  const m = Math.max(-max, Math.min(max, Math.round(g(t.z) - t.points)));
  return Math.max(0, Math.min(100, t.raw + m));
}
const band = (s: number) => (s >= 80 ? 'critical' : s >= 60 ? 'high' : s >= 35 ? 'medium' : 'low');
const FITS: Record<number, string[]> = {
  5: ['critical', 'high'],
  4: ['critical', 'high'],
  3: ['medium'],
  2: ['medium', 'low'],
  1: ['medium', 'low'],
};
function figures(ts: readonly Ticket[], g: Mapping, max: number) {
  const s = ts.map((t) => scoreOf(t, g, max));
  const fit = ts.filter((t, i) => FITS[t.level].includes(band(s[i]))).length / ts.length;
  const low = s.filter((x) => x < 35).length / ts.length;
  const high = s.filter((x) => x >= 60).length / ts.length;
  const critical = s.filter((x) => x >= 80).length / ts.length;
  const top = s.filter((x) => x === 100).length / ts.length;
  return {
    rho: spearman(
      s,
      ts.map((t) => t.level),
    ),
    fit,
    low,
    high,
    critical,
    top,
  };
}
const median = (v: number[]) => {
  const s = [...v].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
function orderingHolds(hand: readonly Ticket[], g: Mapping, max: number): boolean {
  const of = (l: number) => hand.filter((t) => t.level === l).map((t) => scoreOf(t, g, max));
  const [h, m, l] = [of(3), of(2), of(1)];
  return median(h) > median(m) && median(m) > median(l) && Math.min(...h) >= median(m) && Math.max(...l) < median(m);
}

const timob = loadBugs().filter((r) => r.split === 'train');
console.log(
  'TIMOB priorities:',
  ['Critical', 'High', 'Medium', 'Low', 'Trivial']
    .map((p) => `${p} ${timob.filter((r) => r.priority === p).length}`)
    .join(', '),
);
const oof: Ticket[] = [];
for (const k of [0, 1]) {
  const inFold = (id: string) => fnv1a(id) % 2 === k;
  const m = severityModelOf(fitBugModel(timob.filter((r) => !inFold(r.id)).map(bugExample), 'fold'));
  for (const r of timob.filter((x) => inFold(x.id))) oof.push(ticket(bugSignal(r), BUG_LEVEL[r.priority], m));
}
const full = severityModelOf(fitBugModel(timob.map(bugExample), 'TIMOB'));
const hand = TICKET_CASES.map((c) => ticket(ticketSignal(c), TICKET_LEVEL[c.label], full));
// The plain tasks of the scorer's behaviour table (test/unit/scorer.test.ts): they must keep their bands.
const due = (h: number) => new Date(FIXED_NOW.getTime() + h * 3_600_000).toISOString();
const PLAIN_TASKS: [string, string, number, string][] = [
  ['Renew TLS certificate for shop.example.com', '', -20, 'medium'],
  ['Send board deck to finance', '', 6, 'medium'],
  ['Review Q4 hiring plan', '', 48, 'low'],
  ['Plan team offsite', '', 24 * 30, 'low'],
  ['Fix checkout bug reported by ACME', 'Checkout is broken for Safari users.', 8, 'medium'],
];
const plain = PLAIN_TASKS.map(([subject, body, h, want]) => {
  const signal: Signal = { workspace_id: 'check', source: 'task', received_at: FIXED_NOW.toISOString(), subject };
  if (body) signal.body = body;
  signal.metadata = { due_at: due(h) };
  return { t: ticket(signal, 0, full), want };
});
const plainKept = (g: Mapping, max: number) => plain.filter((p) => band(scoreOf(p.t, g, max)) === p.want).length;
const test = process.argv.includes('--test')
  ? loadBugs()
      .filter((r) => r.split === 'test')
      .map((r) => ticket(bugSignal(r), BUG_LEVEL[r.priority], shippedSeverityModels().bug))
  : [];

// Check the analytic score against the engine for the shipped mapping.
{
  let off = 0;
  for (const t of hand) {
    const real = scoreSignal(t.signal, FIXED_NOW, {
      severity: { alert: shippedSeverityModels().alert, bug: full },
    }).score;
    if (real !== scoreOf(t, affine(full.perLogit, full.offset), full.max)) off++;
  }
  console.log(`analytic score differs from the engine on ${off} of ${hand.length} hand-written tickets`);
}

const fmt = (x: number) => x.toFixed(3);
function report(name: string, g: Mapping, max: number) {
  const o = figures(oof, g, max);
  const h = orderingHolds(hand, g, max);
  // The hand-written tickets' labels as tracker levels: high fits high/critical, medium medium, low low/medium.
  const handFit = hand.filter((t) => FITS[[0, 1, 3, 5][t.level]].includes(band(scoreOf(t, g, max)))).length;
  const hs = hand.map((t) => `${t.level}:${scoreOf(t, g, max)}`).join(' ');
  let line = `${name.padEnd(28)} cv rho ${fmt(o.rho)} fit ${fmt(o.fit)} low ${fmt(o.low)} high+ ${fmt(o.high)} crit ${fmt(o.critical)} at100 ${fmt(o.top)} order ${h ? 'kept' : 'BROKEN'} hand fit ${handFit}/${hand.length} plain tasks ${plainKept(g, max)}/${plain.length}`;
  if (test.length) {
    const t = figures(test, g, max);
    line += ` | test rho ${fmt(t.rho)} fit ${fmt(t.fit)} low ${fmt(t.low)}`;
  }
  console.log(line);
  if (process.argv.includes('--hand')) console.log('   ', hs);
}

const spec = process.argv.find((a) => a.startsWith('--affine='));
if (spec) {
  for (const v of spec.slice(9).split(';')) {
    const [a, c, max] = v.split(',').map(Number);
    report(`affine ${a},${c},${max}`, affine(a, c), max);
  }
} else {
  report('no offset 50,0,60', affine(50, 0), 60);
  for (const c of [10, 15, 20, 25, 30, 35]) report(`offset 50,${c},60`, affine(50, c), 60);
  for (const a of [30, 40, 60]) for (const c of [20, 25, 30]) report(`slope ${a},${c},60`, affine(a, c), 60);
}
