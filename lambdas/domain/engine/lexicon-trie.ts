// The lexicon compiled into a token trie (lexicon.ts holds the phrases; phrase-matcher.ts walks the trie).
// Module load only marks each pattern's possible first words, read from lexicon-index.json (lexicon-index-build.ts
// builds it); the phrases starting with a word enter the trie the first time a text contains that word (expanding and
// hashing all 3,100 phrases at load cost 20 to 30 ms of init). Phrases with one first word share a branch, so
// compiling them together, in lexicon order, gives the very trie an eager build gives
// (test/unit/scorer-lexicon.test.ts compares the two).
import type { Source } from '../signal';
import { IGNORE, LEXICON, METRIC_NOUNS, NEGATORS } from './lexicon';
import LEXICON_INDEX from './lexicon-index.json';
import { type LexiconIndexFile, lexiconPatterns, phrasesOf } from './lexicon-patterns';
import { REASON_CODES, type ReasonCode } from './reason-codes';
import { tokenHashesMany } from './token-hashes';
import type { TokenBuffer } from './tokens';

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

export const ROOT = new Map<number, TrieNode>();
// Pre-filters that spare most tokens the trie walk, by the low 16 bits of a word's hash: ROOT_BIT
// for first words of any phrase, SINGLE_BIT for first words that are whole phrases; and a bitset of
// (first, second) word pairs of longer phrases. PENDING_BIT: phrases starting with such a word are
// not in the trie yet (see compilePending).
export const FIRST_WORD = new Uint8Array(65536);
export const SINGLE_BIT = 1;
const ROOT_BIT = 2;
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
const { text: PATTERN_TEXT, group: PATTERN_GROUP, characters: PATTERN_CHARACTERS } = lexiconPatterns();
/** Near-word sets by group, hashed the first time one of the group's phrases enters the trie (undefined: not yet). */
const NEAR_SETS: (Map<number, number> | null | undefined)[] = [];
/**
 * lexicon-index.json's (first-word hash, pattern, alternative) entries, in lexicon order: pattern PAIR_PATTERN[i] has
 * phrases starting with word PAIR_KEY[i]; when PAIR_ALT[i] >= 0, all of them within that alternative of the pattern's
 * leading {} group (the large patterns start with one, so a first word compiles a small part of them).
 */
const { PAIRS, PAIR_KEY, PAIR_PATTERN, PAIR_ALT } = readIndex();
const METRIC_LIST = Object.entries(METRIC_NOUNS);

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

/**
 * Reads lexicon-index.json and marks its first words pending. Checks first that every lexicon code is a reason code,
 * and that the index was built from a lexicon of this one's pattern count and length.
 */
function readIndex() {
  for (const group of LEXICON)
    if (group.code !== IGNORE && !CODE_INDEX.has(group.code))
      throw new Error(`lexicon code ${group.code} is not in REASON_CODES`);
  const index: LexiconIndexFile = LEXICON_INDEX;
  if (index.patterns !== PATTERN_TEXT.length || index.characters !== PATTERN_CHARACTERS)
    throw new Error('lexicon-index.json was built from another lexicon: run `npm run lexicon:index`');
  const pairs = index.keys.length;
  const key = Int32Array.from(index.keys);
  const pattern = new Int32Array(pairs);
  const alt = Int32Array.from(index.alts);
  let k = 0;
  for (let i = 0; i < pairs; i++) {
    k += index.patternSteps[i];
    pattern[i] = k;
    FIRST_WORD[key[i] & 0xffff] |= PENDING_BIT;
  }
  return { PAIRS: pairs, PAIR_KEY: key, PAIR_PATTERN: pattern, PAIR_ALT: alt };
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
  // The entries to compile, in lexicon order; each (pattern, alternative) expanded and hashed once.
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
    for (const { text, eoc } of phrasesOf(p.pattern, p.metric !== undefined, PAIR_ALT[i])) {
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
  // The first group to claim a phrase keeps it: same words (so the same trie node), same conditions. A metric noun
  // shares a phrase with a word group ("packet loss"): both stay, and the matcher reads the number beside it too.
  let existing: TrieNode | undefined = ROOT.get(h1[from]);
  for (let k = from + 1; k < to && existing !== undefined; k++) existing = existing.next?.get(h1[k]);
  for (const other of existing?.entries ?? []) {
    if (
      other.eoc === eoc &&
      other.sources === p.sources &&
      other.subjectOnly === p.subjectOnly &&
      (other.near === null) === (p.near === null) &&
      (other.metric === undefined) === (p.metric === undefined)
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
const NEGATOR_H2 = nearSet(NEGATORS)!;

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
