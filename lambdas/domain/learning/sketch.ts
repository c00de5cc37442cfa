// The one-way sketch of a signal that learning keeps: keyed hashes of its words, word pairs and sender, reduced to
// bucket numbers. No text survives: order and repetition are dropped, every bucket is shared by thousands of possible
// words, and the hash key belongs to one workspace (see docs/learning.md).
import { type HalfSipKey, halfSipHash } from './half-siphash';

/** Text buckets per workspace (2^14): bounds a label's text counts to 16,384 entries. */
export const TEXT_BUCKETS = 1 << 14;
/** Sender and domain buckets per workspace. */
export const SENDER_BUCKETS = 1 << 14;
/** At most this many distinct text buckets are kept per signal (the first words count). */
export const MAX_SKETCH_FEATURES = 96;
/** Characters of subject and body that are sketched. */
const SCAN_CHARS = 1_200;

export interface Sketch {
  /** Distinct text buckets, ascending. */
  t: number[];
  /** Bucket of the sender's address, when there is one. */
  s?: number;
  /** Bucket of the sender's domain (and of each parent domain it has, the first being the full domain). */
  d?: number;
}

const encoder = new TextEncoder();
const TOKEN = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

export function tokens(text: string): string[] {
  const out: string[] = [];
  for (const m of text.slice(0, SCAN_CHARS).toLowerCase().matchAll(TOKEN)) out.push(m[0].replace(/['’]/g, ''));
  return out;
}

/** Letters of a longer word kept as its stem. */
const STEM = 4;

/** The features of a text: words, word pairs, and the first four letters of longer words (a cheap stem). */
export function textFeatures(text: string): string[] {
  const words = tokens(text);
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    out.push(`w ${w}`);
    if (w.length > STEM) out.push(`p ${w.slice(0, STEM)}`);
    if (i > 0) out.push(`b ${words[i - 1]} ${w}`);
  }
  return out;
}

const scratch = new Uint8Array(1_024);
function bucket(key: HalfSipKey, feature: string, size: number): number {
  // Features are short: encode into one reused buffer instead of allocating per feature.
  const { written } = encoder.encodeInto(feature.length <= 300 ? feature : feature.slice(0, 300), scratch);
  return halfSipHash(key, scratch.subarray(0, written)) % size;
}

/** Address and domain of a sender like `Ann <ann@acme.com>`, lower-cased; undefined when it holds no address. */
export function senderParts(sender: string | undefined): { address: string; domain: string } | undefined {
  if (!sender) return undefined;
  const m = /<\s*([^<>\s]+@[^<>\s]+)\s*>|([^\s<>]+@[^\s<>]+)/.exec(sender);
  const address = (m?.[1] ?? m?.[2])?.toLowerCase();
  if (!address) return undefined;
  const domain = address.slice(address.lastIndexOf('@') + 1);
  return domain ? { address, domain } : undefined;
}

export function sketchSignal(key: HalfSipKey, signal: { subject?: string; body?: string; sender?: string }): Sketch {
  const text = `${signal.subject ?? ''}\n${signal.body ?? ''}`;
  const seen = new Set<number>();
  for (const feature of textFeatures(text)) {
    seen.add(bucket(key, feature, TEXT_BUCKETS));
    if (seen.size >= MAX_SKETCH_FEATURES) break;
  }
  const sketch: Sketch = { t: [...seen].sort((a, b) => a - b) };
  const parts = senderParts(signal.sender);
  if (parts) {
    sketch.s = bucket(key, `s ${parts.address}`, SENDER_BUCKETS);
    sketch.d = bucket(key, `d ${parts.domain}`, SENDER_BUCKETS);
  }
  return sketch;
}

/**
 * Compact binary form stored beside a decision (a DynamoDB binary attribute, 2 bytes a bucket): a flag byte (1 when
 * a sender is present), then sender and domain buckets when present, then the text buckets. 96 features cost 193
 * bytes, so a decision item stays in one write unit.
 */
export function encodeSketch(sketch: Sketch): Uint8Array {
  const withSender = sketch.s !== undefined;
  const values = withSender ? [sketch.s!, sketch.d ?? 0, ...sketch.t] : sketch.t;
  const out = new Uint8Array(1 + values.length * 2);
  out[0] = withSender ? 1 : 0;
  values.forEach((v, i) => {
    out[1 + i * 2] = v >>> 8;
    out[2 + i * 2] = v & 0xff;
  });
  return out;
}

export function decodeSketch(bytes: Uint8Array): Sketch {
  const values: number[] = [];
  for (let i = 1; i + 1 < bytes.length; i += 2) values.push(((bytes[i] << 8) | bytes[i + 1]) % TEXT_BUCKETS);
  if (bytes[0] === 1 && values.length >= 2) {
    const [s, d, ...t] = values;
    return { t, s: s % SENDER_BUCKETS, d: d % SENDER_BUCKETS };
  }
  return { t: values };
}
