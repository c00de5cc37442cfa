// The reference sketch and prediction: the plain string-and-Map implementations that the fast ones in
// lambdas/domain/learning/ (sketch.ts, model.ts) must match exactly. Stored decisions carry sketches and label items
// hold counts keyed by these buckets, so the fast sketch must give the same buckets bit for bit, and the indexed
// prediction the same label and probability. Test oracles, so they live with the tests.
import { composed } from '../../lambdas/domain/composed-text';
import type { HalfSipKey } from '../../lambdas/domain/learning/half-siphash';
import type { LabelCounts, LearnedField, WorkspaceModel } from '../../lambdas/domain/learning/model';
import {
  MAX_SKETCH_FEATURES,
  SENDER_BUCKETS,
  type Sketch,
  TEXT_BUCKETS,
  senderParts,
} from '../../lambdas/domain/learning/sketch';

// HalfSipHash-2-4 as it was first written (state in a Uint32Array, rounds as a function), kept so the oracle shares
// no code with the fast path it checks.
const rotl = (x: number, b: number) => ((x << b) | (x >>> (32 - b))) >>> 0;
const V = new Uint32Array(4);
function round(): void {
  V[0] += V[1];
  V[1] = rotl(V[1], 5) ^ V[0];
  V[0] = rotl(V[0], 16);
  V[2] += V[3];
  V[3] = rotl(V[3], 8) ^ V[2];
  V[0] += V[3];
  V[3] = rotl(V[3], 7) ^ V[0];
  V[2] += V[1];
  V[1] = rotl(V[1], 13) ^ V[2];
  V[2] = rotl(V[2], 16);
}
export function referenceHalfSipHash(key: HalfSipKey, data: Uint8Array): number {
  V[0] = key.k0;
  V[1] = key.k1;
  V[2] = 0x6c796765 ^ key.k0;
  V[3] = 0x74656462 ^ key.k1;
  const len = data.length;
  const end = len - (len % 4);
  for (let i = 0; i < end; i += 4) {
    const m = data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24);
    V[3] ^= m;
    round();
    round();
    V[0] ^= m;
  }
  let b = len << 24;
  const left = len & 3;
  if (left >= 3) b |= data[end + 2] << 16;
  if (left >= 2) b |= data[end + 1] << 8;
  if (left >= 1) b |= data[end];
  V[3] ^= b;
  round();
  round();
  V[0] ^= b;
  V[2] ^= 0xff;
  round();
  round();
  round();
  round();
  return (V[1] ^ V[3]) >>> 0;
}

const SCAN_CHARS = 1_200;
const encoder = new TextEncoder();
const TOKEN = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

export function referenceTokens(text: string): string[] {
  const out: string[] = [];
  for (const m of text.slice(0, SCAN_CHARS).toLowerCase().matchAll(TOKEN)) out.push(m[0].replace(/['’]/g, ''));
  return out;
}

const STEM = 4;

/** Format 2 adds, after each word's features, `c <4 characters>` for each window of `#<word>#` (code points). */
export function referenceTextFeatures(text: string, format: 1 | 2 = 1): string[] {
  const words = referenceTokens(text);
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    out.push(`w ${w}`);
    if (w.length > STEM) out.push(`p ${w.slice(0, STEM)}`);
    if (i > 0) out.push(`b ${words[i - 1]} ${w}`);
    if (format === 2) {
      const marked = Array.from(`#${w}#`);
      for (let j = 0; j + 4 <= marked.length; j++) out.push(`c ${marked.slice(j, j + 4).join('')}`);
    }
  }
  return out;
}

function bucket(key: HalfSipKey, feature: string, size: number): number {
  // A fresh buffer per feature: the oracle favours plainness over speed.
  return referenceHalfSipHash(key, encoder.encode(feature.length <= 300 ? feature : feature.slice(0, 300))) % size;
}

export function referenceSketch(
  key: HalfSipKey & { format?: 1 | 2 },
  signal: { subject?: string; body?: string; sender?: string },
): Sketch {
  const text = composed(`${signal.subject ?? ''}\n${signal.body ?? ''}`);
  const seen = new Set<number>();
  for (const feature of referenceTextFeatures(text, key.format ?? 1)) {
    seen.add(bucket(key, feature, TEXT_BUCKETS));
    if (seen.size >= MAX_SKETCH_FEATURES) break;
  }
  const sketch: Sketch = { t: [...seen].sort((a, b) => a - b) };
  if (key.format === 2) sketch.f = 2;
  const parts = senderParts(signal.sender);
  if (parts) {
    sketch.s = bucket(key, `s ${parts.address}`, SENDER_BUCKETS);
    sketch.d = bucket(key, `d ${parts.domain}`, SENDER_BUCKETS);
  }
  return sketch;
}

const ALPHA = 0.1;
const SHARING_EXPONENT = 0.5;
const LEARNED_MARGIN = 2;
const MIN_TEXT_EVIDENCE_PER_FEATURE = 0.6;
const MIN_TEXT_EVIDENCE_PER_FEATURE_FORMAT_2 = 0.7;
const SENDER_NATS = 3;
const DOMAIN_NATS = 1.5;
const EVIDENCE_CAP = 5;

export interface ReferencePrediction {
  label: string;
  senderCount: number;
  domainCount: number;
  docs: number;
  probability: number;
  basis: 'sender' | 'domain' | 'text';
  evidence: number;
  format?: 2;
}

/** predictField as it was before the index: every label of the field, every sketch bucket, a Map lookup each. */
export function referencePredict(
  model: WorkspaceModel,
  field: LearnedField,
  sketch: Sketch,
): ReferencePrediction | undefined {
  const labels = model.labels.filter((l) => l.field === field && l.docs > 0);
  if (labels.length === 0) return undefined;
  const docsAll = labels.reduce((sum, l) => sum + l.docs, 0);
  const logV = Math.log(TEXT_BUCKETS);
  const logAlpha = Math.log(ALPHA);
  const n = sketch.t.length;
  const sharing = new Float64Array(n);
  const present: number[][] = labels.map((l) => {
    const hits: number[] = [];
    for (let i = 0; i < n; i++) {
      const c = l.text.get(sketch.t[i]);
      if (c) {
        hits.push(i, c);
        sharing[i]++;
      }
    }
    return hits;
  });
  const logK = Math.log(labels.length + 1);
  const weight = new Float64Array(n);
  let weightSum = 0;
  for (let i = 0; i < n; i++) {
    weight[i] = Math.pow(Math.log((labels.length + 1) / (sharing[i] + 1)) / logK, SHARING_EXPONENT);
    weightSum += weight[i];
  }
  const lengthNorm = Math.max(1, Math.sqrt(n));

  let best: { l: LabelCounts; score: number; evidence: number; s: number; d: number; text: number } | undefined;
  const scores: number[] = [];
  labels.forEach((l, li) => {
    const absent = logAlpha - Math.log(l.total + ALPHA * TEXT_BUCKETS) + logV;
    let text = n * absent;
    let weighted = weightSum * absent;
    const hits = present[li];
    for (let h = 0; h < hits.length; h += 2) {
      const gain = Math.log(hits[h + 1] + ALPHA) - logAlpha;
      text += gain;
      weighted += weight[hits[h]] * gain;
    }
    // Capped as evidence; the counts themselves are the message's.
    const senderCount = sketch.s !== undefined ? (l.senders.get(sketch.s) ?? 0) : 0;
    const domainCount = sketch.d !== undefined ? (l.domains.get(sketch.d) ?? 0) : 0;
    const s = Math.min(EVIDENCE_CAP, senderCount);
    const d = Math.min(EVIDENCE_CAP, domainCount);
    const evidence = text / lengthNorm + SENDER_NATS * s + DOMAIN_NATS * d;
    const score =
      weighted + Math.log((l.docs + 1) / (docsAll + labels.length)) + 4 * (SENDER_NATS * s + DOMAIN_NATS * d);
    scores.push(score);
    if (!best || score > best.score || (score === best.score && l.label < best.l.label))
      best = { l, score, evidence, s: senderCount, d: domainCount, text };
  });
  if (!best) return undefined;
  const chosen: { l: LabelCounts; score: number; evidence: number; s: number; d: number; text: number } = best;
  if (chosen.evidence < LEARNED_MARGIN) return undefined;
  // The out-of-distribution check: text evidence per feature, whoever sent it.
  const minText = sketch.f === 2 ? MIN_TEXT_EVIDENCE_PER_FEATURE_FORMAT_2 : MIN_TEXT_EVIDENCE_PER_FEATURE;
  if (chosen.text / Math.max(1, n) < minText) return undefined;
  const top = chosen.score;
  const probability = 1 / scores.reduce((sum, sc) => sum + Math.exp(sc - top), 0);
  return {
    label: chosen.l.label,
    senderCount: chosen.s,
    domainCount: chosen.d,
    docs: chosen.l.docs,
    probability,
    basis: chosen.s > 0 ? 'sender' : chosen.d > 0 ? 'domain' : 'text',
    evidence: chosen.evidence,
    ...(sketch.f === 2 ? { format: 2 as const } : {}),
  };
}
