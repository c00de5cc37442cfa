// Variants tried by bin/experiment-fewshot.ts: sketches with other features, and other scorings over the same
// per-label counts. Plain Maps and loops: speed does not matter here, only the figures.
import type { HalfSipKey } from '../lambdas/domain/learning/half-siphash';
import { halfSipHash } from '../lambdas/domain/learning/half-siphash';
import type { LabelCounts, WorkspaceModel } from '../lambdas/domain/learning/model';
import { type Sketch, TEXT_BUCKETS, senderParts } from '../lambdas/domain/learning/sketch';

const TOKEN = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;
const encoder = new TextEncoder();
const hashOf = (key: HalfSipKey, feature: string, size: number) => halfSipHash(key, encoder.encode(feature)) % size;

export interface FeatureOptions {
  /** Stem lengths (prefixes of longer words). */
  stems: number[];
  bigrams: boolean;
  /** Character n-gram sizes of each word with boundary marks (`#word#`). */
  chars: number[];
  /** Words i and i+2. */
  skip: boolean;
  max: number;
  /** Character n-grams only of words at least this long. */
  charMin?: number;
  /** Character n-grams in odd buckets, the rest in even ones (so a scorer can weigh them apart). */
  split?: boolean;
}

export const BASE_FEATURES: FeatureOptions = { stems: [4], bigrams: true, chars: [], skip: false, max: 96 };

export function sketcherWith(o: FeatureOptions) {
  return (key: HalfSipKey) =>
    (s: { subject?: string; body?: string; sender?: string }): Sketch => {
      const text = `${s.subject ?? ''}\n${s.body ?? ''}`.slice(0, 1_200).toLowerCase();
      const words = [...text.matchAll(TOKEN)].map((m) => m[0].replace(/['’]/g, ''));
      const out: number[] = [];
      const add = (f: string) => {
        const b = o.split
          ? 2 * hashOf(key, f, TEXT_BUCKETS / 2) + (f[0] === 'c' ? 1 : 0)
          : hashOf(key, f, TEXT_BUCKETS);
        if (!out.includes(b)) out.push(b);
        return out.length >= o.max;
      };
      outer: for (let i = 0; i < words.length; i++) {
        const w = words[i];
        if (add(`w ${w}`)) break;
        for (const n of o.stems) if (w.length > n && add(`p${n === 4 ? '' : n} ${w.slice(0, n)}`)) break outer;
        if (o.bigrams && i > 0 && add(`b ${words[i - 1]} ${w}`)) break;
        if (o.skip && i > 1 && add(`k ${words[i - 2]} ${w}`)) break;
        const marked = `#${w}#`;
        for (const n of w.length >= (o.charMin ?? 0) ? o.chars : [])
          for (let j = 0; j + n <= marked.length; j++) if (add(`c ${marked.slice(j, j + n)}`)) break outer;
      }
      const sketch: Sketch = { t: out.sort((a, b) => a - b) };
      const parts = senderParts(s.sender);
      if (parts) {
        sketch.s = hashOf(key, `s ${parts.address}`, TEXT_BUCKETS);
        sketch.d = hashOf(key, `d ${parts.domain}`, TEXT_BUCKETS);
      }
      return sketch;
    };
}

export interface ScoreOptions {
  alpha: number;
  /** Exponent of the sharing weight (0: none). */
  sharing: number;
  /** 'nb' multinomial NB (today), 'bernoulli', 'centroid' (idf-weighted cosine), 'cnb' complement NB. */
  kind: 'nb' | 'bernoulli' | 'centroid' | 'cnb' | 'nbidf';
  /** Weight of the log prior. */
  prior: number;
  /** Out-of-distribution check, nats per feature (0.6 today), and the gate (2 nats per sqrt(feature)). */
  ood: number;
  margin: number;
  /** Per-label normalisation of NB scores by the label's docs (power). */
  idfPower: number;
  /** Weight of odd buckets (character n-grams with split features) in the choice, and docs at which it halves. */
  charWeight?: number;
  charHalfDocs?: number;
}

export const BASE_SCORE: ScoreOptions = {
  alpha: 0.1,
  sharing: 0.5,
  kind: 'nb',
  prior: 1,
  ood: 0.6,
  margin: 2,
  idfPower: 1,
};

const SENDER_NATS = 3;
const DOMAIN_NATS = 1.5;

/** Scores every live label; returns the best label passing the gate (the gate as today: text NB against uniform). */
export function predictWith(o: ScoreOptions) {
  return (model: WorkspaceModel, sketch: Sketch): string | undefined => {
    const labels = model.labels.filter((l) => l.docs > 0);
    const k = labels.length;
    if (k === 0) return undefined;
    const V = TEXT_BUCKETS;
    const t = sketch.t;
    const n = t.length;
    const docsAll = labels.reduce((s, l) => s + l.docs, 0);
    const totalAll = labels.reduce((s, l) => s + l.total, 0);
    // Document frequency of each sketch bucket over all taught decisions, and the labels sharing it.
    const df = t.map((b) => labels.reduce((s, l) => s + (l.text.get(b) ?? 0), 0));
    const sharing = t.map((b) => labels.reduce((s, l) => s + (l.text.has(b) ? 1 : 0), 0));
    const logK = Math.log(k + 1);
    const w = sharing.map((sh) => (o.sharing === 0 ? 1 : Math.pow(Math.log((k + 1) / (sh + 1)) / logK, o.sharing)));
    const idf = df.map((d) => Math.pow(Math.log((docsAll + 1) / (d + 0.5)), o.idfPower));
    let best: LabelCounts | undefined;
    let bestScore = -Infinity;
    let bestText = 0;
    let bestEvidence = 0;
    for (const l of labels) {
      // Gate figures, as today.
      let text = 0;
      for (const b of t) text += Math.log(((l.text.get(b) ?? 0) + 0.1) / (l.total + 0.1 * V)) + Math.log(V);
      const s = Math.min(5, sketch.s !== undefined ? (l.senders.get(sketch.s) ?? 0) : 0);
      const d = Math.min(5, sketch.d !== undefined ? (l.domains.get(sketch.d) ?? 0) : 0);
      const senderNats = SENDER_NATS * s + DOMAIN_NATS * d;
      const evidence = text / Math.max(1, Math.sqrt(n)) + senderNats;
      let score = 0;
      if (o.kind === 'nb' || o.kind === 'nbidf') {
        for (let i = 0; i < n; i++) {
          const c = l.text.get(t[i]) ?? 0;
          let wt = o.kind === 'nbidf' ? idf[i] : w[i];
          if (o.charWeight !== undefined && t[i] & 1)
            wt *= o.charWeight / (1 + (o.charHalfDocs ? docsAll / k / o.charHalfDocs : 0));
          score += wt * (Math.log((c + o.alpha) / (l.total + o.alpha * V)) + Math.log(V));
        }
      } else if (o.kind === 'bernoulli') {
        // Only the present buckets' log-odds against the label's absence term (absent buckets: the same for a label's
        // whole vocabulary apart from those; approximated by the present ones, the rest being near log 1).
        for (let i = 0; i < n; i++) {
          const c = l.text.get(t[i]) ?? 0;
          const p = (c + o.alpha) / (l.docs + 2 * o.alpha);
          const q = (df[i] - c + o.alpha) / (docsAll - l.docs + 2 * o.alpha);
          score += w[i] * (Math.log(p) - Math.log(q));
        }
      } else if (o.kind === 'centroid') {
        let dot = 0;
        for (let i = 0; i < n; i++) dot += (idf[i] * idf[i] * (l.text.get(t[i]) ?? 0)) / l.docs;
        score = dot / centroidNorm(l, labels, docsAll, o);
      } else if (o.kind === 'cnb') {
        for (let i = 0; i < n; i++) {
          const c = l.text.get(t[i]) ?? 0;
          const comp = df[i] - c;
          const compTotal = totalAll - l.total;
          const own = Math.log((c + o.alpha) / (l.total + o.alpha * V));
          const other = Math.log((comp + o.alpha) / (compTotal + o.alpha * V));
          score += w[i] * (own - other);
        }
      }
      score += o.prior * Math.log((l.docs + 1) / (docsAll + k)) + 4 * senderNats;
      if (score > bestScore) {
        bestScore = score;
        best = l;
        bestText = text;
        bestEvidence = evidence;
      }
    }
    if (!best || bestEvidence < o.margin) return undefined;
    if (bestText / Math.max(1, n) < o.ood) return undefined;
    return best.label;
  };
}

const norms = new WeakMap<LabelCounts, number>();
function centroidNorm(l: LabelCounts, labels: LabelCounts[], docsAll: number, o: ScoreOptions): number {
  const cached = norms.get(l);
  if (cached !== undefined) return cached;
  let sum = 0;
  for (const [b, c] of l.text) {
    let d = 0;
    for (const m of labels) d += m.text.get(b) ?? 0;
    const idf = Math.pow(Math.log((docsAll + 1) / (d + 0.5)), o.idfPower);
    sum += ((idf * c) / l.docs) ** 2;
  }
  const norm = Math.sqrt(sum) || 1;
  norms.set(l, norm);
  return norm;
}
