// The lexicon's patterns as text: the list in lexicon order, their expansion into phrases, their possible first
// chunks, and the shape of the first-word index's file. The trie (lexicon-trie.ts) lists the patterns at load and
// expands them when it compiles phrases; the index's builder (lexicon-index-build.ts) reads their first chunks.
import { LEXICON, METRIC_NOUNS } from './lexicon';

/**
 * Every lexicon pattern ("{a,b} c|d" is two) in lexicon order, with its group (-1 - k for the k-th metric noun); and
 * the characters of the groups' phrases and the metric nouns: with the count, a cheap check that an index was built
 * from this lexicon (it misses an edit that keeps both, which the index's unit test and the eval catch).
 */
export function lexiconPatterns(): { text: string[]; group: number[]; characters: number } {
  const text: string[] = [];
  const group: number[] = [];
  let characters = 0;
  for (let g = 0; g < LEXICON.length; g++) {
    characters += LEXICON[g].phrases.length;
    const phrases = LEXICON[g].phrases.split('|');
    for (let p = 0; p < phrases.length; p++) {
      text.push(phrases[p]);
      group.push(g);
    }
  }
  const nouns = Object.keys(METRIC_NOUNS);
  for (let k = 0; k < nouns.length; k++) {
    characters += nouns[k].length;
    text.push(nouns[k]);
    group.push(-1 - k);
  }
  return { text, group, characters };
}

/** lexicon-index.json. */
export interface LexiconIndexFile {
  /** lexiconPatterns()'s count and characters: the trie refuses an index whose lexicon differs in either. */
  patterns: number;
  characters: number;
  /**
   * Entry i says: pattern P has phrases starting with the word whose first hash is `keys[i]`; when `alts[i]` >= 0, all
   * of them within that alternative of the pattern's leading {} group. In lexicon order, so P only grows:
   * `patternSteps[i]` is P minus entry i - 1's (the first's from 0). Three arrays, P as steps of 0 or 1: the index is a
   * third smaller gzipped than as flat triples (9 KB against 14), which the engine Lambdas' bundle goal needs.
   */
  keys: number[];
  patternSteps: number[];
  alts: number[];
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
export function firstChunks(pattern: string, out: string[], alts: number[], alt = -1): boolean {
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

/**
 * A pattern's phrases (those within one alternative of its leading {} group when `alt` >= 0), as the trie holds
 * them: expanded, with a final `$` turned into the end-of-clause flag. A metric noun is taken as written.
 */
export function phrasesOf(pattern: string, metric: boolean, alt: number): { text: string; eoc: boolean }[] {
  const phrases: string[] = [];
  const group = alt >= 0 ? leadingGroup(pattern) : null;
  if (metric) phrases.push(pattern);
  else if (group !== null) expand(group.head + group.alternatives[alt] + group.tail, phrases);
  else expand(pattern, phrases);
  const out: { text: string; eoc: boolean }[] = [];
  for (const phrase of phrases) {
    if (phrase === '') continue;
    if (phrase.endsWith('$')) out.push({ text: phrase.slice(0, -1).trim(), eoc: true });
    else out.push({ text: phrase, eoc: false });
  }
  return out;
}
