// All of a policy's keywords (docs/partners.md, "Workspace policy") matched in one pass over the text, in time linear
// in the text: one Aho-Corasick automaton for every phrase, instead of one regular expression per phrase (200 phrases
// of repeated short words took seconds against a long body). Semantics are keywordPattern's in policy.ts, exactly:
// case-insensitive as /iu compares (simple case folding), on text and phrases as keyword-text.ts prepares them
// (composed, one apostrophe, invisible characters left out, ß as ss, İ as i, compatibility Latin as its letters), any
// run of whitespace (\s) between words, and no letter, mark, digit or `_` just before or after the phrase. Whitespace
// runs become one symbol; each symbol also carries whether the character before it is a word character, so the
// automaton itself checks the start of a match and only the end is left to check. Pure.
import { keywordPhrase, keywordText } from './keyword-text';

const WORD = /[\p{L}\p{M}\p{N}_]/u;
const SPACE = /\s/;
const SPACE_CODE = 0x110000; // beyond every code point: the symbol of a whitespace run

/** Per BMP code point, filled on first sight: its fold + 1 (0 = not yet known), and whether it is a word character. */
const FOLD = new Int32Array(0x10000);
const IS_WORD = new Uint8Array(0x10000);

const single = (s: string): number | undefined => {
  const cp = s.codePointAt(0)!;
  return s.length === (cp > 0xffff ? 2 : 1) ? cp : undefined;
};

// The simple case foldings that no lowercase or uppercase mapping reaches: found by comparing every code point with
// /iu once (Node 20). Each is used only if the engine agrees, so a newer Unicode can at worst miss a match, never add
// one. The third, ﬅ (U+FB05) as ﬆ, never reaches the automaton: keyword-text.ts writes both ligatures as `st`.
const ALIASES = new Map([
  [0x1fd3, 0x390],
  [0x1fe3, 0x3b0],
]);

/** One code point per /iu class: the same for two characters exactly when /iu compares them equal. */
function computeFold(cp: number): number {
  const ch = String.fromCodePoint(cp);
  if (SPACE.test(ch)) return SPACE_CODE;
  const alias = ALIASES.get(cp);
  if (alias !== undefined && new RegExp(`^${String.fromCodePoint(alias)}$`, 'iu').test(ch)) return alias;
  if (ch.toLowerCase() === ch && ch.toUpperCase() === ch) return cp; // no case: a class of its own
  let current = ch;
  // Candidates in the same class as `ch` (checked by the regular expression engine itself), until none is new.
  for (let i = 0; i < 3; i++) {
    const upper = current.toUpperCase();
    const candidates = [single(upper) !== undefined ? upper.toLowerCase() : '', current.toLowerCase()];
    const next = candidates.find(
      (c) => single(c) !== undefined && c !== current && new RegExp(`^${escape(c)}$`, 'iu').test(ch),
    );
    if (next === undefined) break;
    current = next;
  }
  return current.codePointAt(0)!;
}
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

function fold(cp: number): number {
  if (cp < 0x10000) {
    const known = FOLD[cp];
    if (known) return known - 1;
    const f = computeFold(cp);
    FOLD[cp] = f + 1;
    IS_WORD[cp] = WORD.test(String.fromCodePoint(cp)) ? 1 : 0;
    return f;
  }
  let f = ASTRAL.get(cp);
  if (f === undefined) {
    f = computeFold(cp);
    if (f !== cp) ASTRAL.set(cp, f); // only the few hundred cased ones: bounded
  }
  return f;
}
const ASTRAL = new Map<number, number>();
function isWord(cp: number): boolean {
  if (cp < 0x10000) {
    fold(cp);
    return IS_WORD[cp] === 1;
  }
  return WORD.test(String.fromCodePoint(cp));
}

/** The text as symbols (fold * 2 + whether the previous character is a word character) and each symbol's word flag. */
function symbolsOf(text: string): { symbols: Int32Array; words: Uint8Array; length: number } {
  const symbols = new Int32Array(text.length);
  const words = new Uint8Array(text.length);
  let n = 0;
  let prevWord = 0;
  for (let i = 0; i < text.length;) {
    const cp = text.codePointAt(i)!;
    i += cp > 0xffff ? 2 : 1;
    const f = cp < 0x10000 && FOLD[cp] ? FOLD[cp] - 1 : fold(cp);
    if (f === SPACE_CODE) {
      if (n && symbols[n - 1] >> 1 === SPACE_CODE) continue;
      symbols[n] = f * 2 + prevWord;
      words[n++] = prevWord = 0;
      continue;
    }
    const word = (cp < 0x10000 ? IS_WORD[cp] === 1 : isWord(cp)) ? 1 : 0;
    symbols[n] = f * 2 + prevWord;
    words[n++] = prevWord = word;
  }
  return { symbols, words, length: n };
}

/** A phrase as the symbols of its matches: the first one requires a non-word character before it. */
function phraseSymbols(phrase: string): number[] {
  const { symbols, length } = symbolsOf(keywordPhrase(phrase));
  if (length) symbols[0] &= ~1;
  return [...symbols.subarray(0, length)];
}

/**
 * ASCII characters step from the root by one read of a table per matcher (256 ints, filled on first sight like the
 * folds): most characters of a text lead from the root nowhere, and the text is walked in a tight loop until one leads
 * somewhere; other characters take the general step. Matching the bench's 2 KB e-mail against a policy took 60 to
 * 90 us through a Map per character, about 3% of a warm analyze, and takes about 10 (docs/performance.md, "Workspaces
 * with a policy and a learned model").
 */
const FAST_CHARS = 0x80;

export interface KeywordMatcher<K> {
  readonly size: number;
  /** The keywords found in `text`, in the order they were given. */
  match(text: string): K[];
}

export function keywordMatcher<K extends { phrase: string }>(keywords: readonly K[]): KeywordMatcher<K> {
  if (keywords.length === 0) return { size: 0, match: () => [] };
  // The trie: children in one map keyed by node * alphabet + symbol index; the alphabet is the phrases' symbols.
  const alphabet = new Map<number, number>();
  const phrases = keywords.map((k) =>
    phraseSymbols(k.phrase).map((s) => alphabet.get(s) ?? alphabet.set(s, alphabet.size).get(s)!),
  );
  const width = Math.max(1, alphabet.size);
  const child = new Map<number, number>();
  const out: number[][] = [[]];
  for (const [k, symbols] of phrases.entries()) {
    let node = 0;
    for (const s of symbols) {
      let next = child.get(node * width + s);
      if (next === undefined) {
        next = out.length;
        out.push([]);
        child.set(node * width + s, next);
      }
      node = next;
    }
    out[node].push(k);
  }
  // Failure links (longest proper suffix that is a trie node) and dictionary links (nearest one that ends a phrase).
  const fail = new Int32Array(out.length);
  const dict = new Int32Array(out.length).fill(-1);
  const queue: number[] = [0];
  const childrenOf = new Map<number, [number, number][]>();
  for (const [key, node] of child) {
    const parent = Math.floor(key / width);
    (childrenOf.get(parent) ?? childrenOf.set(parent, []).get(parent)!).push([key % width, node]);
  }
  const step = (node: number, s: number): number => {
    for (;;) {
      const next = child.get(node * width + s);
      if (next !== undefined) return next;
      if (node === 0) return 0;
      node = fail[node];
    }
  };
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head];
    for (const [s, next] of childrenOf.get(node) ?? []) {
      fail[next] = node === 0 ? 0 : step(fail[node], s);
      dict[next] = out[fail[next]].length ? fail[next] : dict[fail[next]];
      queue.push(next);
    }
  }
  const ending = out.filter((o) => o.length).length;

  // The root's step per (ASCII character, whether the character before it is a word character); -1: not yet known.
  const fromRoot = new Int32Array(2 * FAST_CHARS).fill(-1);
  const rootStep = (c: number, prevWord: number): number => {
    const s = alphabet.get(fold(c) * 2 + prevWord);
    return (fromRoot[2 * c + prevWord] = s === undefined ? 0 : step(0, s));
  };
  /** Reports the phrases ending at `node` not reported yet, and their dictionary chain; returns how many nodes. */
  const report = (node: number, reported: Uint8Array, found: Uint8Array): number => {
    let n = 0;
    for (let t = out[node].length ? node : dict[node]; t > 0 && !reported[t]; t = dict[t]) {
      reported[t] = 1;
      n++;
      for (const k of out[t]) found[k] = 1;
    }
    return n;
  };

  return {
    size: keywords.length,
    match(input: string): K[] {
      const text = keywordText(input);
      // symbolsOf's symbols, one at a time: a phrase ending at a symbol is reported when the next one is not a word
      // character (the phrase must not run into a word), or the text ends.
      let found: Uint8Array | undefined;
      // A node once reported had its whole dictionary chain reported with it: walks stop there (linear overall).
      let reported: Uint8Array | undefined;
      let left = ending;
      let node = 0;
      let prevWord = 0;
      let prevSpace = false;
      const n = text.length;
      for (let i = 0; i < n && left > 0;) {
        if (node === 0) {
          // At the root a whitespace run's length changes nothing (no phrase starts with whitespace, and whitespace
          // is no word character), so an ASCII character needs no more than the table.
          while (i < n) {
            const c = text.charCodeAt(i);
            if (c >= FAST_CHARS) break;
            node = fromRoot[2 * c + prevWord];
            if (node < 0) node = rootStep(c, prevWord);
            prevWord = IS_WORD[c];
            i++;
            if (node !== 0) break;
          }
          prevSpace = false;
          if (i >= n || node !== 0) continue;
        }
        const cp = text.codePointAt(i)!;
        i += cp > 0xffff ? 2 : 1;
        const f = cp < 0x10000 && FOLD[cp] ? FOLD[cp] - 1 : fold(cp);
        let word = 0;
        if (f === SPACE_CODE) {
          if (prevSpace) continue; // a run of whitespace is one symbol
          prevSpace = true;
        } else {
          prevSpace = false;
          word = (cp < 0x10000 ? IS_WORD[cp] === 1 : isWord(cp)) ? 1 : 0;
        }
        if (node !== 0 && word === 0) {
          found ??= new Uint8Array(keywords.length);
          reported ??= new Uint8Array(out.length);
          left -= report(node, reported, found);
        }
        const s = alphabet.get(f * 2 + prevWord);
        node = s === undefined ? 0 : step(node, s);
        prevWord = word;
      }
      if (node !== 0 && left > 0) {
        found ??= new Uint8Array(keywords.length);
        report(node, reported ?? new Uint8Array(out.length), found);
      }
      return found ? keywords.filter((_, k) => found[k]) : [];
    },
  };
}
