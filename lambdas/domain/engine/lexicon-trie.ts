// The lexicon compiled into a token trie (lexicon.ts holds the phrases; phrase-matcher.ts walks the trie).
// Module load only indexes each pattern's possible first words; the phrases starting with a word enter the trie
// the first time a text contains that word (expanding and hashing all 3,100 phrases at load cost 20 to 30 ms of
// init). Phrases with one first word share a branch, so compiling them together, in lexicon order, gives the very
// trie an eager build gives (test/unit/scorer-lexicon.test.ts compares the two).
import type { Source } from '../signal';
import { IGNORE, LEXICON, METRIC_NOUNS, NEGATORS } from './lexicon';
import { REASON_CODES, type ReasonCode } from './reason-codes';
import { tokenHashesMany } from './token-hashes';
import { type TokenBuffer, plainWordHash } from './tokens';

export const CODES = Object.keys(REASON_CODES) as ReasonCode[];
export const CODE_INDEX = new Map<string, number>(CODES.map((c, i) => [c, i]));
export const NC = CODES.length;
export const IGNORE_INDEX = -1;
export const METRIC_INDEX = -2;

export const SOURCE_BIT: Record<Source, number> = { email: 1, task: 2, crm_event: 4, support_message: 8, internal: 16 };
const ALL_SOURCES = 31;

export interface Entry {
  code: number;
  weight: number;
  /** Token count. */
  len: number;
  /** Must end its clause. */
  eoc: boolean;
  subjectOnly: boolean;
  sources: number;
  /** One of these words (h1 -> h2) must be among the 4 words before, same clause. */
  near: Map<number, number> | null;
  /** The canonical phrase shown in reason messages (lexicon text, never signal text). */
  phrase: string;
  metric?: 'usage' | 'error' | 'latency';
  /** Per-call stamp so a repeated phrase counts once. */
  seen: number;
}

/** A token trie keyed by the tokens' first hash; `h2` rules out collisions. */
export interface TrieNode {
  h2: number;
  next: Map<number, TrieNode> | null;
  /** Phrases ending here, in lexicon order (the first whose conditions hold wins). */
  entries: Entry[] | null;
}

/** Appends the expansions of a lexicon pattern ("{a,b} c" -> "a c", "b c"), white space normalized. */
function expand(pattern: string, out: string[]): void {
  const open = pattern.indexOf('{');
  if (open < 0) {
    out.push(UNTIDY_SPACE.test(pattern) ? pattern.replace(/\s+/g, ' ').trim() : pattern);
    return;
  }
  const close = pattern.indexOf('}', open);
  const head = pattern.slice(0, open);
  const tail = pattern.slice(close + 1);
  for (const alt of pattern.slice(open + 1, close).split(',')) expand(head + alt + tail, out);
}
/** White space that `replace(/\s+/g, ' ').trim()` would change. */
const UNTIDY_SPACE = /\s\s|[^\S ]|^\s|\s$/;

export const ROOT = new Map<number, TrieNode>();
// Pre-filters that spare most tokens the trie walk, by the low 16 bits of a word's hash: ROOT_BIT
// for first words of any phrase, SINGLE_BIT for first words that are whole phrases; and a bitset of
// (first, second) word pairs of longer phrases. PENDING_BIT: phrases starting with such a word are
// not in the trie yet (see compilePending).
export const FIRST_WORD = new Uint8Array(65536);
export const SINGLE_BIT = 1;
export const ROOT_BIT = 2;
export const PENDING_BIT = 4;
const PAIR_BITS = 18;
export const PAIR_FILTER = new Int32Array((1 << PAIR_BITS) >>> 5);
export const pairSlot = (a: number, b: number) => (Math.imul(a, 0x9e3779b1) ^ b) >>> (32 - PAIR_BITS);

/** A lexicon pattern ("{a,b} c|d" is two) with everything its phrases carry. */
interface Pattern {
  pattern: string;
  code: number;
  weight: number;
  sources: number;
  subjectOnly: boolean;
  near: Map<number, number> | null;
  /** Metric nouns are taken as written (no {} expansion). */
  metric?: 'usage' | 'error' | 'latency';
}

/** Every pattern, in lexicon order: its text, and its group (-1 - k for the k-th metric noun). */
const PATTERN_TEXT: string[] = [];
const PATTERN_GROUP: number[] = [];
/** Near-word sets by group, hashed the first time one of the group's phrases enters the trie (undefined: not yet). */
const NEAR_SETS: (Map<number, number> | null | undefined)[] = [];
/**
 * (first-word hash, pattern, alternative) triples, in lexicon order: pattern PAIR_PATTERN[i] has phrases starting
 * with word PAIR_KEY[i]; when PAIR_ALT[i] >= 0, all of them within that alternative of the pattern's leading {}
 * group (the large patterns start with one, so a first word compiles a small part of them).
 */
let PAIR_KEY = new Int32Array(0);
let PAIR_PATTERN = new Int32Array(0);
let PAIR_ALT = new Int32Array(0);
let PAIRS = 0;
const METRIC_LIST = Object.entries(METRIC_NOUNS);

const WHITE_SPACE = /\s/;

/** A pattern whose first chunk holds a {} group: the text before it, its alternatives, the text after. */
function leadingGroup(pattern: string): { head: string; alternatives: string[]; tail: string } | null {
  const text = pattern.trimStart();
  const open = text.indexOf('{');
  const space = text.search(WHITE_SPACE);
  if (open < 0 || (space >= 0 && space < open)) return null;
  const close = text.indexOf('}', open);
  return {
    head: text.slice(0, open),
    alternatives: text.slice(open + 1, close).split(','),
    tail: text.slice(close + 1),
  };
}

/**
 * The possible first space-separated chunks of a pattern's phrases, each with the alternative of the
 * leading {} group it comes from (-1: none); false when a chunk may hold no word.
 */
function firstChunks(pattern: string, out: string[], alts: number[], alt = -1): boolean {
  const group = leadingGroup(pattern);
  if (group === null) {
    const text = pattern.trimStart();
    const space = text.search(WHITE_SPACE);
    const chunk = space < 0 ? text : text.slice(0, space);
    if (chunk === '') return false;
    out.push(chunk);
    alts.push(alt);
    return true;
  }
  const { head, alternatives, tail } = group;
  for (let j = 0; j < alternatives.length; j++)
    if (!firstChunks(head + alternatives[j] + tail, out, alts, alt < 0 ? j : alt)) return false;
  return true;
}

function patternAt(k: number): Pattern {
  const g = PATTERN_GROUP[k];
  if (g < 0) {
    const [, kind] = METRIC_LIST[-1 - g];
    return {
      pattern: PATTERN_TEXT[k],
      code: METRIC_INDEX,
      weight: 0,
      sources: ALL_SOURCES,
      subjectOnly: false,
      near: null,
      metric: kind,
    };
  }
  const group = LEXICON[g];
  const code = group.code === IGNORE ? IGNORE_INDEX : CODE_INDEX.get(group.code);
  if (code === undefined) throw new Error(`lexicon code ${group.code} is not in REASON_CODES`);
  const sources = group.sources ? group.sources.reduce((bits, src) => bits | SOURCE_BIT[src], 0) : ALL_SOURCES;
  return {
    pattern: PATTERN_TEXT[k],
    code,
    weight: group.weight,
    sources,
    subjectOnly: group.field === 0,
    near: NEAR_SETS[g] === undefined ? (NEAR_SETS[g] = nearSet(group.near)) : NEAR_SETS[g],
  };
}

/** Near-word sets by their word list (groups share lists: six groups, three lists). */
const NEAR_SET_OF = new Map<string, Map<number, number>>();

/** A group's near words (or the negators) as a set: the one-token words, first hash -> second hash. */
function nearSet(words: string | undefined): Map<number, number> | null {
  if (words === undefined) return null;
  const known = NEAR_SET_OF.get(words);
  if (known !== undefined) return known;
  const list = words.split('|');
  const { h1, h2, first } = tokenHashesMany(list);
  const set = new Map<number, number>();
  for (let w = 0; w < list.length; w++) if (first[w + 1] - first[w] === 1) set.set(h1[first[w]], h2[first[w]]);
  NEAR_SET_OF.set(words, set);
  return set;
}

/** Reads the lexicon's first words (the trie waits for compilePending); returns the negators' word set. */
function indexLexicon(): Map<number, number> {
  for (const group of LEXICON)
    if (group.code !== IGNORE && !CODE_INDEX.has(group.code))
      throw new Error(`lexicon code ${group.code} is not in REASON_CODES`);
  // Every pattern's possible first chunks; their first words (first hashes only) key the pairs.
  const chunks: string[] = [];
  const chunkAlt: number[] = [];
  const chunkFrom: number[] = [];
  const patterns = LEXICON.flatMap((group, g) => group.phrases.split('|').map((text) => [text, g] as const));
  patterns.push(...METRIC_LIST.map(([noun], k) => [noun, -1 - k] as const));
  for (const [text, g] of patterns) {
    PATTERN_TEXT.push(text);
    PATTERN_GROUP.push(g);
  }
  for (let k = 0; k < PATTERN_TEXT.length; k++) {
    const from = chunks.length;
    if (PATTERN_GROUP[k] < 0) {
      chunks.push(PATTERN_TEXT[k]);
      chunkAlt.push(-1);
    } else if (!firstChunks(PATTERN_TEXT[k], chunks, chunkAlt)) chunks.length = chunkAlt.length = from;
    chunkFrom.push(from);
  }
  chunkFrom.push(chunks.length);
  // Each chunk's first word (-1: none), each distinct chunk hashed once (1,900 chunks, 1,150 distinct). Most are
  // one plain word; the others go through the tokenizer.
  const chunkKey = new Int32Array(chunks.length);
  const keyOf = new Map<string, number>();
  const others: string[] = [];
  const otherChunk: number[] = [];
  for (let c = 0; c < chunks.length; c++) {
    let key = keyOf.get(chunks[c]);
    if (key === undefined) keyOf.set(chunks[c], (key = plainWordHash(chunks[c])));
    chunkKey[c] = key;
    if (key < 0) {
      others.push(chunks[c]);
      otherChunk.push(c);
    }
  }
  const { h1: o1, first: at } = tokenHashesMany(others, false);
  for (let o = 0; o < others.length; o++) chunkKey[otherChunk[o]] = at[o + 1] > at[o] ? o1[at[o]] : -1;

  PAIR_KEY = new Int32Array(chunks.length + 64);
  PAIR_PATTERN = new Int32Array(chunks.length + 64);
  PAIR_ALT = new Int32Array(chunks.length + 64);
  const addPair = (key: number, k: number, alt: number) => {
    if (PAIRS > 0 && PAIR_KEY[PAIRS - 1] === key && PAIR_PATTERN[PAIRS - 1] === k && PAIR_ALT[PAIRS - 1] === alt)
      return;
    if (PAIRS === PAIR_KEY.length) {
      const grow = (a: Int32Array) => {
        const b = new Int32Array(a.length * 2);
        b.set(a);
        return b;
      };
      PAIR_KEY = grow(PAIR_KEY);
      PAIR_PATTERN = grow(PAIR_PATTERN);
      PAIR_ALT = grow(PAIR_ALT);
    }
    PAIR_KEY[PAIRS] = key;
    PAIR_PATTERN[PAIRS] = k;
    PAIR_ALT[PAIRS++] = alt;
    FIRST_WORD[key & 0xffff] |= PENDING_BIT;
  };
  for (let k = 0; k < PATTERN_TEXT.length; k++) {
    let known = chunkFrom[k + 1] > chunkFrom[k];
    for (let c = chunkFrom[k]; known && c < chunkFrom[k + 1]; c++) if (chunkKey[c] < 0) known = false;
    if (known) {
      for (let c = chunkFrom[k]; c < chunkFrom[k + 1]; c++) addPair(chunkKey[c], k, chunkAlt[c]);
    } else {
      // Rare: a first chunk without a word (or none at all). Hash every phrase of the pattern.
      const { h1: all, first: from } = tokenHashesMany(
        phrasesOf(patternAt(k), -1).map((ph) => ph.text),
        false,
      );
      for (let q = 0; q + 1 < from.length; q++) if (from[q + 1] > from[q]) addPair(all[from[q]], k, -1);
    }
  }
  return nearSet(NEGATORS)!;
}

/**
 * A pattern's phrases (those within one alternative of its leading {} group when `alt` >= 0), as the trie holds
 * them: expanded, with a final `$` turned into the end-of-clause flag.
 */
function phrasesOf(p: Pattern, alt: number): { text: string; eoc: boolean }[] {
  const phrases: string[] = [];
  const group = alt >= 0 ? leadingGroup(p.pattern) : null;
  if (p.metric !== undefined) phrases.push(p.pattern);
  else if (group !== null) expand(group.head + group.alternatives[alt] + group.tail, phrases);
  else expand(p.pattern, phrases);
  const out: { text: string; eoc: boolean }[] = [];
  for (const phrase of phrases) {
    if (phrase === '') continue;
    if (phrase.endsWith('$')) out.push({ text: phrase.slice(0, -1).trim(), eoc: true });
    else out.push({ text: phrase, eoc: false });
  }
  return out;
}

/** Filter slots whose first words compilePending() is to compile. */
const SLOT_MARK = new Uint8Array(65536);

/**
 * Puts the phrases of every pending first word among `h1[from .. to)` into the trie (the first time a
 * text has such a word), in one batch: the patterns in lexicon order, each expanded and hashed once.
 */
export function compilePending(h1s: Int32Array, from: number, to: number): void {
  const slots: number[] = [];
  for (let i = from; i < to; i++) {
    const slot = h1s[i] & 0xffff;
    if ((FIRST_WORD[slot] & PENDING_BIT) !== 0 && SLOT_MARK[slot] === 0) {
      SLOT_MARK[slot] = 1;
      slots.push(slot);
    }
  }
  if (slots.length === 0) return;
  // The triples to compile, in lexicon order; each (pattern, alternative) expanded and hashed once.
  const pairs: number[] = [];
  const range = new Map<string, [number, number]>();
  const owners: Pattern[] = [];
  const texts: string[] = [];
  const eocs: boolean[] = [];
  const part = (i: number) => `${PAIR_PATTERN[i]}/${PAIR_ALT[i]}`;
  for (let i = 0; i < PAIRS; i++) {
    if (SLOT_MARK[PAIR_KEY[i] & 0xffff] === 0) continue;
    pairs.push(i);
    if (range.has(part(i))) continue;
    const from = texts.length;
    const p = patternAt(PAIR_PATTERN[i]);
    for (const { text, eoc } of phrasesOf(p, PAIR_ALT[i])) {
      owners.push(p);
      texts.push(text);
      eocs.push(eoc);
    }
    range.set(part(i), [from, texts.length]);
  }
  const { h1, h2, first } = tokenHashesMany(texts);
  const done = new Set<string>();
  for (const i of pairs) {
    const key = PAIR_KEY[i];
    if (done.has(`${key}/${part(i)}`)) continue;
    done.add(`${key}/${part(i)}`);
    const [from, to] = range.get(part(i))!;
    for (let t = from; t < to; t++) {
      if (first[t + 1] > first[t] && h1[first[t]] === key)
        addEntry(owners[t], texts[t], eocs[t], h1, h2, first[t], first[t + 1]);
    }
  }
  for (const slot of slots) {
    SLOT_MARK[slot] = 0;
    FIRST_WORD[slot] &= ~PENDING_BIT;
  }
}

/** Compiles every first word still pending (the trie an eager build gives) and returns the trie's root. */
export function compileWholeLexicon(): ReadonlyMap<number, TrieNode> {
  compilePending(PAIR_KEY, 0, PAIRS);
  return ROOT;
}

function addEntry(
  p: Pattern,
  text: string,
  eoc: boolean,
  h1: Int32Array,
  h2: Int32Array,
  from: number,
  to: number,
): void {
  const len = to - from;
  // The first group to claim a phrase keeps it: same words (so the same trie node), same conditions.
  let existing: TrieNode | undefined = ROOT.get(h1[from]);
  for (let k = from + 1; k < to && existing !== undefined; k++) existing = existing.next?.get(h1[k]);
  for (const other of existing?.entries ?? []) {
    if (
      other.eoc === eoc &&
      other.sources === p.sources &&
      other.subjectOnly === p.subjectOnly &&
      (other.near === null) === (p.near === null)
    )
      return;
  }
  let level = ROOT;
  let node: TrieNode | undefined;
  for (let k = from; k < to; k++) {
    node = level.get(h1[k]);
    if (node === undefined) {
      node = { h2: h2[k], next: null, entries: null };
      level.set(h1[k], node);
    } else if (node.h2 !== h2[k]) {
      throw new Error(`lexicon hash collision at "${text}"`);
    }
    if (k < to - 1) level = node.next ??= new Map<number, TrieNode>();
  }
  (node!.entries ??= []).push({
    code: p.code,
    weight: p.weight,
    len,
    eoc,
    subjectOnly: p.subjectOnly,
    sources: p.sources,
    near: p.near,
    phrase: text,
    metric: p.metric,
    seen: 0,
  });
  FIRST_WORD[h1[from] & 0xffff] |= ROOT_BIT;
  if (len === 1) FIRST_WORD[h1[from] & 0xffff] |= SINGLE_BIT;
  else {
    const slot = pairSlot(h1[from], h1[from + 1]);
    PAIR_FILTER[slot >>> 5] |= 1 << (slot & 31);
  }
}

/** The negators' word set (first hash -> second hash). */
export const NEGATOR_H2 = indexLexicon();

/** A negator within the 3 tokens before token `at`, in its clause ("never critical" is not "critical"). */
export function negatedAt(buf: TokenBuffer, at: number): boolean {
  const clause = buf.clause[at];
  for (let k = at - 1; k >= 0 && k >= at - 3; k--) {
    if (buf.clause[k] !== clause) return false;
    const h2 = NEGATOR_H2.get(buf.h1[k]);
    if (h2 !== undefined && h2 === buf.h2At(k)) return true;
  }
  return false;
}
