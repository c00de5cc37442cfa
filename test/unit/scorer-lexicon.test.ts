// The scorer builds its phrase trie lazily, one first word at a time (lambdas/domain/engine/lexicon-trie.ts). Built completely,
// it must equal the trie the plain eager algorithm builds from the same lexicon: every phrase, in lexicon order,
// hashed one by one with the reference tokenizer. Also a guard against first-hash collisions in the lexicon, which
// the lazy build would only notice when a text first contains the word.
import { IGNORE, LEXICON, METRIC_NOUNS, NEGATORS } from '../../lambdas/domain/engine/lexicon';
import { REASON_CODES } from '../../lambdas/domain/engine';
import {
  CODES,
  IGNORE_INDEX,
  METRIC_INDEX,
  compileWholeLexicon,
  type TrieNode,
} from '../../lambdas/domain/engine/lexicon-trie';

/** The lazily built trie, completed: one line per node (first-hash path, second hashes, entries in order), sorted. */
function lexiconTrieSnapshot(): string[] {
  const lines: string[] = [];
  const codeName = (code: number) =>
    code === IGNORE_INDEX ? 'IGNORE' : code === METRIC_INDEX ? 'METRIC' : CODES[code];
  const walk = (level: ReadonlyMap<number, TrieNode>, path: string, h2s: string) => {
    for (const [h1, node] of level) {
      const p = path ? `${path},${h1}` : String(h1);
      const h = h2s ? `${h2s},${node.h2}` : String(node.h2);
      const entries = (node.entries ?? []).map((e) =>
        [
          codeName(e.code),
          e.weight,
          e.len,
          +e.eoc,
          +e.subjectOnly,
          e.sources,
          e.near ? [...e.near].sort().join('+') : '-',
          e.phrase,
          e.metric ?? '',
        ].join(':'),
      );
      lines.push(`${p}|${h}|${entries.join(';')}`);
      if (node.next) walk(node.next, p, h);
    }
  };
  walk(compileWholeLexicon(), '', '');
  return lines.sort();
}
import { TokenBuffer } from '../../lambdas/domain/engine/tokens';
import { tokenizeWith } from '../support/reference-tokenizer';

const SOURCE_BIT: Record<string, number> = { email: 1, task: 2, crm_event: 4, support_message: 8, internal: 16 };
const ALL_SOURCES = 31;

function hashes(text: string): { h1: number[]; h2: number[] } {
  const buf = new TokenBuffer();
  buf.reset();
  tokenizeWith('reference', buf, text, 0, text.length);
  const h1: number[] = [];
  const h2: number[] = [];
  for (let i = 0; i < buf.count; i++) {
    h1.push(buf.h1[i]);
    h2.push(buf.h2At(i));
  }
  return { h1, h2 };
}

function expand(pattern: string): string[] {
  const open = pattern.indexOf('{');
  if (open < 0) return [pattern.replace(/\s+/g, ' ').trim()];
  const close = pattern.indexOf('}', open);
  return pattern
    .slice(open + 1, close)
    .split(',')
    .flatMap((alt) => expand(pattern.slice(0, open) + alt + pattern.slice(close + 1)));
}

function wordSet(words: string): Map<number, number> {
  const set = new Map<number, number>();
  for (const word of words.split('|')) {
    const { h1, h2 } = hashes(word);
    if (h1.length === 1) set.set(h1[0], h2[0]);
  }
  return set;
}

/** The eager build, as the scorer did it at module load before: same output format as lexiconTrieSnapshot. */
function eagerSnapshot(): string[] {
  interface Node {
    h2: number;
    entries: string[];
  }
  const nodes = new Map<string, Node & { h2path: string }>();
  const seen = new Set<string>();
  const add = (
    phrase: string,
    code: string,
    weight: number,
    sources: number,
    subjectOnly: boolean,
    near: Map<number, number> | null,
    metric = '',
  ) => {
    let text = phrase;
    let eoc = false;
    if (text.endsWith('$')) {
      eoc = true;
      text = text.slice(0, -1).trim();
    }
    const { h1, h2 } = hashes(text);
    if (h1.length === 0) return;
    const key = `${h1.join(',')}/${eoc}/${sources}/${subjectOnly}/${near === null}/${metric === ''}`;
    if (seen.has(key)) return;
    seen.add(key);
    let h2path = '';
    let node: (Node & { h2path: string }) | undefined;
    for (let k = 0; k < h1.length; k++) {
      const path = h1.slice(0, k + 1).join(',');
      h2path = h2path ? `${h2path},${h2[k]}` : String(h2[k]);
      node = nodes.get(path);
      if (!node) nodes.set(path, (node = { h2: h2[k], entries: [], h2path }));
      else if (node.h2 !== h2[k]) throw new Error(`lexicon hash collision at "${text}"`);
    }
    const nearText = near ? [...near].sort().join('+') : '-';
    node!.entries.push([code, weight, h1.length, +eoc, +subjectOnly, sources, nearText, text, metric].join(':'));
  };
  for (const group of LEXICON) {
    const sources = group.sources ? group.sources.reduce((bits, s) => bits | SOURCE_BIT[s], 0) : ALL_SOURCES;
    const near = group.near ? wordSet(group.near) : null;
    for (const raw of group.phrases.split('|')) {
      for (const phrase of expand(raw))
        if (phrase !== '')
          add(phrase, group.code === IGNORE ? 'IGNORE' : group.code, group.weight, sources, group.field === 0, near);
    }
  }
  for (const [noun, kind] of Object.entries(METRIC_NOUNS)) add(noun, 'METRIC', 0, ALL_SOURCES, false, null, kind);
  return [...nodes].map(([path, node]) => `${path}|${node.h2path}|${node.entries.join(';')}`).sort();
}

describe('lexicon trie', () => {
  it('built lazily and completed, equals the eager build of the same lexicon', () => {
    const eager = eagerSnapshot();
    const lazy = lexiconTrieSnapshot();
    expect(lazy.length).toBe(eager.length);
    expect(lazy).toEqual(eager);
    // Sanity: it holds the whole lexicon, in every code the lexicon names.
    const codes = new Set(
      lazy.flatMap((line) =>
        line
          .split('|')[2]
          .split(';')
          .filter(Boolean)
          .map((e) => e.split(':')[0]),
      ),
    );
    for (const group of LEXICON) expect(codes.has(group.code === IGNORE ? 'IGNORE' : group.code)).toBe(true);
    expect(codes.has('METRIC')).toBe(true);
    for (const code of codes) if (code !== 'IGNORE' && code !== 'METRIC') expect(REASON_CODES).toHaveProperty(code);
  });

  it('has negators that are single words', () => {
    for (const word of NEGATORS.split('|')) expect(hashes(word).h1).toHaveLength(1);
  });
});
