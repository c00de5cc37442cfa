// Scoring one signal, in phases: text evidence (phrase matcher), metadata and sender evidence, the spam model,
// weighing bulk evidence against alarm words, choosing the category, category-dependent reasons, the learned
// severity, the invariants (invariants.ts) and the score = clamp(BASE_SCORE + sum of reason weights, 0, 100): every
// point comes from a listed reason. Pure and deterministic: no clock, no randomness, no I/O.
import { priorityForScore, type Assessment, type Reason, type RecommendedAction } from '../decision';
import type { Signal, Source } from '../signal';
import { confidenceOf, type ConfidenceInput } from './confidence';
import {
  BULK_SCORE_CAP,
  SPAM_CHANNELS,
  archivableCategory,
  isBulkOrSpam,
  personAsking,
  statesSeriousProblem,
} from './invariants';
import { detectLanguage } from './language';
import { CODES, SOURCE_BIT } from './lexicon-trie';
import { authorSeverity, own, parseSender, type Meta, type SenderInfo } from './metadata';
import { metadataDrafts } from './metadata-reasons';
import type { Draft } from './draft';
import { PhraseMatcher } from './phrase-matcher';
import { ARCHIVE_CATEGORIES, REASON_CODES, codesWhere, infoOf, queueFor, type ReasonCode } from './reason-codes';
import { sentimentOf } from './sentiment';
import { PLAIN_READING, severityWords, type WordReading } from './severity-model';
import { severityRead, severityReason, type EngineModels } from './severity';
import {
  CAMEL_BODY_CHARS,
  EXTRA_SCAN_CHARS,
  FIRING_HINT,
  MONITORING_SENDER,
  TEMPLATE_HINT,
  camelWords,
  freeShare,
  withoutTemplates,
} from './alert-text';
import { LONG_TEXT_EVIDENCE, MIN_SPAM_EVIDENCE, spamArchiveCut, spamVerdict } from './spam-model';
import { guardOn } from './archive-guards';
import { categoryDrafts, categoryOf, chooseCategory, dropWhere, hasCode, isProblem } from './category-choice';

/** The baseline every signal starts from. */
export const BASE_SCORE = 20;
export const MODEL_VERSION = 'rules-3';
/** Only this much of the subject and body is read: bounded cost, same answer every time. */
const SUBJECT_SCAN_CHARS = 1_000;
const BODY_SCAN_CHARS = 20_000;
/**
 * Spam probabilities at which the model's vote counts (a long e-mail; anything else) and at or below which it reads
 * the text as ordinary mail. The cut from which it archives on its own is the model file's, per channel
 * (spamArchiveCut: chosen on the dev split for the error budget by bin/train-spam-model.ts).
 */
const SPAM_LIKELY = 0.15;
const SPAM_LIKELY_SHORT_TEXT = 0.3;
const ORDINARY_MAIL = 0.03;
/** On a short text, a reason of another category at least this heavy makes a doubtful spam vote a doubt only. */
const DOUBT_BESIDE_EVIDENCE = 10;
const DOUBTFUL_SPAM_WEIGHT = -10;

/** Bulk evidence must be at least this many times the alarm evidence to outweigh it. */
const BULK_OVER_ALARM = 1.5;
const SHORT_TEXT_SERIOUS_ALARM = 40;
const ACTION_BY_PRIORITY = { critical: 'escalate', high: 'respond_now', medium: 'respond', low: 'review' } as const;

const matcher = new PhraseMatcher();
const textOf = (v: unknown): string => (typeof v === 'string' ? v : '');
const EXTRA_TEXT_KEYS = ['event', 'event_type', 'type'] as const;

/** Phase 1: reasons from the text, as the phrase matcher recorded them. */
function textDrafts(signal: Signal, md: Meta | null, source: Source, sender: SenderInfo | null): Draft[] {
  const buf = matcher.buf;
  buf.reset();
  let subject = textOf(signal.subject);
  let body = textOf(signal.body);
  // Alert rule text arrives with its template placeholders ("{{ $labels.instance }}", "{{ $value }}"): they are read as
  // the label's name or as nothing, so "{{ $labels.instance }} of job {{ $labels.job }} is down" reads like its words.
  const templated =
    TEMPLATE_HINT.test(subject) ||
    TEMPLATE_HINT.test(body.length > BODY_SCAN_CHARS ? body.slice(0, BODY_SCAN_CHARS) : body);
  if (templated) {
    subject = withoutTemplates(subject, SUBJECT_SCAN_CHARS);
    body = withoutTemplates(body, BODY_SCAN_CHARS);
  }
  // A monitoring alert sent as mail or chat is read with the alert vocabulary as well.
  const alertShaped =
    source !== 'internal' &&
    source !== 'crm_event' &&
    (templated || FIRING_HINT.test(subject) || MONITORING_SENDER.test(sender?.local ?? ''));
  buf.add(subject, 0, SUBJECT_SCAN_CHARS);
  buf.add(body, 1, BODY_SCAN_CHARS);
  const extra: string[] = [];
  for (const key of EXTRA_TEXT_KEYS) {
    const v = own(md, key);
    if (typeof v === 'string' && v.length <= 200) extra.push(v);
  }
  // Alert rule names are written in CamelCase ("HostOutOfMemory", "KubeNodeNotReady"): their words, split, are read too.
  camelWords(subject, SUBJECT_SCAN_CHARS, extra);
  if (source === 'internal' || source === 'task' || alertShaped) camelWords(body, CAMEL_BODY_CHARS, extra);
  if (extra.length > 0) buf.add(extra.join('\n'), 2, EXTRA_SCAN_CHARS);

  const scanned = matcher.scan(SOURCE_BIT[source] | (alertShaped ? SOURCE_BIT.internal : 0));
  const { touched } = scanned;
  let metric = scanned.metric;
  if ((source === 'internal' || alertShaped) && (metric === null || metric.level < 2))
    metric = freeShare(subject, metric) ?? freeShare(body, metric) ?? metric;
  const drafts: Draft[] = [];
  for (const c of touched) {
    const code = CODES[c];
    const info = infoOf(code);
    let weight = matcher.hitWeight[c];
    if (code === 'URGENCY_LANGUAGE') weight = (matcher.hitCount[c] >= 2 ? 15 : 10) / (matcher.hitDeep[c] === 1 ? 2 : 1);
    if (info.accumulates) weight = Math.max(info.min, weight);
    weight = Math.round(weight);
    let message = info.message?.(matcher.hitPhrase[c]) ?? code;
    if (matcher.hitDeep[c] === 1 && weight > 0) message += ', late in a long text (half weight)';
    drafts.push({ code, weight, message });
    matcher.hitCount[c] = 0;
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
  if (upS >= 6 && upS >= 3 * buf.lower(0))
    drafts.push({ code: 'SHOUTING', weight: 5, message: 'subject is written in capitals' });
  else if (upB >= 30 && upB >= 2 * buf.lower(1))
    drafts.push({ code: 'SHOUTING', weight: 5, message: 'body is written in capitals' });
  else if (buf.bangRuns[0] + buf.bangRuns[1] > 0)
    drafts.push({ code: 'SHOUTING', weight: 5, message: 'uses repeated exclamation marks' });
  return drafts;
}

/** Phase 3: the spam model, except for internal signals and senders the partner vouches for. */
interface SpamCall {
  draft: Draft | null;
  probability: number | null;
  long: boolean;
  /** A vote on a short text, short of confident. */
  doubtful: boolean;
}

function spamDraft(source: Source, sender: string | undefined, knownCustomer: boolean): SpamCall {
  if (!SPAM_CHANNELS.has(source) || knownCustomer)
    return { draft: null, probability: null, long: false, doubtful: false };
  const verdict = spamVerdict(matcher.buf, sender);
  const { probability, evidence } = verdict;
  // The channel's cut on the calibrated probability (invariant 2: a web form's is its own).
  const channel = source === 'support_message' && guardOn('web_form_cut') ? 'support_message' : 'email';
  const confident = probability >= spamArchiveCut(channel, verdict);
  // A few known words are no basis for a doubt (short business notes share them with spam), only for a call that
  // clears the channel's long cut; confidence still reads p.
  if (evidence < MIN_SPAM_EVIDENCE && !confident && guardOn('min_evidence'))
    return { draft: null, probability, long: false, doubtful: false };
  const long = evidence >= LONG_TEXT_EVIDENCE;
  const likely = source === 'email' && long ? SPAM_LIKELY : SPAM_LIKELY_SHORT_TEXT;
  if (probability < likely) return { draft: null, probability, long, doubtful: false };
  return {
    draft: {
      code: 'SPAM_MODEL',
      weight: confident ? -60 : -25,
      message: `spam model rates the text as spam (p=${probability.toFixed(2)}${confident ? ', confident' : ''})`,
    },
    probability,
    long,
    // A vote short of confident: a doubt unless other bulk evidence agrees (doubtSpamVote), on either channel (a
    // support message archives only as spam: invariant 1).
    doubtful: !confident,
  };
}

/** Reasons that show a person writing to us about their own problem (the `writer` trait in reason-codes.ts). */
const WRITER_CODES: ReadonlySet<ReasonCode> = codesWhere((i) => i.writer === true);
/** Second markers that, with newsletter wording, make a text a mailing (the `mailing` trait). */
const MAILING_MARKERS: ReadonlySet<ReasonCode> = codesWhere((i) => i.mailing === true);
const isAlarm = (d: Draft) =>
  isProblem(d) || d.code === 'URGENCY_LANGUAGE' || d.code === 'SHOUTING' || WRITER_CODES.has(d.code);
const isBulk = (d: Draft) => infoOf(d.code).archive === true || (d.code === 'TAG_TOPIC' && d.weight < 0);

/**
 * Phase 4: alarm words against bulk evidence, weighed. A person's own problem (support request, repeated contact,
 * frustration) weighs one and a half times against the bulk evidence, alarm topics ("down", "security", "lawsuit")
 * once (half in a mailing: newsletter wording plus a bulk sender or automated wording), and a confident spam call
 * outweighs them all. When the bulk reading wins, the alarm
 * reasons stay listed but are cancelled by BULK_OUTWEIGHS_ALARM and are no category evidence; when it loses, a
 * real problem is never archived and the bulk wording (a footer "unsubscribe", a no-reply sender) is dropped.
 * A sender the partner vouches for is never outweighed.
 */
function weighBulkAgainstAlarm(drafts: Draft[], knownCustomer: boolean, longText: boolean): void {
  if (hasCode(drafts, 'ALERT_RESOLVED')) dropWhere(drafts, (d) => infoOf(d.code).cancelledByRecovery === true);
  if (hasCode(drafts, 'GRATITUDE_CLOSURE') && !hasCode(drafts, 'REPEATED_CONTACT'))
    dropWhere(drafts, (d) => infoOf(d.code).cancelledByClosure === true);
  let writer = 0;
  let topic = 0;
  let bulk = 0;
  for (const d of drafts) {
    if (WRITER_CODES.has(d.code) && (d.code !== 'SUPPORT_REQUEST' || d.weight >= 20)) writer += Math.max(d.weight, 0);
    else if (isAlarm(d)) topic += Math.max(d.weight, 0);
    // On a short text a spam vote short of confident is a doubt, not evidence against a stated problem.
    if (isBulk(d) && (d.code !== 'SPAM_MODEL' || longText)) bulk += -Math.min(d.weight, 0);
  }
  const alarm = writer + topic;
  if (alarm === 0) return;
  // Newsletter wording together with a second bulk marker (a bulk or no-reply sender, automated wording): the text
  // is a mailing, and the topics it mentions ("critical vulnerability") are its content, not a report: they weigh half.
  const newsletter = drafts.some((d) => d.code === 'NEWSLETTER_LANGUAGE' && d.weight <= -20);
  const mailing =
    newsletter && drafts.some((d) => MAILING_MARKERS.has(d.code) || (d.code === 'TAG_TOPIC' && d.weight < 0));
  const topicWeight = mailing ? 0.5 : 1;
  // A confident spam call outweighs everything on a long text; on a short one, not a stated serious problem.
  const spamConfident =
    drafts.some((d) => d.code === 'SPAM_MODEL' && d.weight <= -60) && (longText || alarm < SHORT_TEXT_SERIOUS_ALARM);
  if (!knownCustomer && bulk > 0 && (spamConfident || bulk >= BULK_OVER_ALARM * writer + topicWeight * topic)) {
    for (const d of drafts) if (isAlarm(d) && d.weight > 0) d.discounted = true;
    const weight = -Math.min(-REASON_CODES.BULK_OUTWEIGHS_ALARM.min, Math.round(alarm));
    drafts.push({
      code: 'BULK_OUTWEIGHS_ALARM',
      weight,
      message: 'alarm words in text that reads as spam or bulk mail do not count',
    });
    return;
  }
  if (drafts.some(isProblem)) dropWhere(drafts, isBulk);
}

/**
 * Phase 4b: on a short text the model has few words to go on, and a vote short of confident is a doubt. Beside a
 * reason of another category (a sales enquiry, a billing question, a notification) it lowers the score a little but
 * does not choose the category: the text's own evidence does. Alone, it still archives.
 */
function doubtSpamVote(vote: Draft, drafts: Draft[]): boolean {
  // Alone, a vote short of confident is no basis to archive: it needs bulk evidence of its own (spam or newsletter
  // wording, a bulk or no-reply sender) beside it.
  const corroborated = drafts.some((d) => d !== vote && d.discounted !== true && isBulk(d));
  const other =
    !corroborated ||
    drafts.some((d) => {
      if (d === vote || d.discounted === true || Math.abs(d.weight) < DOUBT_BESIDE_EVIDENCE) return false;
      const cat = categoryOf(d);
      return cat !== undefined && cat !== 'spam';
    });
  if (!other) return false;
  vote.discounted = true;
  vote.weight = DOUBTFUL_SPAM_WEIGHT;
  vote.message += ': a doubt on a short text, beside its other evidence';
  return true;
}

const byReasonRank = (a: Reason, b: Reason) =>
  Math.abs(b.weight) - Math.abs(a.weight) || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0);

/**
 * Sorts `reasons`, adds invariant 5's cap where it applies (`bulk`: spam or bulk mail, read only when the sum would
 * escalate), and returns the score: clamp(BASE_SCORE + their weights, 0, 100).
 */
function settle(reasons: Reason[], bulk: () => boolean): number {
  reasons.sort(byReasonRank);
  let sum = 0;
  for (const r of reasons) sum += r.weight;
  if (BASE_SCORE + sum > BULK_SCORE_CAP && bulk()) {
    // invariant 5
    const weight = BULK_SCORE_CAP - BASE_SCORE - sum;
    reasons.push({ code: 'BULK_NEVER_ESCALATED', message: 'spam or bulk mail is never escalated', weight });
    reasons.sort(byReasonRank);
    sum += weight;
  }
  const raw = BASE_SCORE + sum;
  return raw < 0 ? 0 : raw > 100 ? 100 : raw;
}

/**
 * Scores one validated signal at analysis time `now`.
 * Deterministic: the same signal and `now` always give the same assessment.
 */
export function scoreSignal(signal: Signal, now: Date, models: EngineModels = {}): Assessment {
  const source: Source = Object.prototype.hasOwnProperty.call(SOURCE_BIT, signal.source) ? signal.source : 'email';
  const md: Meta | null =
    signal.metadata !== null && typeof signal.metadata === 'object' && !Array.isArray(signal.metadata)
      ? signal.metadata
      : null;

  // The sender, parsed once for the phases that read it (text, metadata, category).
  const sender = parseSender(signal.sender);
  const drafts = textDrafts(signal, md, source, sender);
  // Invariant 1: spam wording is no evidence from a system the partner controls (task, internal, crm_event).
  if (!SPAM_CHANNELS.has(source)) dropWhere(drafts, (d) => categoryOf(d) === 'spam');
  const { knownCustomer } = metadataDrafts(drafts, sender, md);
  // A task is work someone has to do: words, tags or a sender about newsletters or auto-replies are its subject, not marks of a mailing.
  if (source === 'task') dropWhere(drafts, (d) => ARCHIVE_CATEGORIES.has(categoryOf(d)!));
  const bulkSender = !knownCustomer && hasCode(drafts, 'BULK_SENDER'); // invariant 5 reads it: alarm words never unmake it
  const spam = spamDraft(source, typeof signal.sender === 'string' ? signal.sender : undefined, knownCustomer);
  if (spam.draft) drafts.push(spam.draft);
  weighBulkAgainstAlarm(drafts, knownCustomer, spam.long);
  const doubted =
    spam.draft !== null && spam.doubtful && guardOn('short_text_doubt') && doubtSpamVote(spam.draft, drafts);
  // Invariant 4 reads the evidence as weighed: a long text the model is confident is spam states nothing.
  const spamBeyondDoubt = spam.long && spam.draft !== null && spam.draft.weight <= -60;
  const serious = guardOn('serious_problem') && !spamBeyondDoubt && statesSeriousProblem(drafts);
  const { category, best, second } = chooseCategory(drafts, source, md);
  categoryDrafts(drafts, category, signal, sender, source, md, now);
  // List footers ("unsubscribe"), notification wording and spam phrases also sit under discussions between people:
  // when the model reads a long text as ordinary mail, such wording alone sends it to review, not to the archive.
  const ordinary =
    guardOn('ordinary_mail') &&
    ARCHIVE_CATEGORIES.has(category) &&
    spam.long &&
    spam.probability !== null &&
    spam.probability <= ORDINARY_MAIL;
  if (ordinary)
    drafts.push({
      code: 'ORDINARY_MAIL_MODEL',
      weight: 5,
      message: 'spam model reads the text as ordinary mail (review, not archive)',
    });

  const reasons: Reason[] = [];
  for (const d of drafts)
    if (d.weight !== 0) reasons.push({ code: d.code, message: d.message, weight: Math.round(d.weight) });
  const severity = severityReason(source, md, reasons, models, matcher.buf, BASE_SCORE);
  const bulk = () => guardOn('never_escalated') && (isBulkOrSpam(drafts, category) || bulkSender);
  // The confidence reads the evidence the band was decided with (severity.ts, SeverityCall).
  let bandView: { reasons: Reason[]; score: number } | null = null;
  if (severity.band !== severity.reason) {
    const view = severity.band ? [...reasons, severity.band] : [...reasons];
    bandView = { reasons: view, score: settle(view, bulk) };
  }
  if (severity.reason) reasons.push(severity.reason);
  const score = settle(reasons, bulk);
  const priority = priorityForScore(score);
  // No-human categories are archived while low and reviewed otherwise, and only where the invariants allow it
  // (invariants.ts): from a channel where such mail exists, never a person asking nor a stated serious problem.
  // An auto-reply speaks in the first person ("I am out of the office") but asks for nothing.
  // A vote that clears the channel's cut archives a question too (docs/decision-engine-spam.md, the table of the
  // guards: held back, 36 such spam of the development sources for 1 ordinary message); a person asking still keeps
  // every other archive category, and a vote short of the cut, out of the archive.
  const spamConfident = spam.draft !== null && spam.draft.weight <= -60;
  const asking = guardOn('person_asking') && !spamConfident && category !== 'auto_reply' && personAsking(matcher.buf);
  const archivable =
    priority === 'low' &&
    !ordinary &&
    (archivableCategory(source, category) || !guardOn('channel')) &&
    !serious &&
    !asking;
  const action: RecommendedAction = ARCHIVE_CATEGORIES.has(category)
    ? archivable
      ? 'archive'
      : 'review'
    : ACTION_BY_PRIORITY[priority];

  const language = detectLanguage(matcher.buf);
  lastConfidence = {
    source,
    category,
    archived: action === 'archive',
    best,
    second,
    spamProbability: spam.probability,
    modelDoubted: doubted,
    score: bandView?.score ?? score,
    heldBack: ARCHIVE_CATEGORIES.has(category) && action !== 'archive',
    reasons: bandView?.reasons ?? reasons,
    words: matcher.buf.count,
    authorSeverity: authorSeverity(md) !== null,
    unread: language === 'und',
  };
  return {
    score,
    priority,
    recommended_action: action,
    category,
    queue: queueFor(category, source),
    reasons,
    model_version: MODEL_VERSION,
    confidence: confidenceOf(lastConfidence),
    language,
    sentiment: sentimentOf(reasons),
  };
}

let lastConfidence: ConfidenceInput;
/** What the confidence model read for the last scored signal (bin/train-confidence.ts fits on it). */
export const lastConfidenceInput = (): ConfidenceInput => lastConfidence;

/** What the severity model reads for `signal` (the trainer's features): word buckets, the rule reasons' codes and points. */
export function severityFeatures(
  signal: Signal,
  now: Date,
  reading: WordReading = PLAIN_READING,
): { words: number[]; codes: string[]; points: number; kept: number } {
  const { reasons } = scoreSignal(signal, now, { severity: null });
  return { words: severityWords(matcher.buf, reading), ...severityRead(reasons) };
}
