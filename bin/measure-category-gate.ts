// What a stricter gate for the learned category (predict.ts, predictField) would let through and cost
// (docs/decision-engine-experiments.md, "The learned category on small histories (cat31, not built)"). A review found a
// workspace taught a few invoices ("Please find attached our supplier invoice") giving `supplier_invoice` to "Holiday
// photos / Photos attached, enjoy!": one shared everyday word carries a three-word message over the shipped gate.
// Two added tests, each on top of the shipped gate: the best label's text evidence per feature minus generic text's
// (background.ts) at least `b`, or at least a share `s` of the signal's features held by the best label's teaching.
// Rates on the teaching pool (one intent's queries taught; like: more of that intent, unlike: other intents' queries
// and Enron mail and ordinary SMS), then the eval's curve on held-out queries (every 5th line, a third of them) as the
// check. Report only; nothing is chosen here.
//   npx tsx bin/measure-category-gate.ts [--format=1]
import './lexicon-index-check';
import { banking77Rows, categoryName, fnv1a } from './data-splits';
import { applyDeltas, emptyModel, type WorkspaceModel } from '../lambdas/domain/learning/model';
import { labelDeltas } from '../lambdas/domain/learning/label-delta';
import { labelScores, predictField } from '../lambdas/domain/learning/predict';
import { sketchSignal } from '../lambdas/domain/learning/sketch';
import { backgroundPerFeature } from '../lambdas/domain/learning/background';
import { evalSketchKey } from './eval/warm-sources';
import { UNLIKE } from './eval/unlike-samples';

type Text = { subject?: string; body?: string; sender?: string };
interface Read {
  label: string;
  /** Text evidence per feature minus generic text's. */
  overGeneric: number;
  /** Share of the signal's features the label's teaching holds. */
  shared: number;
}
const TESTS: { name: string; passes: (r: Read) => boolean }[] = [
  { name: 'shipped', passes: () => true },
  ...[0, 0.2, 0.4].map((b) => ({ name: `generic +${b}`, passes: (r: Read) => r.overGeneric >= b })),
  ...[0.3, 0.35, 0.4].map((s) => ({ name: `shared ${s}`, passes: (r: Read) => r.shared >= s })),
];
const format1 = process.argv.includes('--format=1');
const key = format1 ? { ...evalSketchKey('category gate'), format: 1 as const } : evalSketchKey('category gate');

function model(examples: readonly { text: Text; label: string }[]): WorkspaceModel {
  const m = emptyModel();
  applyDeltas(
    m,
    labelDeltas(examples.map((e) => ({ sketch: sketchSignal(key, e.text), labels: { category: e.label } }))),
  );
  return m;
}

/** The shipped gate's learned category with the added tests' figures; undefined when the shipped gate says no. */
function read(m: WorkspaceModel, text: Text): Read | undefined {
  const sketch = sketchSignal(key, text);
  const p = predictField(m, 'category', sketch);
  if (!p) return undefined;
  const score = labelScores(m, 'category', sketch, null)!.find((s) => s.label === p.label)!;
  const counts = m.labels.find((l) => l.field === 'category' && l.label === p.label)!;
  const shared = sketch.t.filter((b) => (counts.text.get(b) ?? 0) > 0).length / Math.max(1, sketch.t.length);
  return { label: p.label, overGeneric: score.textPerFeature - backgroundPerFeature(text), shared };
}
const rate = (reads: readonly (Read | undefined)[], passes: (r: Read) => boolean) =>
  (reads.filter((r) => r !== undefined && passes(r)).length / reads.length).toFixed(3);
const row = (name: string, cells: string[]) => console.log(`| ${name} | ${cells.join(' | ')} |`);

const rows = banking77Rows()
  .filter((r) => r.length === 2 && r[0].trim())
  .map(([body, c]) => ({ body, label: categoryName(c) }));
const pool = rows.filter((_, i) => (i + 1) % 5 !== 0);
const held = rows.filter((_, i) => (i + 1) % 5 === 0 && i % 3 === 0);

console.log(`Sketch format ${format1 ? 1 : 2}. Let through (like / other intents / mail), then held-out accuracy`);
row(
  'history',
  TESTS.map((t) => t.name),
);
console.log(`|---|${TESTS.map(() => '---|').join('')}`);
const intents = [...new Set(pool.map((r) => r.label))].sort((a, b) => fnv1a(a) - fnv1a(b)).slice(0, 20);
const mail = [...UNLIKE.enron().slice(0, 40), ...UNLIKE.sms().slice(0, 40)];
for (const size of [1, 3, 5, 10, 20, 50]) {
  const like: (Read | undefined)[] = [];
  const other: (Read | undefined)[] = [];
  const generic: (Read | undefined)[] = [];
  for (const intent of intents) {
    const mine = pool.filter((r) => r.label === intent);
    const m = model(mine.slice(0, size).map((e) => ({ text: { body: e.body }, label: e.label })));
    for (const r of mine.slice(size, size + 30)) like.push(read(m, { body: r.body }));
    const others = pool.filter((r) => r.label !== intent && fnv1a(`${intent}:${r.body}`) % 200 === 0);
    for (const r of others.slice(0, 30)) other.push(read(m, { body: r.body }));
    for (const t of mail) generic.push(read(m, t));
  }
  row(
    `one intent, ${size} taught`,
    TESTS.map((t) => `${rate(like, t.passes)} / ${rate(other, t.passes)} / ${rate(generic, t.passes)}`),
  );
}
for (const k of [1, 2, 5, 10, 20, Infinity]) {
  const seen = new Map<string, number>();
  const taught = pool.filter((e) => {
    const n = seen.get(e.label) ?? 0;
    seen.set(e.label, n + 1);
    return n < k;
  });
  const m = model(taught.map((e) => ({ text: { body: e.body }, label: e.label })));
  const reads = held.map((e) => ({ r: read(m, { body: e.body }), want: e.label }));
  row(
    `all intents, ${k === Infinity ? 'the whole pool' : `${k} each`}: held out right`,
    TESTS.map((t) =>
      (reads.filter(({ r, want }) => r !== undefined && t.passes(r) && r.label === want).length / reads.length).toFixed(
        3,
      ),
    ),
  );
}

// The review's case: the figures of each probe under 1 to 20 copies of one supplier's invoice.
const probes: Text[] = [
  { subject: 'Holiday photos', body: 'Photos attached, enjoy!', sender: 'mum@gmail.com' },
  { subject: 'Invoice 7781', body: 'Attached is the invoice for last month.' },
];
for (const n of [1, 3, 6, 20]) {
  const invoices = Array.from({ length: n }, (_, i) => ({
    text: {
      subject: `Supplier invoice ${i + 100}`,
      body: 'Please find attached our supplier invoice for the delivered parts.',
      sender: 'billing@supplier.example',
    },
    label: 'supplier_invoice',
  }));
  const m = model(invoices);
  const figures = probes.map((p) => {
    const r = read(m, p);
    return `${p.subject}: ${r ? `generic ${r.overGeneric.toFixed(2)}, shared ${r.shared.toFixed(2)}` : 'global'}`;
  });
  console.log(`${n} invoices taught: ${figures.join('; ')}`);
}
