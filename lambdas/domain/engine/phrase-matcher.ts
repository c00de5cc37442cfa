// The phrase matcher: walks the lexicon trie over a text's tokens and records, per reason code, the strongest (or
// summed) weight and the phrase that carried it. Its per-call state lives in one PhraseMatcher object that the
// scorer owns and reuses (the scorer is synchronous; nothing interleaves), not in module variables.
import * as trie from './lexicon-trie';
import type { Entry, TrieNode } from './lexicon-trie';
import { infoOf } from './reason-codes';
import { TokenBuffer } from './tokens';

interface MetricHit {
  level: 0 | 1 | 2;
  text: string;
}
const NUMBER_AT = /(\d{1,9}(?:[.,]\d{1,4})?)\s*(%|percent|ms|msec|milliseconds?|s|secs?|seconds?)?(?![\p{L}\p{N}])/uy;
const METRIC_LABEL: Record<string, string> = { usage: 'usage', error: 'error rate', latency: 'latency' };
interface ScanResult {
  touched: number[];
  metric: MetricHit | null;
}
/** Positive evidence this far into the body counts half: long digests mention everything once. */
const DEEP_BODY_OFFSET = 3_000;

// Module-local bindings of the trie's tables: the hot loop reads them directly, not through the module object
// (which a CommonJS host such as tsx or jest turns into getter calls).
const {
  CODE_INDEX,
  CODES,
  FIRST_WORD,
  IGNORE_INDEX,
  METRIC_INDEX,
  NC,
  PAIR_FILTER,
  PENDING_BIT,
  ROOT,
  SINGLE_BIT,
  compilePending,
  negatedAt,
  pairSlot,
} = trie;

/** Codes whose matches a preceding negation cancels, and codes whose markers add up (see reason-codes.ts). */
const NEGATABLE = new Set<number>(CODES.flatMap((c, i) => (infoOf(c).negatable ? [i] : [])));
const ACCUMULATE = new Set<number>(CODES.flatMap((c, i) => (infoOf(c).accumulates ? [i] : [])));
const URGENCY = CODE_INDEX.get('URGENCY_LANGUAGE')!;
const NOT_URGENT = CODE_INDEX.get('NOT_URGENT')!;
const INTERNAL_BIT = trie.SOURCE_BIT.internal;

export class PhraseMatcher {
  readonly buf = new TokenBuffer();
  /** Per code: weight so far, matches, the phrase shown, and 1 while every match lies deep in a long body. */
  readonly hitWeight = new Float64Array(NC);
  readonly hitCount = new Int32Array(NC);
  readonly hitPhrase: string[] = new Array<string>(NC).fill('');
  readonly hitDeep = new Uint8Array(NC);
  /** Per-call stamp so a repeated phrase counts once. */
  private callStamp = 0;
  private readonly candidates: Entry[] = new Array<Entry>(64);
  /** The phrases matchAt accepted at one position, longest first. */
  private readonly accepted: Entry[] = new Array<Entry>(64);

  /** Whether token `k` is part of a name: it starts with a letter, or joins the word before with `-` or `_`. */
  private inName(k: number): boolean {
    const text = this.buf.texts[this.buf.field[k]];
    const start = this.buf.start[k];
    const first = text.charCodeAt(start);
    const before = start > 0 ? text.charAt(start - 1) : ' ';
    return first < 48 || first > 57 || before === '-' || before === '_';
  }

  readMetric(entry: Entry, at: number, len: number): MetricHit | null {
    const n = this.buf.count;
    const clause = this.buf.clause[at];
    // The number is right after the noun (up to 3 words in between: "CPU at 98%", "error rate is 40%")
    // or right before it ("95% disk").
    // A number inside a name ("web-3", "db_1", "node01") is no reading: the one after it is ("CPU on web-3 at 98%").
    let j = -1;
    let last = at + len + 3;
    for (let k = at + len; k < n && k <= last && this.buf.clause[k] === clause; k++) {
      if (this.buf.digits[k] === 0 || this.buf.field[k] !== this.buf.field[at]) continue;
      if (!this.inName(k)) {
        j = k;
        break;
      }
      last += 2; // the name took up to two of the words the reading may stand after
    }
    if (
      j < 0 &&
      at > 0 &&
      this.buf.clause[at - 1] === clause &&
      this.buf.digits[at - 1] > 0 &&
      this.buf.letters(at - 1) === 0
    )
      j = at - 1;
    if (j < 0) return null;
    const text = this.buf.texts[this.buf.field[j]];
    NUMBER_AT.lastIndex = this.buf.start[j];
    const m = NUMBER_AT.exec(text);
    if (!m) return null;
    const value = Number(m[1].replace(',', '.'));
    if (!Number.isFinite(value)) return null;
    const unit = (m[2] ?? '').toLowerCase();
    const percent = unit === '%' || unit === 'percent';
    let level: 0 | 1 | 2;
    let shown: string;
    if (entry.metric === 'usage' || entry.metric === 'error') {
      if (!percent) return null;
      const [crit, warn] = entry.metric === 'usage' ? [95, 85] : [10, 2];
      if (value > 100) return null;
      level = value >= crit ? 2 : value >= warn ? 1 : 0;
      shown = `${value}%`;
    } else {
      if (percent) return null;
      const seconds = unit.startsWith('m') ? value / 1000 : unit === '' && value >= 100 ? value / 1000 : value;
      level = seconds >= 3 ? 2 : seconds >= 1 ? 1 : 0;
      shown = `${Math.round(seconds * 1000) / 1000} s`;
    }
    if (level === 0) return null;
    const label = entry.metric === 'usage' ? `${entry.phrase.split(' ')[0]} usage` : METRIC_LABEL[entry.metric!];
    return { level, text: `${label} at ${shown}` };
  }

  private record(code: number, weight: number, phrase: string, at: number, touched: number[], accumulate: boolean) {
    const deep = weight > 0 && this.buf.field[at] === 1 && this.buf.start[at] >= DEEP_BODY_OFFSET;
    const w = deep ? weight / 2 : weight;
    if (this.hitCount[code] === 0) {
      touched.push(code);
      this.hitWeight[code] = w;
      this.hitPhrase[code] = phrase;
      this.hitDeep[code] = deep ? 1 : 0;
    } else if (accumulate) {
      this.hitWeight[code] += w;
    } else if (Math.abs(w) > Math.abs(this.hitWeight[code])) {
      this.hitWeight[code] = w;
      this.hitPhrase[code] = phrase;
      this.hitDeep[code] = deep ? 1 : 0;
    }
    if (!deep) this.hitDeep[code] = 0;
    this.hitCount[code]++;
  }

  private hasNear(near: Map<number, number>, at: number): boolean {
    const clause = this.buf.clause[at];
    for (let k = at - 1; k >= 0 && k >= at - 4 && this.buf.clause[k] === clause; k--) {
      const h2 = near.get(this.buf.h1[k]);
      if (h2 !== undefined && h2 === this.buf.h2At(k)) return true;
    }
    return false;
  }

  /**
   * Fills `this.accepted` with the phrases starting at token i whose conditions hold and returns how
   * many. The walk compares first hashes only; second hashes are checked for this.candidates alone.
   */
  private matchAt(i: number, sourceBit: number): number {
    const H1 = this.buf.h1;
    const CL = this.buf.clause;
    const n = this.buf.count;
    const root = ROOT.get(H1[i]);
    if (root === undefined) return 0;
    let node = root;
    let found = 0;
    let k = i;
    for (;;) {
      const entries = node.entries;
      if (entries !== null) {
        // The first entry whose conditions hold, and a metric noun's besides it (a phrase of both kinds).
        let taken = false;
        for (let e = 0; e < entries.length; e++) {
          const entry = entries[e];
          if (taken && entry.code !== METRIC_INDEX) continue;
          if ((entry.sources & sourceBit) === 0) continue;
          if (entry.subjectOnly && this.buf.field[i] !== 0) continue;
          if (entry.eoc && k + 1 < n && CL[k + 1] === CL[i]) continue;
          if (entry.near !== null && !this.hasNear(entry.near, i)) continue;
          if (found < 64) this.candidates[found++] = entry;
          if (taken || entry.code === METRIC_INDEX) break;
          taken = true;
        }
      }
      if (node.next === null || k + 1 >= n || CL[k + 1] !== CL[i]) break;
      const next: TrieNode | undefined = node.next.get(H1[k + 1]);
      if (next === undefined) break;
      node = next;
      k++;
    }
    // Longest first: verify the second hashes along the path. The longest phrase wins; shorter ones at the same start still count when they carry another
    // code ("down again" is a repeat and "service ... down" an outage), unless the longest is a
    // neutral phrase, which shields its words.
    let out = 0;
    for (let c = found - 1; c >= 0; c--) {
      const entry = this.candidates[c];
      let ok = true;
      let check = root;
      for (let t = 0; t < entry.len; t++) {
        if (t > 0) check = check.next!.get(H1[i + t])!;
        if (check.h2 !== this.buf.h2At(i + t)) {
          ok = false;
          break;
        }
      }
      if (!ok) continue;
      if (out === 0) {
        this.accepted[out++] = entry;
        if (entry.code === IGNORE_INDEX) break;
      } else if (entry.code !== IGNORE_INDEX) {
        let fresh = true;
        for (let a = 0; a < out; a++) if (this.accepted[a].code === entry.code) fresh = false;
        if (fresh) this.accepted[out++] = entry;
      }
    }
    return out;
  }

  scan(sourceBit: number): ScanResult {
    const touched: number[] = [];
    let metric: MetricHit | null = null;
    const n = this.buf.count;
    const H1 = this.buf.h1;
    this.callStamp++;
    // Matching moves one token at a time, so overlapping phrases all count ("my card" and "card was
    // declined"), but a phrase lying wholly inside an earlier one does not ("my subscription" inside
    // "cancel my subscription", "urgent" inside "not urgent").
    let coveredUntil = -1;
    let i = 0;
    while (i < n) {
      // A phrase can start here if the word is a one-word phrase, or the first word of a longer one
      // followed by a possible second word. Computed without branches: whether a word passes is
      // close to a coin toss on ordinary text, which a branch predictor cannot learn.
      const h = H1[i];
      let r = FIRST_WORD[h & 0xffff];
      if ((r & PENDING_BIT) !== 0) {
        // A word never seen before: compile its phrases, and those of every other new word in the rest of the text.
        compilePending(H1, i, n);
        r = FIRST_WORD[h & 0xffff];
      }
      const slot = pairSlot(h, H1[i + 1]); // H1[n] exists (junk past the last token)
      const pair = (PAIR_FILTER[slot >>> 5] >>> (slot & 31)) & (i + 1 < n ? 1 : 0);
      if (((r & SINGLE_BIT) | ((r >>> 1) & pair)) === 0) {
        i++;
        continue;
      }
      const count = this.matchAt(i, sourceBit);
      let longest = 0;
      for (let m = 0; m < count; m++) {
        const entry = this.accepted[m];
        if (i + entry.len - 1 <= coveredUntil) continue;
        if (entry.len > longest) longest = entry.len;
        if (entry.code === METRIC_INDEX) {
          const hit = this.readMetric(entry, i, entry.len);
          if (hit && (!metric || hit.level > metric.level)) metric = hit;
        } else if (entry.code !== IGNORE_INDEX) {
          const negated = NEGATABLE.has(entry.code) && negatedAt(this.buf, i);
          if (!negated) {
            const accumulate = ACCUMULATE.has(entry.code);
            // Urgency counts distinct words; accumulating codes count distinct markers.
            if (entry.code === URGENCY || accumulate) {
              if (entry.seen !== this.callStamp)
                this.record(entry.code, entry.weight, entry.phrase, i, touched, accumulate);
            } else {
              this.record(entry.code, entry.weight, entry.phrase, i, touched, false);
            }
            entry.seen = this.callStamp;
          } else if (entry.code === URGENCY && (sourceBit & INTERNAL_BIT) === 0) {
            // Negated urgency in a person's text is a hedge ("not urgent"); in an alert rule's description ("never
            // critical", "if not acted on immediately") it says nothing about this alert's severity.
            this.record(NOT_URGENT, -5, `not ${entry.phrase}`, i, touched, false);
          }
        }
      }
      if (longest > 0 && i + longest - 1 > coveredUntil) coveredUntil = i + longest - 1;
      i++;
    }
    return { touched, metric };
  }
}
