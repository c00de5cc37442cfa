// A fault schedule from its seed (docs/learning.md, "Fault-schedule test"): one or two fresh workspaces, a few
// decisions to give feedback on, and a handful of operations (feedback, re-feedback, imports, forget, container loads,
// folds) in groups: the operations of a group run at once, the groups one after the other. The same seed gives the same
// schedule and the same fault draws, call by call.
import { mulberry32 } from '../../bin/seeded-random';
import type { Labels, TextOf } from './learning-faults-model';

export type Op =
  | { kind: 'feedback'; ws: number; decision: number; labels: Labels }
  | { kind: 'import'; ws: number; examples: { signal: TextOf; labels: Labels }[]; idempotencyKey: string }
  | { kind: 'forget'; ws: number }
  | { kind: 'load'; ws: number }
  | { kind: 'fold'; ws: number };

export interface Schedule {
  seed: number;
  workspaces: { id: string; signals: TextOf[] }[];
  /** Operations in groups: each group's run at once, the groups in order. */
  groups: { op: Op; index: number }[][];
}

const CATEGORIES = ['billing', 'refund_request', 'card_fraud'];
const PRIORITIES = ['low', 'high'];
const WORDS = ['invoice', 'payment', 'card', 'refund', 'stolen', 'late', 'charge', 'account', 'transfer', 'limit'];

/** A seed's own random numbers for a part of the schedule (`part` keeps the parts independent). */
export const seededRandom = (seed: number, part = 0) =>
  mulberry32((Math.imul(seed, 0x9e3779b1) ^ (part * 0x85ebca6b)) >>> 0);

const choose = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)];

function textFor(random: () => number, tag: string): TextOf {
  const words = Array.from({ length: 4 + Math.floor(random() * 6) }, () => choose(random, WORDS));
  return {
    subject: `${choose(random, WORDS)} question ${tag}`,
    body: `Customer writes: ${words.join(' ')} (${tag}).`,
    sender: `client${Math.floor(random() * 5)}@${choose(random, ['bank', 'shop', 'mail'])}.example`,
  };
}

function labelsFor(random: () => number): Labels {
  const labels: Labels = { category: choose(random, CATEGORIES) };
  if (random() < 0.3) labels.priority = choose(random, PRIORITIES);
  return labels;
}

/** The schedule of `seed`; `runTag` keeps workspace ids apart between runs over the same tables. */
export function scheduleFor(seed: number, runTag: string, canFold: boolean): Schedule {
  const random = seededRandom(seed);
  const workspaces = Array.from({ length: random() < 0.2 ? 2 : 1 }, (_, w) => ({
    id: `wsf_${runTag}_${seed}_${w}`,
    signals: Array.from({ length: 2 + Math.floor(random() * 3) }, (_, i) => textFor(random, `${seed}-${w}-${i}`)),
  }));
  const weights: [Op['kind'], number][] = [
    ['feedback', 50],
    ['import', 18],
    ['forget', 7],
    ['load', 12],
    ['fold', canFold ? 10 : 0],
  ];
  const total = weights.reduce((s, [, n]) => s + n, 0);
  const groups: Schedule['groups'] = [];
  const count = 3 + Math.floor(random() * 4);
  for (let index = 0; index < count; index++) {
    let r = random() * total;
    const kind = weights.find(([, n]) => (r -= n) < 0)?.[0] ?? 'feedback';
    const ws = Math.floor(random() * workspaces.length);
    const op: Op =
      kind === 'feedback'
        ? { kind, ws, decision: Math.floor(random() * workspaces[ws].signals.length), labels: labelsFor(random) }
        : kind === 'import'
          ? {
              kind,
              ws,
              idempotencyKey: `import-${seed}-${index}`,
              examples: Array.from({ length: 1 + Math.floor(random() * 3) }, (_, i) => ({
                signal: textFor(random, `${seed}-x${index}-${i}`),
                labels: labelsFor(random),
              })),
            }
          : { kind, ws };
    const last = groups.at(-1);
    // A forget runs alone (what it wipes is then clear), and so does a fold (the adapter folds up to now, which is
    // sound only with no write in flight: learning-harness-adapter.ts); two feedbacks on one decision never run at once.
    const alone = (kind: Op['kind']) => kind === 'forget' || kind === 'fold';
    const fits =
      last &&
      !alone(op.kind) &&
      last.every(({ op: o }) => !alone(o.kind)) &&
      !last.some(
        ({ op: o }) => o.kind === 'feedback' && op.kind === 'feedback' && o.ws === op.ws && o.decision === op.decision,
      );
    if (fits && random() < 0.55) last.push({ op, index });
    else groups.push([{ op, index }]);
  }
  return { seed, workspaces, groups };
}

/** One line per operation, for the failure report. */
export function describeOp(op: Op): string {
  switch (op.kind) {
    case 'feedback':
      return `feedback ws${op.ws}/d${op.decision} ${JSON.stringify(op.labels)}`;
    case 'import':
      return `import ws${op.ws} ${op.examples.map((e) => JSON.stringify(e.labels)).join(' ')} (key ${op.idempotencyKey})`;
    default:
      return `${op.kind} ws${op.ws}`;
  }
}
