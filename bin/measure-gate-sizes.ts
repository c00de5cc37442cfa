// What "like the history" (PRIORITY_LIKE_HISTORY, predict.ts) lets through for histories of 1 to 100 taught signals,
// and what a stricter test for small histories would cost (docs/decision-engine-experiments.md, "Warm: small
// histories (small31, not built)"). A history's text is smoothed over 16,384 buckets, so while it is small a word it
// lacks costs a signal almost nothing and any shared everyday word counts for it. The stricter test moves the generic
// text allowance (-0.3) up by `slope` per decade of history under 100 signals. Measured on the teaching side only:
// BANKING77's teaching pool (a history of one intent's queries; like: more queries of that intent; unlike: other
// intents' queries) and the taught halves of the 23 warm sources (like: more of the source's signals; unlike: another
// source's of the same kind, the other kind's, and Enron mail and ordinary SMS). Report only; nothing is chosen here.
//   npx tsx bin/measure-gate-sizes.ts
import './lexicon-index-check';
import { banking77Rows, categoryName, fnv1a } from './data-splits';
import { applyDeltas, emptyModel, type WorkspaceModel } from '../lambdas/domain/learning/model';
import { labelDeltas } from '../lambdas/domain/learning/label-delta';
import { labelScores } from '../lambdas/domain/learning/predict';
import { sketchSignal } from '../lambdas/domain/learning/sketch';
import { backgroundPerFeature } from '../lambdas/domain/learning/background';
import { PRIORITY_LIKE_HISTORY } from '../lambdas/domain/learning/learned-priority';
import { decisionsByFold } from './severity-folds';
import { UNLIKE } from './eval/unlike-samples';

/** A signal's text, as the sketch reads it. */
type Text = { subject?: string; body?: string };
import { decisionText, evalSketchKey, warmHalves } from './eval/warm-sources';

const SIZES = [1, 3, 5, 10, 20, 50, 100];
const SLOPES = [0, 0.1, 0.2, 0.3, 0.4, 0.5];
const key = evalSketchKey('gate sizes');

function history(texts: readonly Text[]): WorkspaceModel {
  const m = emptyModel();
  applyDeltas(m, labelDeltas(texts.map((t) => ({ sketch: sketchSignal(key, t), labels: { priority: 'low' } }))));
  return m;
}

/** The test's two figures for one text under one history: evidence per feature, and that minus generic text's. */
function read(model: WorkspaceModel, text: Text) {
  const scores = labelScores(model, 'priority', sketchSignal(key, text), null)!;
  const top = Math.max(...scores.map((s) => s.textPerFeature));
  return { top, overGeneric: top - backgroundPerFeature(text), docs: scores.reduce((a, s) => a + s.docs, 0) };
}
type Read = ReturnType<typeof read>;

const { bar, perSizeDecade, background } = PRIORITY_LIKE_HISTORY;
const passes = (r: Read, slope: number) =>
  r.top >= bar + perSizeDecade * Math.max(0, Math.log10(r.docs / 100)) &&
  r.overGeneric >= background! + slope * Math.max(0, Math.log10(100 / r.docs));
const rate = (rows: readonly Read[], slope: number) => rows.filter((r) => passes(r, slope)).length / rows.length;

function print(name: string, size: number, like: readonly Read[], unlike: Record<string, readonly Read[]>) {
  const cells = SLOPES.map(
    (s) =>
      `${rate(like, s).toFixed(3)} / ${Object.values(unlike)
        .map((rows) => rate(rows, s).toFixed(3))
        .join(' / ')}`,
  );
  console.log(`| ${name}, ${size} taught | ${cells.join(' | ')} |`);
}

function banking() {
  const rows = banking77Rows()
    .filter((r, i) => r.length === 2 && r[0].trim() && (i + 1) % 5 !== 0)
    .map(([body, c]) => ({ body, intent: categoryName(c) }));
  const intents = [...new Set(rows.map((r) => r.intent))].sort((a, b) => fnv1a(a) - fnv1a(b)).slice(0, 20);
  for (const size of SIZES) {
    const like: Read[] = [];
    const unlike: Read[] = [];
    for (const intent of intents) {
      const mine = rows.filter((r) => r.intent === intent);
      const model = history(mine.slice(0, size));
      for (const r of mine.slice(size, size + 30)) like.push(read(model, r));
      const others = rows.filter((r) => r.intent !== intent && fnv1a(`${intent}:${r.body}`) % 200 === 0);
      for (const r of others.slice(0, 30)) unlike.push(read(model, r));
    }
    print('BANKING77 intent', size, like, { 'other intents': unlike });
  }
}

function sources() {
  const all = decisionsByFold();
  const groups = [...new Set(all.map((d) => d.group))];
  const taught = new Map(
    groups.map((g) => [
      g,
      warmHalves(
        all.filter((d) => d.group === g),
        decisionText,
      ).taught,
    ]),
  );
  const mail = [...UNLIKE.enron().slice(0, 30), ...UNLIKE.sms().slice(0, 30)];
  for (const size of SIZES) {
    const like: Read[] = [];
    const unlike: Record<string, Read[]> = { 'same kind': [], 'other kind': [], mail: [] };
    for (const group of groups) {
      const mine = [...taught.get(group)!].sort((a, b) => fnv1a(`s:${a.id}`) - fnv1a(`s:${b.id}`));
      if (mine.length < size + 20) continue;
      const model = history(mine.slice(0, size).map((d) => d.signal));
      for (const d of mine.slice(size, size + 40)) like.push(read(model, d.signal));
      const elsewhere = groups.filter((g) => g !== group).flatMap((g) => taught.get(g)!);
      const pick = (kind: 'same' | 'other') =>
        elsewhere
          .filter((d) => (d.kind === mine[0].kind) === (kind === 'same') && fnv1a(`o:${group}:${d.id}`) % 50 === 0)
          .slice(0, 40);
      for (const d of pick('same')) unlike['same kind'].push(read(model, d.signal));
      for (const d of pick('other')) unlike['other kind'].push(read(model, d.signal));
      for (const t of mail) unlike.mail.push(read(model, t));
    }
    print('warm source', size, like, unlike);
  }
}

console.log(
  `Let through, like / unlike, by the allowance's rise per decade of history under 100 (${SLOPES.join(', ')})`,
);
console.log(`| history | ${SLOPES.map((s) => `+${s}`).join(' | ')} |`);
console.log(`|---|${SLOPES.map(() => '---|').join('')}`);
banking();
console.log('(warm sources: like / another source of the same kind / the other kind / Enron and SMS)');
sources();
