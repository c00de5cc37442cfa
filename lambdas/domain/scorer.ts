// The decision engine. An additive, explainable rule model:
//   score = clamp(BASE_SCORE + sum of reason weights, 0, 100)
// Every point comes from a listed reason; when the sum leaves 0..100 the score is clamped and no
// balancing reason is invented (so sum(weights) = score - BASE_SCORE exactly when unclamped).
// Pure and deterministic: no clock, no randomness, no I/O. `now` is the analysis time.
import {
  priorityForScore,
  type Assessment,
  type Category,
  type Queue,
  type Reason,
  type RecommendedAction,
} from './decision';
import type { Signal, Source } from './signal';
import { IGNORE, LEXICON, METRIC_NOUNS, NEGATORS } from './scorer-lexicon';
import { spamLogit, spamModel } from './scorer-spam';
import { TokenBuffer, tokenHashesMany } from './scorer-text';

/** The baseline every signal starts from (reason-free "BASELINE" row in the README). */
export const BASE_SCORE = 20;
export const MODEL_VERSION = 'rules-1';
/** Only this much of the subject and body is read: bounded cost, same answer every time. */
export const SUBJECT_SCAN_CHARS = 1_000;
export const BODY_SCAN_CHARS = 20_000;

export interface ReasonCodeInfo {
  /** When the reason applies. */
  description: string;
  /** Smallest and largest weight the reason can carry. */
  min: number;
  max: number;
}

/** Every reason code the scorer can emit. The README's reason-code table is checked against this. */
export const REASON_CODES = {
  OUTAGE_LANGUAGE: { min: 12, max: 45, description: 'mentions an outage, downtime or data loss ("site is down", "Ausfall", "panne", "caída")' },
  DEGRADATION_LANGUAGE: { min: 5, max: 20, description: 'mentions degraded service: slowness, timeouts, elevated errors' },
  INTERNAL_ALERT: { min: 8, max: 15, description: 'internal signal worded as a firing alert ("alert", "threshold exceeded", "backup failed")' },
  ALERT_RESOLVED: { min: -20, max: -20, description: 'internal alert reports recovery ("resolved", "back to normal"); cancels incident and severity reasons' },
  METRIC_CRITICAL: { min: 25, max: 25, description: 'a metric past its critical level (usage >= 95%, error rate >= 10%, latency >= 3 s)' },
  METRIC_WARNING: { min: 10, max: 10, description: 'a metric past its warning level (usage >= 85%, error rate >= 2%, latency >= 1 s)' },
  IMPACT_SCOPE: { min: 5, max: 10, description: 'the problem affects many ("all users", "production"); only for incident, security and support' },
  SECURITY_LANGUAGE: { min: 8, max: 45, description: 'breach, phishing, leaked credentials, vulnerability, malware (30 for softer cues such as "suspicious login")' },
  LEGAL_THREAT: { min: 10, max: 40, description: 'threat of legal action ("lawsuit", "my lawyer", "cease and desist", "Anwalt", "avocat", "abogado")' },
  LEGAL_LANGUAGE: { min: 7, max: 25, description: 'mentions legal matters without a threat ("litigation", "attorney", "breach of contract")' },
  COMPLIANCE_REQUEST: { min: 7, max: 25, description: 'privacy or compliance request (GDPR/DSGVO/RGPD, DSAR, right to erasure, SOC 2)' },
  PAYMENT_FAILURE: { min: 8, max: 30, description: 'failed or wrong payment ("card declined", "charged twice", "invoice overdue")' },
  BILLING_QUESTION: { min: 4, max: 15, description: 'billing topic without a failure ("invoice", "receipt", "VAT")' },
  CHURN_LANGUAGE: { min: 5, max: 35, description: 'cancellation or switching intent ("cancel my subscription", "not renewing", "kündigen", "résilier", "cancelar")' },
  REFUND_DEMAND: { min: 7, max: 25, description: 'demands money back ("I want a refund", "remboursement", "reembolso")' },
  SALES_INTEREST: { min: 3, max: 25, description: 'buying interest: quote, demo, seats, enterprise plan (10 for a bare "pricing" or "demo")' },
  SUPPORT_REQUEST: { min: 3, max: 20, description: 'ordinary support request: something does not work, an error, a how-to question' },
  DEADLINE_LANGUAGE: { min: 3, max: 10, description: 'deadline or action item in the text ("due tomorrow", "by EOD", "action required")' },
  GRATITUDE_CLOSURE: { min: -20, max: -20, description: 'says the problem is solved ("thanks, that fixed it"); cancels support, slowness and outage wording unless the problem recurs' },
  POSITIVE_FEEDBACK: { min: -5, max: -5, description: 'praise without a request ("love the product")' },
  AUTOMATED_NOTIFICATION: { min: -25, max: -5, description: 'automated notification wording ("do not reply", "order confirmation", "build succeeded"); markers add up' },
  NEWSLETTER_LANGUAGE: { min: -30, max: -5, description: 'newsletter or bulk-mail wording ("unsubscribe", "view in browser"); markers add up' },
  AUTO_REPLY: { min: -30, max: -10, description: 'auto-reply or out-of-office wording; markers add up' },
  SPAM_LANGUAGE: { min: -40, max: -5, description: 'spam or scam wording ("you have won", "claim your prize", "lottery"); markers add up' },
  SPAM_MODEL: { min: -30, max: -20, description: 'the spam model (logistic regression on hashed words) rates the text as spam' },
  PERSONAL_LANGUAGE: { min: -10, max: -5, description: 'personal rather than business mail ("birthday", "dinner"); markers add up' },
  URGENCY_LANGUAGE: { min: 5, max: 15, description: 'urgency words ("urgent", "ASAP", "dringend", "sofort", "urgente"); 15 for two or more' },
  NOT_URGENT: { min: -5, max: -5, description: 'hedged or negated urgency ("not urgent", "no rush", "nicht dringend", "pas urgent")' },
  REPEATED_CONTACT: { min: 5, max: 10, description: 'an unresolved, repeated problem ("still not", "third time", "no response yet")' },
  FRUSTRATION: { min: 3, max: 5, description: 'frustrated tone ("unacceptable", "fed up")' },
  SHOUTING: { min: 5, max: 5, description: 'ALL-CAPS subject or body, or repeated "!!"; one small bump however loud' },
  SEVERITY_CRITICAL: { min: 25, max: 50, description: 'metadata.severity sev0/sev1/critical/1 (or "sev1", "P1" in the text)' },
  SEVERITY_HIGH: { min: 15, max: 30, description: 'metadata.severity sev2/high/major/2 (or "sev2", "P2" in the text)' },
  SEVERITY_MEDIUM: { min: 5, max: 10, description: 'metadata.severity sev3/medium/warning/3 (or "warning" in an internal signal)' },
  SEVERITY_LOW: { min: -10, max: -10, description: 'metadata.severity sev4/sev5/low/info/4/5' },
  VIP_SENDER: { min: 15, max: 15, description: 'metadata.vip is true, the sender is in metadata.vip_senders, or metadata.tags has "vip"' },
  VIP_CUSTOMER: { min: 15, max: 15, description: 'metadata.customer_tier is enterprise (or strategic, key, platinum, vip)' },
  CUSTOMER_TIER_PAID: { min: 5, max: 5, description: 'metadata.customer_tier is a paid plan (pro, business, premium, team, ...)' },
  CUSTOMER_TIER_FREE: { min: -5, max: -5, description: 'metadata.customer_tier is free or trial' },
  TAG_URGENT: { min: 10, max: 10, description: 'metadata.tags has urgent, asap, p0, p1, critical, escalation, blocker' },
  TAG_TOPIC: { min: -20, max: 15, description: 'metadata.tags names a topic: problem topics +15 (support +10), bulk/automated -15, spam -20' },
  DUE_OVERDUE: { min: 25, max: 25, description: 'metadata.due_at is before now' },
  DUE_WITHIN_24H: { min: 15, max: 15, description: 'metadata.due_at is within 24 hours of now' },
  DUE_WITHIN_3_DAYS: { min: 5, max: 5, description: 'metadata.due_at is within 72 hours of now' },
  DEAL_VALUE_HIGH: { min: 10, max: 20, description: 'metadata.amount or deal_value >= 10,000 (20 from 100,000); sales, churn, billing or CRM signals only' },
  WAITING_OVER_4H: { min: 5, max: 5, description: 'received_at is more than 4 hours before now' },
  WAITING_OVER_24H: { min: 10, max: 10, description: 'received_at is more than 24 hours before now' },
  NO_REPLY_SENDER: { min: -15, max: -15, description: 'sender is a no-reply or system address (noreply@, notifications@, mailer-daemon@, ...)' },
  BULK_SENDER: { min: -5, max: -5, description: 'sender is a bulk-mail address (newsletter@, marketing@, news@, ...)' },
  SENDER_BUSINESS_DOMAIN: { min: 5, max: 5, description: 'a sales lead from a business domain' },
  SENDER_FREE_MAIL: { min: -5, max: -5, description: 'a sales lead from a free-mail domain (gmail.com, web.de, ...)' },
} as const satisfies Record<string, ReasonCodeInfo>;

export type ReasonCode = keyof typeof REASON_CODES;

// ---------------------------------------------------------------------------------------------
// Categories, queues, actions

const CODE_CATEGORY: Partial<Record<ReasonCode, Category>> = {
  OUTAGE_LANGUAGE: 'incident',
  DEGRADATION_LANGUAGE: 'incident',
  INTERNAL_ALERT: 'incident',
  METRIC_CRITICAL: 'incident',
  METRIC_WARNING: 'incident',
  SEVERITY_CRITICAL: 'incident',
  SEVERITY_HIGH: 'incident',
  SECURITY_LANGUAGE: 'security',
  LEGAL_THREAT: 'legal',
  LEGAL_LANGUAGE: 'legal',
  COMPLIANCE_REQUEST: 'legal',
  PAYMENT_FAILURE: 'billing',
  BILLING_QUESTION: 'billing',
  CHURN_LANGUAGE: 'churn_risk',
  REFUND_DEMAND: 'churn_risk',
  SALES_INTEREST: 'sales_opportunity',
  SUPPORT_REQUEST: 'support',
  DEADLINE_LANGUAGE: 'task',
  GRATITUDE_CLOSURE: 'feedback',
  POSITIVE_FEEDBACK: 'feedback',
  AUTOMATED_NOTIFICATION: 'notification',
  NO_REPLY_SENDER: 'notification',
  ALERT_RESOLVED: 'notification',
  NEWSLETTER_LANGUAGE: 'newsletter',
  BULK_SENDER: 'newsletter',
  AUTO_REPLY: 'auto_reply',
  SPAM_LANGUAGE: 'spam',
  SPAM_MODEL: 'spam',
  PERSONAL_LANGUAGE: 'personal',
};

/** Where each category is routed. `general` depends on the source (see queueFor). */
export const CATEGORY_QUEUE: Readonly<Record<Category, Queue>> = {
  incident: 'engineering',
  security: 'security',
  legal: 'legal',
  billing: 'finance',
  churn_risk: 'customer_success',
  sales_opportunity: 'sales',
  support: 'support',
  task: 'operations',
  feedback: 'customer_success',
  notification: 'none',
  newsletter: 'none',
  auto_reply: 'none',
  spam: 'none',
  personal: 'none',
  general: 'support',
};

/** Categories that need no human; archived while their score stays low. */
export const ARCHIVE_CATEGORIES: ReadonlySet<Category> = new Set(['notification', 'newsletter', 'auto_reply', 'spam']);

/** Tie-break order when two categories have the same evidence: the riskier one wins. */
const CATEGORY_PRECEDENCE: readonly Category[] = [
  'security',
  'incident',
  'legal',
  'churn_risk',
  'billing',
  'support',
  'sales_opportunity',
  'task',
  'feedback',
  'spam',
  'auto_reply',
  'newsletter',
  'notification',
  'personal',
  'general',
];

/** Least evidence (sum of |weights|) before an archive category or `personal` may be chosen. */
const ARCHIVE_MIN_EVIDENCE = 15;
const PERSONAL_MIN_EVIDENCE = 10;

const ACTION_BY_PRIORITY = { critical: 'escalate', high: 'respond_now', medium: 'respond', low: 'review' } as const;

function queueFor(category: Category, source: Source): Queue {
  if (category !== 'general') return CATEGORY_QUEUE[category];
  if (source === 'internal' || source === 'task') return 'operations';
  if (source === 'crm_event') return 'sales';
  return 'support';
}

// ---------------------------------------------------------------------------------------------
// Lexicon compilation (an index at module load, the trie on first use of each first word)

const CODES = Object.keys(REASON_CODES) as ReasonCode[];
const CODE_INDEX = new Map<string, number>(CODES.map((c, i) => [c, i]));
const NC = CODES.length;
const IGNORE_INDEX = -1;
const METRIC_INDEX = -2;

const SOURCE_BIT: Record<Source, number> = { email: 1, task: 2, crm_event: 4, support_message: 8, internal: 16 };
const ALL_SOURCES = 31;

interface Entry {
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
interface TrieNode {
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

const ROOT = new Map<number, TrieNode>();
// Pre-filters that spare most tokens the trie walk, by the low 16 bits of a word's hash: ROOT_BIT
// for first words of any phrase, SINGLE_BIT for first words that are whole phrases; and a bitset of
// (first, second) word pairs of longer phrases. PENDING_BIT: phrases starting with such a word are
// not in the trie yet (see compilePending).
const FIRST_WORD = new Uint8Array(65536);
const SINGLE_BIT = 1;
const ROOT_BIT = 2;
const PENDING_BIT = 4;
const PAIR_BITS = 18;
const PAIR_FILTER = new Int32Array((1 << PAIR_BITS) >>> 5);
const pairSlot = (a: number, b: number) => (Math.imul(a, 0x9e3779b1) ^ b) >>> (32 - PAIR_BITS);

// ---- The trie is built lazily, one first word at a time ------------------------------------------
// Expanding and hashing the whole lexicon (3,100 phrases) cost 20 to 30 ms of module init, before
// V8 has compiled anything. Module load now only reads each pattern's possible first words, and the
// phrases starting with a word go into the trie the first time a text contains that word: a 2 KB
// e-mail meets a few dozen of them, about 5 ms on its first scoring (npm run bench shows both).
// Phrases with the same first word share one trie branch, so compiling them together, in lexicon
// order, gives the very trie an eager build gives (test/unit/scorer-lexicon.test.ts compares the
// two); and the trie only ever holds whole branches, so matching is unchanged.

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
/** Near-word sets by group (null: the group has none). */
let NEAR_SETS: (Map<number, number> | null)[] = [];
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

/** A pattern whose first chunk holds a {} group: the text before it, its alternatives, the text after. */
function leadingGroup(pattern: string): { head: string; alternatives: string[]; tail: string } | null {
  const text = pattern.trimStart();
  const open = text.indexOf('{');
  const space = text.search(/\s/);
  if (open < 0 || (space >= 0 && space < open)) return null;
  const close = text.indexOf('}', open);
  return { head: text.slice(0, open), alternatives: text.slice(open + 1, close).split(','), tail: text.slice(close + 1) };
}

/**
 * The possible first space-separated chunks of a pattern's phrases, each with the alternative of the
 * leading {} group it comes from (-1: none); false when a chunk may hold no word.
 */
function firstChunks(pattern: string, out: string[], alts: number[], alt = -1): boolean {
  const group = leadingGroup(pattern);
  if (group === null) {
    const text = pattern.trimStart();
    const space = text.search(/\s/);
    const chunk = space < 0 ? text : text.slice(0, space);
    if (chunk === '') return false;
    out.push(chunk);
    alts.push(alt);
    return true;
  }
  const { head, alternatives, tail } = group;
  for (let j = 0; j < alternatives.length; j++) if (!firstChunks(head + alternatives[j] + tail, out, alts, alt < 0 ? j : alt)) return false;
  return true;
}

function patternAt(k: number): Pattern {
  const g = PATTERN_GROUP[k];
  if (g < 0) {
    const [, kind] = METRIC_LIST[-1 - g];
    return { pattern: PATTERN_TEXT[k], code: METRIC_INDEX, weight: 0, sources: ALL_SOURCES, subjectOnly: false, near: null, metric: kind };
  }
  const group = LEXICON[g];
  const code = group.code === IGNORE ? IGNORE_INDEX : CODE_INDEX.get(group.code);
  if (code === undefined) throw new Error(`lexicon code ${group.code} is not in REASON_CODES`);
  const sources = group.sources ? group.sources.reduce((bits, src) => bits | SOURCE_BIT[src], 0) : ALL_SOURCES;
  return { pattern: PATTERN_TEXT[k], code, weight: group.weight, sources, subjectOnly: group.field === 0, near: NEAR_SETS[g] };
}

/** Reads the lexicon's first words (the trie waits for compilePending); returns the negators' word set. */
function indexLexicon(): Map<number, number> {
  for (const group of LEXICON) if (group.code !== IGNORE && !CODE_INDEX.has(group.code)) throw new Error(`lexicon code ${group.code} is not in REASON_CODES`);
  // Negators and near words: whole words, with both hashes.
  const negators = NEGATORS.split('|');
  const words: string[] = [...negators];
  const nearFrom = LEXICON.map((group) => {
    const from = words.length;
    if (group.near) words.push(...group.near.split('|'));
    return from;
  });
  nearFrom.push(words.length);
  const { h1, h2, first } = tokenHashesMany(words);
  /** The one-token words among words[from .. to), first hash -> second hash. */
  const wordSet = (from: number, to: number) => {
    const set = new Map<number, number>();
    for (let w = from; w < to; w++) if (first[w + 1] - first[w] === 1) set.set(h1[first[w]], h2[first[w]]);
    return set;
  };
  NEAR_SETS = LEXICON.map((group, g) => (group.near ? wordSet(nearFrom[g], nearFrom[g + 1]) : null));

  // Every pattern's possible first chunks; their first words (first hashes only) key the pairs.
  const chunks: string[] = [];
  const chunkAlt: number[] = [];
  const chunkFrom: number[] = [];
  LEXICON.forEach((group, g) => {
    for (const pattern of group.phrases.split('|')) {
      PATTERN_TEXT.push(pattern);
      PATTERN_GROUP.push(g);
    }
  });
  METRIC_LIST.forEach(([noun], k) => {
    PATTERN_TEXT.push(noun);
    PATTERN_GROUP.push(-1 - k);
  });
  for (let k = 0; k < PATTERN_TEXT.length; k++) {
    const from = chunks.length;
    if (PATTERN_GROUP[k] < 0) {
      chunks.push(PATTERN_TEXT[k]);
      chunkAlt.push(-1);
    } else if (!firstChunks(PATTERN_TEXT[k], chunks, chunkAlt)) chunks.length = chunkAlt.length = from;
    chunkFrom.push(from);
  }
  chunkFrom.push(chunks.length);
  const { h1: c1, first: at } = tokenHashesMany(chunks, false);

  PAIR_KEY = new Int32Array(chunks.length + 64);
  PAIR_PATTERN = new Int32Array(chunks.length + 64);
  PAIR_ALT = new Int32Array(chunks.length + 64);
  const addPair = (key: number, k: number, alt: number) => {
    if (PAIRS > 0 && PAIR_KEY[PAIRS - 1] === key && PAIR_PATTERN[PAIRS - 1] === k && PAIR_ALT[PAIRS - 1] === alt) return;
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
    for (let c = chunkFrom[k]; known && c < chunkFrom[k + 1]; c++) if (at[c + 1] === at[c]) known = false;
    if (known) {
      for (let c = chunkFrom[k]; c < chunkFrom[k + 1]; c++) addPair(c1[at[c]], k, chunkAlt[c]);
    } else {
      // Rare: a first chunk without a word (or none at all). Hash every phrase of the pattern.
      const { h1: all, first: from } = tokenHashesMany(phrasesOf(patternAt(k), -1).map((ph) => ph.text), false);
      for (let q = 0; q + 1 < from.length; q++) if (from[q + 1] > from[q]) addPair(all[from[q]], k, -1);
    }
  }
  return wordSet(0, negators.length);
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
function compilePending(h1s: Int32Array, from: number, to: number): void {
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
      if (first[t + 1] > first[t] && h1[first[t]] === key) addEntry(owners[t], texts[t], eocs[t], h1, h2, first[t], first[t + 1]);
    }
  }
  for (const slot of slots) {
    SLOT_MARK[slot] = 0;
    FIRST_WORD[slot] &= ~PENDING_BIT;
  }
}

/**
 * Test support: compiles every first word still pending (the trie an eager build gives), then lists
 * the trie: one line per node (first-hash path, second hashes, entries in order), sorted.
 */
export function lexiconTrieSnapshot(): string[] {
  compilePending(PAIR_KEY, 0, PAIRS);
  const lines: string[] = [];
  const codeName = (code: number) => (code === IGNORE_INDEX ? 'IGNORE' : code === METRIC_INDEX ? 'METRIC' : CODES[code]);
  const walk = (level: Map<number, TrieNode>, path: string, h2s: string) => {
    for (const [h1, node] of level) {
      const p = path ? `${path},${h1}` : String(h1);
      const h = h2s ? `${h2s},${node.h2}` : String(node.h2);
      const entries = (node.entries ?? []).map((e) =>
        [codeName(e.code), e.weight, e.len, +e.eoc, +e.subjectOnly, e.sources, e.near ? [...e.near].sort().join('+') : '-', e.phrase, e.metric ?? ''].join(':'),
      );
      lines.push(`${p}|${h}|${entries.join(';')}`);
      if (node.next) walk(node.next, p, h);
    }
  };
  walk(ROOT, '', '');
  return lines.sort();
}

function addEntry(p: Pattern, text: string, eoc: boolean, h1: Int32Array, h2: Int32Array, from: number, to: number): void {
  const len = to - from;
  // The first group to claim a phrase keeps it: same words (so the same trie node), same conditions.
  let existing: TrieNode | undefined = ROOT.get(h1[from]);
  for (let k = from + 1; k < to && existing !== undefined; k++) existing = existing.next?.get(h1[k]);
  for (const other of existing?.entries ?? []) {
    if (other.eoc === eoc && other.sources === p.sources && other.subjectOnly === p.subjectOnly && (other.near === null) === (p.near === null)) return;
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
    if (k < to - 1) level = node.next ??= new Map();
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

const NEGATOR_H2 = indexLexicon();

/** Codes whose matches a preceding negation ("not", "no", "nicht", "pas", "no") cancels. */
const NEGATABLE = new Set<number>(
  (
    [
      'OUTAGE_LANGUAGE',
      'DEGRADATION_LANGUAGE',
      'INTERNAL_ALERT',
      'IMPACT_SCOPE',
      'SECURITY_LANGUAGE',
      'LEGAL_THREAT',
      'LEGAL_LANGUAGE',
      'COMPLIANCE_REQUEST',
      'PAYMENT_FAILURE',
      'BILLING_QUESTION',
      'CHURN_LANGUAGE',
      'REFUND_DEMAND',
      'SALES_INTEREST',
      'SUPPORT_REQUEST',
      'DEADLINE_LANGUAGE',
      'GRATITUDE_CLOSURE',
      'POSITIVE_FEEDBACK',
      'URGENCY_LANGUAGE',
      'FRUSTRATION',
      'SEVERITY_CRITICAL',
      'SEVERITY_HIGH',
      'SEVERITY_MEDIUM',
      'ALERT_RESOLVED',
    ] as ReasonCode[]
  ).map((c) => CODE_INDEX.get(c)!),
);

/** Codes whose markers add up (capped at the code's extreme weight); others keep their strongest match. */
const ACCUMULATE = new Set<number>(
  (['AUTOMATED_NOTIFICATION', 'NEWSLETTER_LANGUAGE', 'AUTO_REPLY', 'SPAM_LANGUAGE', 'PERSONAL_LANGUAGE'] as ReasonCode[]).map(
    (c) => CODE_INDEX.get(c)!,
  ),
);

const I = (c: ReasonCode) => CODE_INDEX.get(c)!;
const URGENCY = I('URGENCY_LANGUAGE');
const NOT_URGENT = I('NOT_URGENT');

// ---------------------------------------------------------------------------------------------
// Per-call scratch state (the scorer is synchronous; nothing interleaves)

const buf = new TokenBuffer();
const hitWeight = new Float64Array(NC);
const hitCount = new Int32Array(NC);
const hitPhrase: string[] = new Array<string>(NC).fill('');
/** 1 while every match of the code so far lies deep in a long body. */
const hitDeep = new Uint8Array(NC);
let callStamp = 0;

interface MetricHit {
  level: 0 | 1 | 2;
  text: string;
}

const NUMBER_AT = /(\d{1,9}(?:[.,]\d{1,4})?)\s*(%|percent|ms|msec|milliseconds?|s|secs?|seconds?)?(?![\p{L}\p{N}])/uy;
const METRIC_LABEL: Record<string, string> = { usage: 'usage', error: 'error rate', latency: 'latency' };

function readMetric(entry: Entry, at: number, len: number): MetricHit | null {
  const n = buf.count;
  const clause = buf.clause[at];
  // The number is right after the noun (up to 3 words in between: "CPU at 98%", "error rate is 40%")
  // or right before it ("95% disk").
  let j = -1;
  for (let k = at + len; k < n && k <= at + len + 3 && buf.clause[k] === clause; k++) {
    if (buf.digits[k] > 0 && buf.field[k] === buf.field[at]) {
      j = k;
      break;
    }
  }
  if (j < 0 && at > 0 && buf.clause[at - 1] === clause && buf.digits[at - 1] > 0 && buf.letters(at - 1) === 0) j = at - 1;
  if (j < 0) return null;
  const text = buf.texts[buf.field[j]];
  NUMBER_AT.lastIndex = buf.start[j];
  const m = NUMBER_AT.exec(text);
  if (!m) return null;
  const value = Number(m[1].replace(',', '.'));
  if (!Number.isFinite(value)) return null;
  const unit = (m[2] ?? '').toLowerCase();
  const percent = unit === '%' || unit === 'percent';
  let level: 0 | 1 | 2 = 0;
  let shown = '';
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

function isNegated(at: number): boolean {
  const clause = buf.clause[at];
  for (let k = at - 1; k >= 0 && k >= at - 3; k--) {
    if (buf.clause[k] !== clause) return false;
    const h2 = NEGATOR_H2.get(buf.h1[k]);
    if (h2 !== undefined && h2 === buf.h2At(k)) return true;
  }
  return false;
}

interface ScanResult {
  touched: number[];
  metric: MetricHit | null;
}

/** Positive evidence this far into the body counts half: long digests mention everything once. */
export const DEEP_BODY_OFFSET = 3_000;

function record(code: number, weight: number, phrase: string, at: number, touched: number[], accumulate: boolean) {
  const deep = weight > 0 && buf.field[at] === 1 && buf.start[at] >= DEEP_BODY_OFFSET;
  const w = deep ? weight / 2 : weight;
  if (hitCount[code] === 0) {
    touched.push(code);
    hitWeight[code] = w;
    hitPhrase[code] = phrase;
    hitDeep[code] = deep ? 1 : 0;
  } else if (accumulate) {
    hitWeight[code] += w;
  } else if (Math.abs(w) > Math.abs(hitWeight[code])) {
    hitWeight[code] = w;
    hitPhrase[code] = phrase;
    hitDeep[code] = deep ? 1 : 0;
  }
  if (!deep) hitDeep[code] = 0;
  hitCount[code]++;
}

function hasNear(near: Map<number, number>, at: number): boolean {
  const clause = buf.clause[at];
  for (let k = at - 1; k >= 0 && k >= at - 4 && buf.clause[k] === clause; k--) {
    const h2 = near.get(buf.h1[k]);
    if (h2 !== undefined && h2 === buf.h2At(k)) return true;
  }
  return false;
}

const candidates: Entry[] = new Array<Entry>(64);
/** The phrases matchAt accepted at one position, longest first. */
const accepted: Entry[] = new Array<Entry>(64);

/**
 * Fills `accepted` with the phrases starting at token i whose conditions hold and returns how
 * many. The walk compares first hashes only; second hashes are checked for candidates alone.
 */
function matchAt(i: number, sourceBit: number): number {
  const H1 = buf.h1;
  const CL = buf.clause;
  const n = buf.count;
  const root = ROOT.get(H1[i]);
  if (root === undefined) return 0;
  let node = root;
  let found = 0;
  let k = i;
  for (;;) {
    const entries = node.entries;
    if (entries !== null) {
      for (let e = 0; e < entries.length; e++) {
        const entry = entries[e];
        if ((entry.sources & sourceBit) === 0) continue;
        if (entry.subjectOnly && buf.field[i] !== 0) continue;
        if (entry.eoc && k + 1 < n && CL[k + 1] === CL[i]) continue;
        if (entry.near !== null && !hasNear(entry.near, i)) continue;
        if (found < 64) candidates[found++] = entry;
        break;
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
    const entry = candidates[c];
    let ok = true;
    let check = root;
    for (let t = 0; t < entry.len; t++) {
      if (t > 0) check = check.next!.get(H1[i + t])!;
      if (check.h2 !== buf.h2At(i + t)) {
        ok = false;
        break;
      }
    }
    if (!ok) continue;
    if (out === 0) {
      accepted[out++] = entry;
      if (entry.code === IGNORE_INDEX) break;
    } else if (entry.code !== IGNORE_INDEX) {
      let fresh = true;
      for (let a = 0; a < out; a++) if (accepted[a].code === entry.code) fresh = false;
      if (fresh) accepted[out++] = entry;
    }
  }
  return out;
}

function scan(sourceBit: number): ScanResult {
  const touched: number[] = [];
  let metric: MetricHit | null = null;
  const n = buf.count;
  const H1 = buf.h1;
  callStamp++;
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
    const count = matchAt(i, sourceBit);
    let longest = 0;
    for (let m = 0; m < count; m++) {
      const entry = accepted[m];
      if (i + entry.len - 1 <= coveredUntil) continue;
      if (entry.len > longest) longest = entry.len;
      if (entry.code === METRIC_INDEX) {
        const hit = readMetric(entry, i, entry.len);
        if (hit && (!metric || hit.level > metric.level)) metric = hit;
      } else if (entry.code !== IGNORE_INDEX) {
        const negated = NEGATABLE.has(entry.code) && isNegated(i);
        if (!negated) {
          const accumulate = ACCUMULATE.has(entry.code);
          // Urgency counts distinct words; accumulating codes count distinct markers.
          if (entry.code === URGENCY || accumulate) {
            if (entry.seen !== callStamp) record(entry.code, entry.weight, entry.phrase, i, touched, accumulate);
          } else {
            record(entry.code, entry.weight, entry.phrase, i, touched, false);
          }
          entry.seen = callStamp;
        } else if (entry.code === URGENCY) {
          record(NOT_URGENT, -5, `not ${entry.phrase}`, i, touched, false);
        }
      }
    }
    if (longest > 0 && i + longest - 1 > coveredUntil) coveredUntil = i + longest - 1;
    i++;
  }
  return { touched, metric };
}

// ---------------------------------------------------------------------------------------------
// Metadata and sender helpers (metadata may be any JSON: never throw, ignore what doesn't fit)

type Meta = Record<string, unknown>;

function own(md: Meta | null, key: string): unknown {
  if (md === null) return undefined;
  return Object.prototype.hasOwnProperty.call(md, key) ? md[key] : undefined;
}

function shortString(v: unknown, max = 100): string | null {
  return typeof v === 'string' && v.length <= max ? v.trim().toLowerCase() : null;
}

function asNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && v.length <= 40 && /^\s*\d[\d,_ ]*(?:\.\d+)?\s*$/.test(v)) {
    const n = Number(v.replace(/[,_ ]/g, ''));
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

function stringList(v: unknown, maxItems = 50): string[] {
  if (typeof v === 'string') v = v.length <= 2000 ? v.split(',') : [];
  if (!Array.isArray(v)) return [];
  const out: string[] = [];
  for (let i = 0; i < v.length && i < maxItems; i++) {
    const s = shortString(v[i], 320);
    if (s) out.push(s);
  }
  return out;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}(?:[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:[Zz]|[+-]\d{2}:?\d{2}))?$/;

/** Milliseconds since the epoch, or null. Date-only values mean the end of that day (UTC). */
function parseTime(v: unknown): number | null {
  if (typeof v !== 'string' || v.length > 40) return null;
  const s = v.trim();
  if (!RFC3339.test(s)) return null;
  if (s.length === 10) {
    const t = Date.parse(`${s}T23:59:59.999Z`);
    return Number.isFinite(t) ? t : null;
  }
  // Date-times must carry an offset (checked above), so parsing does not depend on the host's zone.
  if (!/[Zz]$|[+-]\d{2}:?\d{2}$/.test(s)) return null;
  const t = Date.parse(s.replace(' ', 'T').replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isFinite(t) ? t : null;
}

const FREE_MAIL = new Set([
  'gmail.com', 'googlemail.com', 'yahoo.com', 'yahoo.co.uk', 'yahoo.fr', 'yahoo.de', 'yahoo.es', 'ymail.com', 'hotmail.com',
  'hotmail.co.uk', 'hotmail.fr', 'hotmail.de', 'hotmail.es', 'outlook.com', 'outlook.de', 'outlook.fr', 'outlook.es',
  'live.com', 'live.de', 'live.fr', 'msn.com', 'aol.com', 'icloud.com', 'me.com', 'mac.com', 'gmx.de', 'gmx.net', 'gmx.com',
  'gmx.at', 'gmx.ch', 'web.de', 't-online.de', 'freenet.de', 'orange.fr', 'wanadoo.fr', 'free.fr', 'laposte.net', 'sfr.fr',
  'yandex.com', 'yandex.ru', 'mail.ru', 'protonmail.com', 'proton.me', 'pm.me', 'zoho.com', 'qq.com', '163.com', '126.com',
  'libero.it', 'terra.es', 'telefonica.net', 'mail.com', 'fastmail.com', 'tutanota.com', 'hey.com',
]);
const NO_REPLY_LOCAL =
  /^(?:no-?reply|noreply|do-?not-?reply|donotreply|notifications?|notify|mailer-?daemon|postmaster|bounces?|auto-?confirm|automated|auto-?mailer|alerts?|monitoring|system)(?:[-+._0-9].*)?$/;
const BULK_LOCAL =
  /^(?:newsletters?|news|marketing|promo|promos|promotions?|offers?|deals|digest|updates|mailer|mailing|campaigns?|email-?marketing)(?:[-+._0-9].*)?$/;
const ADDRESS_IN_BRACKETS = /<\s*([^<>\s@]+@[^<>\s@]+)\s*>/;
const BARE_ADDRESS = /([^\s<>"',;:@]+@[^\s<>"',;:@]+)/;

interface SenderInfo {
  address: string;
  local: string;
  domain: string;
}

function parseSender(sender: unknown): SenderInfo | null {
  if (typeof sender !== 'string' || sender.length === 0) return null;
  const s = sender.length > 400 ? sender.slice(0, 400) : sender;
  const m = ADDRESS_IN_BRACKETS.exec(s) ?? BARE_ADDRESS.exec(s);
  if (!m) return null;
  const address = m[1].toLowerCase().replace(/\.+$/, '');
  const at = address.lastIndexOf('@');
  return { address, local: address.slice(0, at), domain: address.slice(at + 1) };
}

const TIER_VIP = new Set(['enterprise', 'strategic', 'key', 'key account', 'platinum', 'vip', 'tier 1', 'tier1']);
const TIER_PAID = new Set([
  'pro', 'professional', 'business', 'premium', 'paid', 'team', 'teams', 'growth', 'plus', 'standard', 'gold', 'silver',
  'scale', 'corporate',
]);
const TIER_FREE = new Set(['free', 'trial', 'freemium', 'community', 'free trial', 'hobby']);

type Severity = 'SEVERITY_CRITICAL' | 'SEVERITY_HIGH' | 'SEVERITY_MEDIUM' | 'SEVERITY_LOW';
const SEVERITY_WORDS: Record<string, Severity> = {};
for (const w of ['sev0', 'sev1', 'sev-0', 'sev-1', 'sev 0', 'sev 1', 'p0', 'p1', 'critical', 'crit', 'fatal', 'emergency', 'disaster', 'blocker', '0', '1'])
  SEVERITY_WORDS[w] = 'SEVERITY_CRITICAL';
for (const w of ['sev2', 'sev-2', 'sev 2', 'p2', 'high', 'major', 'error', 'severe', '2']) SEVERITY_WORDS[w] = 'SEVERITY_HIGH';
for (const w of ['sev3', 'sev-3', 'sev 3', 'p3', 'medium', 'moderate', 'warning', 'warn', 'minor', '3']) SEVERITY_WORDS[w] = 'SEVERITY_MEDIUM';
for (const w of ['sev4', 'sev5', 'sev-4', 'sev-5', 'sev 4', 'sev 5', 'p4', 'p5', 'low', 'info', 'informational', 'notice', 'debug', 'trivial', '4', '5'])
  SEVERITY_WORDS[w] = 'SEVERITY_LOW';

type TagKind = { category: Category; weight: number; problem: boolean } | 'urgent' | 'vip';
const TAGS = new Map<string, TagKind>();
const tag = (kind: TagKind, words: string) => words.split(' ').forEach((w) => TAGS.set(w, kind));
tag('urgent', 'urgent asap p0 p1 critical sev1 sev0 high-priority priority escalation escalated blocker emergency');
tag('vip', 'vip');
tag({ category: 'incident', weight: 15, problem: true }, 'outage incident down downtime degraded degradation');
tag({ category: 'security', weight: 15, problem: true }, 'security breach phishing vulnerability malware fraud');
tag({ category: 'legal', weight: 15, problem: true }, 'legal gdpr compliance lawsuit privacy dsar');
tag({ category: 'billing', weight: 15, problem: true }, 'billing payment payments invoice payment-failed chargeback');
tag({ category: 'churn_risk', weight: 15, problem: true }, 'churn churn-risk cancellation cancel at-risk refund');
tag({ category: 'sales_opportunity', weight: 15, problem: false }, 'sales lead opportunity upsell renewal deal pricing demo');
tag({ category: 'support', weight: 10, problem: true }, 'bug support help question issue problem');
tag({ category: 'task', weight: 10, problem: false }, 'task todo to-do action-item');
tag({ category: 'newsletter', weight: -15, problem: false }, 'newsletter marketing promo promotion bulk');
tag({ category: 'notification', weight: -15, problem: false }, 'notification automated digest no-reply');
tag({ category: 'auto_reply', weight: -15, problem: false }, 'auto-reply autoreply ooo out-of-office');
tag({ category: 'spam', weight: -20, problem: false }, 'spam junk scam');

// ---------------------------------------------------------------------------------------------

/** Codes that describe a real problem: while any is present nothing is archived. */
const PROBLEM_CODES = new Set<ReasonCode>([
  'OUTAGE_LANGUAGE',
  'DEGRADATION_LANGUAGE',
  'INTERNAL_ALERT',
  'METRIC_CRITICAL',
  'METRIC_WARNING',
  'SECURITY_LANGUAGE',
  'LEGAL_THREAT',
  'LEGAL_LANGUAGE',
  'COMPLIANCE_REQUEST',
  'PAYMENT_FAILURE',
  'CHURN_LANGUAGE',
  'REFUND_DEMAND',
  'SUPPORT_REQUEST',
  'SEVERITY_CRITICAL',
  'SEVERITY_HIGH',
  'TAG_URGENT',
]);
/** Reasons that only make sense for archive-type content; dropped when a problem is present. */
const ARCHIVE_CODES = new Set<ReasonCode>([
  'AUTOMATED_NOTIFICATION',
  'NO_REPLY_SENDER',
  'NEWSLETTER_LANGUAGE',
  'BULK_SENDER',
  'AUTO_REPLY',
  'SPAM_LANGUAGE',
  'SPAM_MODEL',
]);
/** Topic reasons subject to the no-pile-up rule (internal alert details stack on purpose). */
const TOPIC_CODES = new Set<ReasonCode>([
  'OUTAGE_LANGUAGE',
  'DEGRADATION_LANGUAGE',
  'SECURITY_LANGUAGE',
  'LEGAL_THREAT',
  'LEGAL_LANGUAGE',
  'COMPLIANCE_REQUEST',
  'PAYMENT_FAILURE',
  'BILLING_QUESTION',
  'CHURN_LANGUAGE',
  'REFUND_DEMAND',
  'SALES_INTEREST',
  'SUPPORT_REQUEST',
  'DEADLINE_LANGUAGE',
]);
const IMPACT_ONLY = new Set<ReasonCode>(['IMPACT_SCOPE']);
const CLOSURE_CANCELS = new Set<ReasonCode>(['SUPPORT_REQUEST', 'DEGRADATION_LANGUAGE', 'OUTAGE_LANGUAGE', 'IMPACT_SCOPE']);
const RESOLVED_CANCELS = new Set<ReasonCode>([
  'OUTAGE_LANGUAGE',
  'DEGRADATION_LANGUAGE',
  'INTERNAL_ALERT',
  'METRIC_CRITICAL',
  'METRIC_WARNING',
  'IMPACT_SCOPE',
  'SEVERITY_CRITICAL',
  'SEVERITY_HIGH',
  'SEVERITY_MEDIUM',
  'SEVERITY_LOW',
  'URGENCY_LANGUAGE',
  'TAG_URGENT',
]);

const HOUR = 3_600_000;
/** Longest text (subject + body words) the spam model may judge on its own: SMS-sized. */
export const SPAM_MODEL_MAX_TOKENS = 60;

function countSubjectBodyTokens(): number {
  let n = 0;
  while (n < buf.count && buf.field[n] <= 1) n++;
  return n;
}

interface Draft {
  code: ReasonCode;
  weight: number;
  message: string;
  /** Category evidence this reason carries (for TAG_TOPIC, the tag's category). */
  category?: Category;
  problem?: boolean;
}

const kw = (phrase: string) => `"${phrase.length > 40 ? phrase.slice(0, 40) : phrase}"`;

const TEXT_MESSAGES: Partial<Record<ReasonCode, (phrase: string) => string>> = {
  OUTAGE_LANGUAGE: (p) => `mentions a production outage (${kw(p)})`,
  DEGRADATION_LANGUAGE: (p) => `mentions degraded service (${kw(p)})`,
  INTERNAL_ALERT: (p) => `internal alert is firing (${kw(p)})`,
  ALERT_RESOLVED: (p) => `alert reports recovery (${kw(p)})`,
  IMPACT_SCOPE: (p) => `the problem affects many (${kw(p)})`,
  SECURITY_LANGUAGE: (p) => `mentions a security issue (${kw(p)})`,
  LEGAL_THREAT: (p) => `threatens legal action (${kw(p)})`,
  LEGAL_LANGUAGE: (p) => `mentions legal matters (${kw(p)})`,
  COMPLIANCE_REQUEST: (p) => `mentions a privacy or compliance request (${kw(p)})`,
  PAYMENT_FAILURE: (p) => `reports a payment or billing failure (${kw(p)})`,
  BILLING_QUESTION: (p) => `is about billing (${kw(p)})`,
  CHURN_LANGUAGE: (p) => `signals cancellation or churn (${kw(p)})`,
  REFUND_DEMAND: (p) => `demands a refund (${kw(p)})`,
  SALES_INTEREST: (p) => `shows buying interest (${kw(p)})`,
  SUPPORT_REQUEST: (p) => `asks for help with a problem (${kw(p)})`,
  DEADLINE_LANGUAGE: (p) => `mentions a deadline or action item (${kw(p)})`,
  GRATITUDE_CLOSURE: (p) => `says the issue is resolved (${kw(p)})`,
  POSITIVE_FEEDBACK: (p) => `gives positive feedback (${kw(p)})`,
  AUTOMATED_NOTIFICATION: (p) => `reads like an automated notification (${kw(p)})`,
  NEWSLETTER_LANGUAGE: (p) => `reads like a newsletter or bulk mail (${kw(p)})`,
  AUTO_REPLY: (p) => `reads like an auto-reply or out-of-office (${kw(p)})`,
  SPAM_LANGUAGE: (p) => `reads like spam or a scam (${kw(p)})`,
  PERSONAL_LANGUAGE: (p) => `reads like personal mail (${kw(p)})`,
  URGENCY_LANGUAGE: (p) => `uses urgent language (${kw(p)})`,
  NOT_URGENT: (p) => `says it is not urgent (${kw(p)})`,
  REPEATED_CONTACT: (p) => `follows up on an unresolved problem (${kw(p)})`,
  FRUSTRATION: (p) => `expresses frustration (${kw(p)})`,
  SEVERITY_CRITICAL: (p) => `mentions critical severity (${kw(p)})`,
  SEVERITY_HIGH: (p) => `mentions high severity (${kw(p)})`,
  SEVERITY_MEDIUM: (p) => `mentions medium severity (${kw(p)})`,
};


const textOf = (v: unknown): string => (typeof v === 'string' ? v : '');

// Helpers of scoreSignal, at module level so that a call allocates no closures.
const EXTRA_TEXT_KEYS = ['event', 'event_type', 'type'] as const;

function hasCode(drafts: Draft[], code: ReasonCode): boolean {
  for (const d of drafts) if (d.code === code) return true;
  return false;
}

function findCode(drafts: Draft[], code: ReasonCode): Draft | undefined {
  for (const d of drafts) if (d.code === code) return d;
  return undefined;
}

function dropCodes(drafts: Draft[], set: ReadonlySet<ReasonCode>): void {
  for (let k = drafts.length - 1; k >= 0; k--) if (set.has(drafts[k].code)) drafts.splice(k, 1);
}

function isProblem(d: Draft): boolean {
  return d.code === 'TAG_TOPIC'
    ? d.problem === true
    : PROBLEM_CODES.has(d.code) && (d.code !== 'SUPPORT_REQUEST' || d.weight >= 20);
}

/** Position of each category in CATEGORY_PRECEDENCE, which indexes the evidence arrays. */
const CATEGORY_RANK = Object.fromEntries(CATEGORY_PRECEDENCE.map((c, i) => [c, i])) as Record<Category, number>;
const catStrongest = new Float64Array(CATEGORY_PRECEDENCE.length);
const catTotal = new Float64Array(CATEGORY_PRECEDENCE.length);
const catEvidence = new Float64Array(CATEGORY_PRECEDENCE.length);

/** The chosen category while topics are sorted (byTopicRank reads it). */
let topicCategory: Category = 'general';
function byTopicRank(a: Draft, b: Draft): number {
  const ca = CODE_CATEGORY[a.code] === topicCategory ? 1 : 0;
  const cb = CODE_CATEGORY[b.code] === topicCategory ? 1 : 0;
  return cb - ca || b.weight - a.weight || (a.code < b.code ? -1 : 1);
}

/** Stable, like Array#sort, so the order is the same; faster on the few items sorted here. */
function insertionSort<T>(items: T[], compare: (a: T, b: T) => number): void {
  for (let i = 1; i < items.length; i++) {
    const item = items[i];
    let j = i - 1;
    while (j >= 0 && compare(items[j], item) > 0) {
      items[j + 1] = items[j];
      j--;
    }
    items[j + 1] = item;
  }
}

function byReasonRank(a: Reason, b: Reason): number {
  return Math.abs(b.weight) - Math.abs(a.weight) || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0);
}

/**
 * Scores one validated signal at analysis time `now`.
 * Deterministic: the same signal and `now` always give the same assessment.
 */
export function scoreSignal(signal: Signal, now: Date): Assessment {
  const source: Source = Object.prototype.hasOwnProperty.call(SOURCE_BIT, signal.source) ? signal.source : 'email';
  const md: Meta | null =
    signal.metadata !== null && typeof signal.metadata === 'object' && !Array.isArray(signal.metadata)
      ? (signal.metadata as Meta)
      : null;

  // ---- text ----
  buf.reset();
  buf.add(textOf(signal.subject), 0, SUBJECT_SCAN_CHARS);
  buf.add(textOf(signal.body), 1, BODY_SCAN_CHARS);
  const extra: string[] = [];
  for (const key of EXTRA_TEXT_KEYS) {
    const v = own(md, key);
    if (typeof v === 'string' && v.length <= 200) extra.push(v);
  }
  if (extra.length > 0) buf.add(extra.join('\n'), 2, 1000);

  const { touched, metric } = scan(SOURCE_BIT[source]);
  const drafts: Draft[] = [];
  for (const c of touched) {
    const code = CODES[c];
    let weight = hitWeight[c];
    if (code === 'URGENCY_LANGUAGE') weight = (hitCount[c] >= 2 ? 15 : 10) / (hitDeep[c] === 1 ? 2 : 1);
    if (ACCUMULATE.has(c)) weight = Math.max(REASON_CODES[code].min, weight); // markers add up to a cap
    weight = Math.round(weight);
    let message = TEXT_MESSAGES[code]?.(hitPhrase[c]) ?? code;
    if (hitDeep[c] === 1 && weight > 0) message += ', late in a long text (half weight)';
    drafts.push({ code, weight, message });
    hitCount[c] = 0;
  }
  if (metric) {
    drafts.push(
      metric.level === 2
        ? { code: 'METRIC_CRITICAL', weight: 25, message: `reports ${metric.text}` }
        : { code: 'METRIC_WARNING', weight: 10, message: `reports ${metric.text}` },
    );
  }
  const upS = buf.upper[0];
  const upB = buf.upper[1];
  if (upS >= 6 && upS >= 3 * buf.lower(0)) drafts.push({ code: 'SHOUTING', weight: 5, message: 'subject is written in capitals' });
  else if (upB >= 30 && upB >= 2 * buf.lower(1)) drafts.push({ code: 'SHOUTING', weight: 5, message: 'body is written in capitals' });
  else if (buf.bangRuns[0] + buf.bangRuns[1] > 0) drafts.push({ code: 'SHOUTING', weight: 5, message: 'uses repeated exclamation marks' });

  // ---- sender and metadata ----
  const sender = parseSender(signal.sender);
  let vip = false;
  if (own(md, 'vip') === true || own(md, 'vip') === 'true' || own(md, 'vip') === 1) {
    drafts.push({ code: 'VIP_SENDER', weight: 15, message: 'metadata.vip is true' });
    vip = true;
  } else if (sender) {
    for (const entry of stringList(own(md, 'vip_senders'), 200)) {
      const e = entry.replace(/^.*<\s*|\s*>.*$/g, '');
      if (e === sender.address || e === `@${sender.domain}` || (!e.includes('@') && e === sender.domain)) {
        drafts.push({ code: 'VIP_SENDER', weight: 15, message: 'sender is listed in metadata.vip_senders' });
        vip = true;
        break;
      }
    }
  }

  const tier = shortString(own(md, 'customer_tier'), 40);
  let knownCustomer = vip;
  if (tier !== null) {
    if (TIER_VIP.has(tier)) {
      drafts.push({ code: 'VIP_CUSTOMER', weight: 15, message: `metadata.customer_tier is ${tier}` });
      knownCustomer = true;
    } else if (TIER_PAID.has(tier)) {
      drafts.push({ code: 'CUSTOMER_TIER_PAID', weight: 5, message: `metadata.customer_tier is ${tier} (paid)` });
      knownCustomer = true;
    } else if (TIER_FREE.has(tier)) {
      drafts.push({ code: 'CUSTOMER_TIER_FREE', weight: -5, message: `metadata.customer_tier is ${tier}` });
    }
  }

  let tagUrgent = false;
  let topicTag: { name: string; kind: Exclude<TagKind, 'urgent' | 'vip'> } | null = null;
  for (const raw of stringList(own(md, 'tags'))) {
    const name = raw.replace(/[\s_]+/g, '-');
    const kind = TAGS.get(name);
    if (kind === undefined) continue;
    if (kind === 'urgent') {
      if (!tagUrgent) drafts.push({ code: 'TAG_URGENT', weight: 10, message: `metadata.tags includes ${name}` });
      tagUrgent = true;
    } else if (kind === 'vip') {
      if (!vip) drafts.push({ code: 'VIP_SENDER', weight: 15, message: 'metadata.tags includes vip' });
      vip = true;
      knownCustomer = true;
    } else if (
      topicTag === null ||
      Math.abs(kind.weight) > Math.abs(topicTag.kind.weight) ||
      (kind.problem && !topicTag.kind.problem)
    ) {
      topicTag = { name, kind };
    }
  }
  if (topicTag) {
    drafts.push({
      code: 'TAG_TOPIC',
      weight: topicTag.kind.weight,
      message: `metadata.tags includes ${topicTag.name}`,
      category: topicTag.kind.category,
      problem: topicTag.kind.problem,
    });
  }

  // metadata.severity beats severity words in the text.
  const sevRaw = own(md, 'severity');
  const sevKey = typeof sevRaw === 'number' ? (Number.isInteger(sevRaw) ? String(sevRaw) : null) : shortString(sevRaw, 20);
  const sev = sevKey !== null ? SEVERITY_WORDS[sevKey.replace(/[_]/g, '-')] : undefined;
  if (sev) {
    for (let k = drafts.length - 1; k >= 0; k--) if (drafts[k].code.startsWith('SEVERITY_')) drafts.splice(k, 1);
    drafts.push({ code: sev, weight: REASON_CODES[sev].max, message: `metadata.severity is ${sevKey}` });
  } else {
    // Several severity words in the text: keep the highest.
    let top: Draft | null = null;
    let severities = 0;
    for (const d of drafts) {
      if (!d.code.startsWith('SEVERITY_')) continue;
      severities++;
      if (top === null || d.weight > top.weight) top = d;
    }
    if (severities > 1) {
      for (let k = drafts.length - 1; k >= 0; k--) if (drafts[k].code.startsWith('SEVERITY_') && drafts[k] !== top) drafts.splice(k, 1);
    }
  }

  // Sender kind.
  if (sender) {
    if (NO_REPLY_LOCAL.test(sender.local)) drafts.push({ code: 'NO_REPLY_SENDER', weight: -15, message: 'sender is a no-reply or system address' });
    else if (BULK_LOCAL.test(sender.local)) drafts.push({ code: 'BULK_SENDER', weight: -5, message: 'sender is a bulk-mail address' });
  }

  // Spam model: not for internal signals, nor for a sender the partner vouches for. It learned
  // from SMS, so it may vote on its own only on SMS-like input: a short (<= 60 words) support
  // message. On e-mail, tasks, CRM events and longer texts it only confirms hand-written spam
  // cues (business mail is full of the phone numbers and figures that mark SMS spam).
  const smsLike = source === 'support_message' && countSubjectBodyTokens() <= SPAM_MODEL_MAX_TOKENS;
  const spamCues = findCode(drafts, 'SPAM_LANGUAGE');
  if (source !== 'internal' && !knownCustomer && (smsLike || (spamCues !== undefined && spamCues.weight <= -20))) {
    const z = spamLogit(buf);
    const { threshold, strong } = spamModel();
    if (z >= threshold) {
      const p = 1 / (1 + Math.exp(-z));
      drafts.push({
        code: 'SPAM_MODEL',
        weight: z >= strong ? -30 : -20,
        message: `spam model rates the text as spam (p=${p.toFixed(2)})`,
      });
    }
  }

  // ---- resolution logic ----
  // A recovered alert is informational: its incident wording and severity no longer count.
  if (hasCode(drafts, 'ALERT_RESOLVED')) dropCodes(drafts, RESOLVED_CANCELS);
  // "Thanks, that fixed it": the problem words describe the solved problem, unless it recurs.
  if (hasCode(drafts, 'GRATITUDE_CLOSURE') && !hasCode(drafts, 'REPEATED_CONTACT')) dropCodes(drafts, CLOSURE_CANCELS);

  let problem = false;
  for (const d of drafts) if (isProblem(d)) problem = true;
  // Never archive a real problem: a footer "unsubscribe" or a no-reply sender does not outweigh it.
  if (problem) {
    dropCodes(drafts, ARCHIVE_CODES);
    for (let k = drafts.length - 1; k >= 0; k--) if (drafts[k].code === 'TAG_TOPIC' && drafts[k].weight < 0) drafts.splice(k, 1);
  }

  // ---- category ----
  // Evidence per category: its strongest reason plus half of the others (|weight|).
  // (Arrays indexed like CATEGORY_PRECEDENCE; a category without reasons has 0.)
  const strongest = catStrongest.fill(0);
  const total = catTotal.fill(0);
  for (const d of drafts) {
    const cat = d.code === 'TAG_TOPIC' ? d.category : CODE_CATEGORY[d.code];
    if (!cat) continue;
    const c = CATEGORY_RANK[cat];
    const w = Math.abs(d.weight);
    strongest[c] = Math.max(strongest[c], w);
    total[c] += w;
  }
  const evidence = catEvidence;
  for (let c = 0; c < evidence.length; c++) evidence[c] = strongest[c] + (total[c] - strongest[c]) / 2;
  // A task is a task unless its text is clearly about something riskier (an outage, a breach...).
  if (source === 'task') evidence[CATEGORY_RANK.task] += 25;
  const amount = Math.max(asNumber(own(md, 'amount')) ?? 0, asNumber(own(md, 'deal_value')) ?? 0);
  if (source === 'crm_event' && amount > 0) evidence[CATEGORY_RANK.sales_opportunity] += 15;
  if (source === 'internal') {
    let severe = false;
    for (const d of drafts) if (d.code.startsWith('SEVERITY_') && d.weight > 0) severe = true;
    if (severe) evidence[CATEGORY_RANK.incident] += 1;
  }

  let category: Category = 'general';
  let best = 0;
  for (let c = 0; c < CATEGORY_PRECEDENCE.length; c++) {
    const cat = CATEGORY_PRECEDENCE[c];
    const e = evidence[c];
    if (ARCHIVE_CATEGORIES.has(cat) && e < ARCHIVE_MIN_EVIDENCE) continue;
    if (cat === 'personal' && e < PERSONAL_MIN_EVIDENCE) continue;
    if (e > best) {
      best = e;
      category = cat;
    }
  }

  // ---- category-dependent reasons ----
  // Impact words ("everyone", "production") only amplify a problem that affects users.
  if (category !== 'incident' && category !== 'security' && category !== 'support') dropCodes(drafts, IMPACT_ONLY);
  // Topics do not pile up: the category's strongest topic reason counts fully, the next strongest
  // topic half, further topics not at all (long threads mention everything once).
  const topics: Draft[] = [];
  for (const d of drafts) if (TOPIC_CODES.has(d.code) && d.weight > 0) topics.push(d);
  topicCategory = category;
  insertionSort(topics, byTopicRank);
  for (let k = 1; k < topics.length; k++) {
    if (k === 1) {
      topics[k].weight = Math.round(topics[k].weight / 2);
      topics[k].message += ' (second topic, half weight)';
    } else drafts.splice(drafts.indexOf(topics[k]), 1);
  }
  if (amount >= 10_000 && (category === 'sales_opportunity' || category === 'churn_risk' || category === 'billing' || source === 'crm_event')) {
    const w = amount >= 100_000 ? 20 : 10;
    drafts.push({ code: 'DEAL_VALUE_HIGH', weight: w, message: `metadata amount/deal_value is at least ${w === 20 ? '100,000' : '10,000'}` });
  }
  if (category === 'sales_opportunity' && sender && sender.domain.includes('.')) {
    if (FREE_MAIL.has(sender.domain)) drafts.push({ code: 'SENDER_FREE_MAIL', weight: -5, message: 'sales lead from a free-mail address' });
    else if (!hasCode(drafts, 'NO_REPLY_SENDER') && !hasCode(drafts, 'BULK_SENDER'))
      drafts.push({ code: 'SENDER_BUSINESS_DOMAIN', weight: 5, message: 'sales lead from a business domain' });
  }
  const nowMs = now instanceof Date ? now.getTime() : NaN;
  if (!ARCHIVE_CATEGORIES.has(category) && Number.isFinite(nowMs)) {
    const due = parseTime(own(md, 'due_at'));
    if (due !== null) {
      if (due < nowMs) drafts.push({ code: 'DUE_OVERDUE', weight: 25, message: 'metadata.due_at has passed' });
      else if (due - nowMs <= 24 * HOUR) drafts.push({ code: 'DUE_WITHIN_24H', weight: 15, message: 'metadata.due_at is within 24 hours' });
      else if (due - nowMs <= 72 * HOUR) drafts.push({ code: 'DUE_WITHIN_3_DAYS', weight: 5, message: 'metadata.due_at is within 3 days' });
    }
    const received = parseTime(signal.received_at);
    if (received !== null) {
      const waited = nowMs - received;
      if (waited > 24 * HOUR) drafts.push({ code: 'WAITING_OVER_24H', weight: 10, message: 'has waited more than 24 hours' });
      else if (waited > 4 * HOUR) drafts.push({ code: 'WAITING_OVER_4H', weight: 5, message: 'has waited more than 4 hours' });
    }
  }

  // ---- score, priority, action ----
  const reasons: Reason[] = [];
  for (const d of drafts) if (d.weight !== 0) reasons.push({ code: d.code, message: d.message, weight: Math.round(d.weight) });
  insertionSort(reasons, byReasonRank);
  let sum = 0;
  for (const r of reasons) sum += r.weight;
  const raw = BASE_SCORE + sum;
  const score = raw < 0 ? 0 : raw > 100 ? 100 : raw;
  const priority = priorityForScore(score);
  const action: RecommendedAction =
    ARCHIVE_CATEGORIES.has(category) && priority === 'low' ? 'archive' : ACTION_BY_PRIORITY[priority];

  return {
    score,
    priority,
    recommended_action: action,
    category,
    queue: queueFor(category, source),
    reasons,
    model_version: MODEL_VERSION,
  };
}
