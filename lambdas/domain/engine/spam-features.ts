// The e-mail spam model's features (the model and its verdict: spam-model.ts): hashed words of the subject and body
// (each word counts once, the subject's salted apart from the body's), the first letters of long words (they carry
// over to words the training mail never used), and named features of the text's shape (layout, punctuation, capitals,
// numbers, links) and of the sender address's shape. Features were chosen to say something about spam, not about the
// corpora: the sender's domain, free-mail providers and the share of non-ASCII text are left out (in the training data
// only spam is non-English, and only SMS has no sender), so that German mail or a customer writing from a free-mail
// address is not pushed towards the archive.
import { Buffer } from 'node:buffer';
import { parseSender } from './metadata';
import * as hashes from './token-hashes';
import type { TokenBuffer } from './tokens';

// A module-local binding of the hash the word loop calls per token: not through the module object, which a CommonJS
// host such as tsx or jest turns into getter calls (as phrase-matcher.ts does with the trie's tables).
const { mixHash, tokenHashesMany } = hashes;

/** Only the first tokens of subject + body feed the word features: bounded cost on long mail. */
const MODEL_TOKENS = 600;
/** Words are hashed into 2^18 buckets: collisions are part of what the model is trained with. */
export const WORD_BITS = 18;
export const WORD_BUCKETS = 1 << WORD_BITS;
const WORD_MASK = WORD_BUCKETS - 1;
const SUBJECT_SALT = 0x2545f491;

/** The named features, in the order of their weights in spam-model.json; each has the id WORD_BUCKETS + index. */
export const NAMED_FEATURES = [
  'number:1-2',
  'number:3-4',
  'number:5-6',
  'number:7-10',
  'number:11+',
  'currency',
  'bangs',
  'capitals',
  'no_subject',
  'words:<=15',
  'words:<=60',
  'words:<=200',
  'words:<600',
  'words:600+',
  'links:0',
  'links:1',
  'links:2-3',
  'links:4-8',
  'links:9+',
  'quoted_reply',
  'reply_subject',
  'html_entity',
  'percent',
  'body_address',
  'sender_local:<=4',
  'sender_local:<=8',
  'sender_local:<=14',
  'sender_local:15+',
  'sender_no_name',
  'sender_name_matches',
  'sender_name_differs',
  'mixed_token',
  'exclaim:3+',
  'subject_exclaim',
  'indented_lines',
  'capitals:10%+',
  'capitals:25%+',
  'punctuation:8%+',
  'web_address',
] as const;
type NamedFeature = (typeof NAMED_FEATURES)[number];
const ID = Object.fromEntries(NAMED_FEATURES.map((name, i) => [name, WORD_BUCKETS + i])) as Record<
  NamedFeature,
  number
>;
/** Size of the weight table: every word bucket, then the named features. */
export const FEATURE_COUNT = WORD_BUCKETS + NAMED_FEATURES.length;

const bucketed = (n: number, limits: readonly number[], ids: readonly number[]) => {
  for (let k = 0; k < limits.length; k++) if (n <= limits[k]) return ids[k];
  return ids[limits.length];
};
const NUMBER_IDS = [ID['number:1-2'], ID['number:3-4'], ID['number:5-6'], ID['number:7-10'], ID['number:11+']];
const WORDS_IDS = [ID['words:<=15'], ID['words:<=60'], ID['words:<=200'], ID['words:<600'], ID['words:600+']];
const LINKS_IDS = [ID['links:0'], ID['links:1'], ID['links:2-3'], ID['links:4-8'], ID['links:9+']];
const LOCAL_IDS = [ID['sender_local:<=4'], ID['sender_local:<=8'], ID['sender_local:<=14'], ID['sender_local:15+']];

// Hashes of the few words the shape features look for, as the tokenizer hashes them.
const [H_HTTP, H_HTTPS, H_NBSP, H_AMP] = tokenHashesMany(['http', 'https', 'nbsp', 'amp'], false).h1;
const REPLY_SUBJECT = /^\s*(?:re|fwd?|aw|wg|tr|rv|sv)\s*:/i;

export const SEEN_SIZE = 4096; // power of two, > 2 * (2 * MODEL_TOKENS + MAX_GRAMS + named features)
const seenKeys = new Int32Array(SEEN_SIZE);
const seenStamp = new Int32Array(SEEN_SIZE);
let stamp = 0;
// The distinct-feature set of the current spamFeatures call (module state: no closure per call).
let written = 0;
let target: Int32Array = new Int32Array(0);

function add(f: number): void {
  let slot = (f ^ (f >>> 9)) & (SEEN_SIZE - 1);
  for (;;) {
    if (seenStamp[slot] !== stamp) {
      seenStamp[slot] = stamp;
      seenKeys[slot] = f;
      target[written++] = f;
      return;
    }
    if (seenKeys[slot] === f) return;
    slot = (slot + 1) & (SEEN_SIZE - 1);
  }
}

/** Features of the sender address's shape (never its domain). */
function addSenderFeatures(sender: string | null | undefined): void {
  const parsed = parseSender(sender);
  if (!parsed) return;
  const local = parsed.local;
  const letters = local.replace(/[^a-z]/g, '');
  add(bucketed(local.length, [4, 8, 14], LOCAL_IDS));
  const lt = (sender as string).indexOf('<');
  const name = (lt > 0 ? (sender as string).slice(0, lt) : '').replace(/["']/g, '').trim().toLowerCase();
  if (name === '' || name.includes('@')) {
    add(ID.sender_no_name);
    return;
  }
  const nameLetters = name.replace(/[^a-z]/g, '');
  const matches =
    letters !== '' &&
    nameLetters !== '' &&
    (nameLetters.includes(letters) || letters.includes(nameLetters.slice(0, 4)));
  add(matches ? ID.sender_name_matches : ID.sender_name_differs);
}

/** The shape of the body text scanned at most this far (the engine reads no more). */
const SHAPE_CHARS = 20_000;

// What addBodyShape counts of each code unit, as flags read with one table load: visible (not a blank or line break),
// punctuation (visible, neither an ASCII letter or digit nor a unit from U+00C0 on), '!'. Summing the flags takes no
// branch per unit; testing the unit itself took five or six.
const VISIBLE = 1;
const PUNCTUATION = 2;
const BANG = 4;
const LINE_BREAK = 8;
const BLANK = 16; // space, tab, no-break space: a line that starts with one is indented (a carriage return is neither)
const SHAPE_OF = new Uint8Array(65536).fill(VISIBLE);
for (let c = 0; c < 0xc0; c++) {
  const alphanumeric = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  if (!alphanumeric) SHAPE_OF[c] = VISIBLE | PUNCTUATION;
}
SHAPE_OF[33] = VISIBLE | PUNCTUATION | BANG;
SHAPE_OF[10] = LINE_BREAK;
SHAPE_OF[32] = SHAPE_OF[9] = SHAPE_OF[0xa0] = BLANK;
SHAPE_OF[13] = 0;

// The body's code units are read from a reused typed array, as the tokenizer reads them (tokens.ts, "the tokenizer
// loop"): charCodeAt compiles for the string's representation and deoptimized the loop when mail with non-ASCII
// text (a two-byte string) followed ASCII mail; the copy costs a fraction of the loop.
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const shapeBytes = Buffer.allocUnsafeSlow(2 * SHAPE_CHARS);
const shapeUnits = new Uint16Array(shapeBytes.buffer, shapeBytes.byteOffset, SHAPE_CHARS);

/**
 * Features of the body's layout and punctuation, in one pass over its code units (no allocation): three or more
 * '!', a fifth or more of its lines indented (what a stripped HTML layout leaves), and the share of punctuation.
 */
function addBodyShape(body: string): void {
  const n = body.length < SHAPE_CHARS ? body.length : SHAPE_CHARS;
  if (LITTLE_ENDIAN) shapeBytes.write(body, 0, 2 * n, 'utf16le');
  else for (let k = 0; k < n; k++) shapeUnits[k] = body.charCodeAt(k);
  let bangs = 0;
  let punctuation = 0;
  let visible = 0;
  let lines = 0;
  let indented = 0;
  // Per line: nothing visible seen yet, and whether it began with a blank.
  let fresh = true;
  let leadingBlank = false;
  for (let i = 0; i < n; i++) {
    const k = SHAPE_OF[shapeUnits[i]];
    visible += k & VISIBLE;
    punctuation += (k >>> 1) & 1;
    bangs += (k >>> 2) & 1;
    if (fresh) {
      if ((k & VISIBLE) !== 0) {
        fresh = false;
        lines++;
        if (leadingBlank) indented++;
      } else if (k === BLANK) leadingBlank = true;
      else if (k === LINE_BREAK) leadingBlank = false;
    } else if (k === LINE_BREAK) {
      fresh = true;
      leadingBlank = false;
    }
  }
  if (bangs >= 3) add(ID['exclaim:3+']);
  if (lines >= 4 && indented * 5 >= lines) add(ID.indented_lines);
  if (visible >= 40 && punctuation * 100 >= visible * 8) add(ID['punctuation:8%+']);
}

/** A word of at least PREFIX_FROM letters also counts by its first PREFIX_LEN letters (salted apart from words). */
const PREFIX_LEN = 5;
const PREFIX_FROM = PREFIX_LEN + 2;
const PREFIX_SALT = 0x6a09e667;
/**
 * Marks a prefix's bucket in spamFeatures' output: its weight is read from the same table as words', but it is no
 * known word (the scorer's "how much the model had to go on" counts words only). `featureId` strips it.
 */
export const PREFIX_FLAG = 0x40000000;
export const featureId = (f: number) => f & ~(PREFIX_FLAG | GRAM_FLAG);
/**
 * The bucket of a long word's first letters, folded to lower case, when they are ASCII letters ("guaranteed" and
 * "guarantee" share it); -1 otherwise (a run of CJK text is one long token: no prefix for it).
 */
function prefixBucket(text: string, start: number): number {
  let h = PREFIX_SALT;
  for (let k = start; k < start + PREFIX_LEN; k++) {
    const c = text.charCodeAt(k) | 32;
    if (c < 97 || c > 122) return -1;
    h = Math.imul(h ^ c, 0x01000193);
  }
  return mixHash(PREFIX_SALT, h) & WORD_MASK;
}

/**
 * Text in a script the engine has no word lists for (Thai, CJK, Cyrillic, ...) is written without spaces or in words
 * the training mail rarely shares: its tokens also count by their character trigrams (code units, salted apart from
 * words), which carry over between messages the way whole runs of text do not. Marked by GRAM_FLAG.
 */
export const GRAM_FLAG = 0x20000000;
const GRAM_SALT = 0x3c6ef372;
const MAX_GRAMS = 240;
/**
 * The scripts whose tokens count by trigrams: Thai only, the one script of the training data with both spam and
 * ordinary messages (SpamAssassin's Chinese and Japanese mail is all spam: trigrams learned from it alone would push
 * any such business mail towards the archive).
 */
const GRAM_SCRIPT_FIRST = 0x0e00;
const GRAM_SCRIPT_LAST = 0x0e7f;
let grams = 0;

function addGrams(text: string, start: number, end: number): void {
  for (let k = start; k + 3 <= end && grams < MAX_GRAMS; k++) {
    let h = GRAM_SALT;
    for (let j = k; j < k + 3; j++) h = Math.imul(h ^ text.charCodeAt(j), 0x01000193);
    add((mixHash(GRAM_SALT, h) & WORD_MASK) | GRAM_FLAG);
    grams++;
  }
}

// A name of at most 63 characters (a DNS label): unbounded, from every word start of a run like `a-a-a-...` it read to
// the run's end, 300 ms for 20,000 characters (now about 13 ms, linear).
const WEB_ADDRESS = /\bwww\.|\b[a-z0-9-]{2,63}\.(?:com|net|org|biz|info|ly|co|me|io|uk|cc|xyz|to)\b/i;
/**
 * What every match of WEB_ADDRESS contains: tested first, because WEB_ADDRESS is tried at every word start of the body
 * (8 to 26 us on a 2 KB e-mail), while this one starts with a literal V8 searches for (about 2 us). Most mail has
 * neither, and then both answer no. docs/performance.md, "Version 4, the engine's warm speed".
 */
const WEB_ADDRESS_HINT = /\.(?:com|net|org|biz|info|ly|co|me|io|uk|cc|xyz|to)\b|www\./i;
/** Whether `text` mentions a web address (`www.` or a name under one of the common top-level domains). */
export const mentionsWebAddress = (text: string): boolean => WEB_ADDRESS_HINT.test(text) && WEB_ADDRESS.test(text);

/**
 * Writes the distinct feature ids of the subject/body tokens in `buf` (word features from the first MODEL_TOKENS)
 * and of `sender` into `out` and returns how many. Deterministic; the trainer calls the same function.
 */
export function spamFeatures(buf: TokenBuffer, sender: string | null | undefined, out: Int32Array): number {
  stamp++;
  if (stamp === 0x7fffffff) {
    stamp = 1;
    seenStamp.fill(0);
  }
  written = 0;
  grams = 0;
  target = out;
  let tokens = 0;
  let subject = 0;
  let links = 0;
  let entity = false;
  for (let i = 0; i < buf.count; i++) {
    if (buf.field[i] > 1) break;
    const h = buf.h1[i];
    if (h === H_HTTP || h === H_HTTPS) links++;
    else if (h === H_NBSP || h === H_AMP) entity = true;
    if (tokens >= MODEL_TOKENS) continue;
    const digits = buf.digits[i];
    const letters = buf.letters(i);
    if (digits >= 2 && letters >= 2 && digits + letters >= 8) add(ID.mixed_token);
    if (digits > 0 && letters === 0) add(bucketed(digits, [2, 4, 6, 10], NUMBER_IDS));
    else if (buf.field[i] === 0) {
      add(mixHash(SUBJECT_SALT, h) & WORD_MASK);
      subject++;
    } else add(h & WORD_MASK);
    const text = buf.texts[buf.field[i]];
    if (letters >= PREFIX_FROM && digits === 0) {
      const prefix = prefixBucket(text, buf.start[i]);
      if (prefix >= 0) add(prefix | PREFIX_FLAG);
    }
    const first = text.charCodeAt(buf.start[i]);
    if (first >= GRAM_SCRIPT_FIRST && first <= GRAM_SCRIPT_LAST) addGrams(text, buf.start[i], buf.end[i]);
    tokens++;
  }
  const subjectText = buf.texts[0];
  const body = buf.texts[1];
  if (subject === 0) add(ID.no_subject);
  if (buf.currency > 0) add(ID.currency);
  if (buf.bangRuns[0] + buf.bangRuns[1] > 0) add(ID.bangs);
  const up = buf.upper[0] + buf.upper[1];
  const low = buf.lower(0) + buf.lower(1);
  if (up >= 10 && up > low) add(ID.capitals);
  if (up >= 10 && up * 4 >= up + low) add(ID['capitals:25%+']);
  else if (up >= 10 && up * 10 >= up + low) add(ID['capitals:10%+']);
  if (subjectText.includes('!')) add(ID.subject_exclaim);
  addBodyShape(body);
  add(tokens < MODEL_TOKENS ? bucketed(tokens, [15, 60, 200], WORDS_IDS) : ID['words:600+']);
  add(bucketed(links, [0, 1, 3, 8], LINKS_IDS));
  if (entity) add(ID.html_entity);
  if (body.startsWith('>') || body.includes('\n>')) add(ID.quoted_reply);
  if (REPLY_SUBJECT.test(subjectText)) add(ID.reply_subject);
  if (body.includes('%') || subjectText.includes('%')) add(ID.percent);
  if (body.includes('@')) add(ID.body_address);
  const head = body.length > SHAPE_CHARS ? body.slice(0, SHAPE_CHARS) : body;
  if (mentionsWebAddress(head)) add(ID.web_address);
  addSenderFeatures(sender);
  return written;
}

/** Thai trigrams read by the last spamFeatures call (the trainer tells Thai text as the verdict does). */
export const trigramsRead = (): number => grams;
