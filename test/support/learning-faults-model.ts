// The fault-schedule test's reference model (docs/learning.md, "Fault-schedule test"): for one workspace, what each
// label should hold given which operations were acknowledged (2xx). An acknowledged operation counts exactly once. One
// that ended without a 2xx (retries exhausted, a stopped writer) may have landed or not: the partner does not know, so
// it counts once or not at all, never twice. A forget without a 2xx splits the reference in two worlds (it happened, it
// did not); the store must match one of them.
import type { LearnedField } from '../../lambdas/domain/learning/model';
import { sketchKeyOf, sketchSignal } from '../../lambdas/domain/learning/sketch';
import type { LoadedLabel } from './learning-harness-adapter';

export type Labels = Partial<Record<LearnedField, string>>;
export interface TextOf {
  subject: string;
  body: string;
  sender: string;
}

/** What one decision counts: the possible label sets (JSON), `{}` for nothing. */
type Options = Set<string>;

interface World {
  decisions: Map<string, Options>;
  imports: { examples: { signal: TextOf; labels: Labels }[]; certain: boolean }[];
}

export interface Comparison {
  lost: number;
  doubled: number;
  /** Text buckets (label totals) outside the allowed range, counts of buckets. */
  totalsOff: number;
  /** One line per label that is off: what the store holds and what the reference allows. */
  lines: string[];
}

const NOTHING = '{}';
const labelIds = (json: string) => Object.entries(JSON.parse(json) as Labels).map(([f, l]) => `${f}:${l}`);

export class WorkspaceReference {
  private worlds: World[] = [{ decisions: new Map(), imports: [] }];
  private readonly signals = new Map<string, TextOf>();

  addDecision(id: string, signal: TextOf): void {
    this.signals.set(id, signal);
    for (const w of this.worlds) w.decisions.set(id, new Set([NOTHING]));
  }

  /** Feedback replaces the decision's labels whole (docs/partners.md, Feedback). */
  feedback(id: string, labels: Labels, acknowledged: boolean): void {
    const json = JSON.stringify(labels);
    for (const w of this.worlds) {
      const options = w.decisions.get(id) ?? new Set([NOTHING]);
      w.decisions.set(id, acknowledged ? new Set([json]) : new Set([...options, json]));
    }
  }

  importExamples(examples: { signal: TextOf; labels: Labels }[], acknowledged: boolean): void {
    for (const w of this.worlds) w.imports.push({ examples, certain: acknowledged });
  }

  /** A forget empties the model: decisions counted before count nothing until their next feedback. */
  forget(acknowledged: boolean): void {
    const forgotten = (w: World): World => ({
      decisions: new Map([...w.decisions.keys()].map((id) => [id, new Set([NOTHING])])),
      imports: [],
    });
    this.worlds = acknowledged
      ? this.worlds.map(forgotten)
      : [...this.worlds, ...this.worlds.map(forgotten)].slice(0, 64);
  }

  /** The store's labels against the closest world: counts below the allowed range are lost, above it doubled. */
  compare(loaded: LoadedLabel[], sketchKey: string): Comparison {
    const key = sketchKeyOf(sketchKey);
    const weight = (signal: TextOf) => sketchSignal(key, signal).t.length;
    let best: Comparison | undefined;
    for (const world of this.worlds) {
      const c = compareWorld(this.expected(world, weight), loaded);
      const score = (x: Comparison) => (x.lost + x.doubled) * 1e6 + x.totalsOff;
      if (!best || score(c) < score(best)) best = c;
    }
    return best!;
  }

  private expected(world: World, weight: (s: TextOf) => number): Map<string, Range> {
    const out = new Map<string, Range>();
    const add = (id: string, certain: boolean, w: number) => {
      const r = out.get(id) ?? { minDocs: 0, maxDocs: 0, minTotal: 0, maxTotal: 0 };
      r.maxDocs += 1;
      r.maxTotal += w;
      if (certain) {
        r.minDocs += 1;
        r.minTotal += w;
      }
      out.set(id, r);
    };
    for (const [id, options] of world.decisions) {
      const w = weight(this.signals.get(id)!);
      const all = [...options].map(labelIds);
      for (const label of new Set(all.flat()))
        add(
          label,
          all.every((ids) => ids.includes(label)),
          w,
        );
    }
    for (const imported of world.imports)
      for (const example of imported.examples)
        for (const label of labelIds(JSON.stringify(example.labels)))
          add(label, imported.certain, weight(example.signal));
    return out;
  }
}

interface Range {
  minDocs: number;
  maxDocs: number;
  minTotal: number;
  maxTotal: number;
}

function compareWorld(expected: Map<string, Range>, loaded: LoadedLabel[]): Comparison {
  const out: Comparison = { lost: 0, doubled: 0, totalsOff: 0, lines: [] };
  const held = new Map(loaded.filter((l) => l.docs !== 0).map((l) => [`${l.field}:${l.label}`, l]));
  for (const id of new Set([...expected.keys(), ...held.keys()])) {
    const r = expected.get(id) ?? { minDocs: 0, maxDocs: 0, minTotal: 0, maxTotal: 0 };
    const docs = held.get(id)?.docs ?? 0;
    const total = held.get(id)?.total ?? 0;
    const lost = Math.max(0, r.minDocs - docs);
    const doubled = Math.max(0, docs - r.maxDocs);
    const off = Math.max(0, r.minTotal - total, total - r.maxTotal);
    out.lost += lost;
    out.doubled += doubled;
    out.totalsOff += off;
    if (lost || doubled || off) {
      const range = (a: number, b: number) => (a === b ? `${a}` : `${a}..${b}`);
      out.lines.push(
        `${id}: docs ${docs} (allowed ${range(r.minDocs, r.maxDocs)}), text buckets ${total} (allowed ${range(r.minTotal, r.maxTotal)})`,
      );
    }
  }
  return out;
}
