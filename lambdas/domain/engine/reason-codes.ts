// Every reason code the engine can emit, one row each: when it applies, its weight range, the category it is
// evidence for, how the scoring phases treat it, and its message. docs/decision-engine.md names every code
// (checked in test/unit/scorer-reasons.test.ts).
import { CATEGORIES, type Category, type Queue } from '../decision';
import type { Source } from '../signal';

interface ReasonCodeInfo {
  /** Smallest and largest weight the reason can carry. */
  min: number;
  max: number;
  /** The category this reason is evidence for. */
  category?: Category;
  /** Describes a real problem (an outage, a threat, a failed payment...). */
  problem?: boolean;
  /** Only makes sense for no-human content (bulk, automated, spam). */
  archive?: boolean;
  /** A topic: the second strongest counts half and further ones not at all. */
  topic?: boolean;
  /** A preceding negation ("not", "never", "kein", "pas") cancels the phrase. */
  negatable?: boolean;
  /** Markers add up, capped at the code's extreme weight (others keep their strongest match). */
  accumulates?: boolean;
  /** Dropped when an alert reports recovery (ALERT_RESOLVED). */
  cancelledByRecovery?: boolean;
  /** Dropped when the writer says the problem is solved (GRATITUDE_CLOSURE) and it does not recur. */
  cancelledByClosure?: boolean;
  /** Judges how severe an alert is from its wording; metadata.severity, when given, replaces it (as it does SEVERITY_*). */
  severityClass?: boolean;
  /** States a serious problem (invariant 4, from 15 points): an outage, a security incident, a legal threat, ... */
  serious?: boolean;
  /** Evidence of bulk or spam mail: with it a text is never escalated (invariant 5). */
  bulk?: boolean;
  /** A person writing about their own problem: weighs 1.5 times against bulk evidence. */
  writer?: boolean;
  /** With newsletter wording, marks a text as a mailing (its alarm topics weigh half). */
  mailing?: boolean;
  /** The writer's tone it shows (sentiment.ts); `none`: machine or bulk text, which has no writer's tone. */
  tone?: 'negative' | 'positive' | 'none';
  /** The message for a matched lexicon phrase (lexicon text, never signal text). */
  message?: (phrase: string) => string;
}

/** A matched phrase as shown in a message: lexicon text, cut to 40 characters. */
const kw = (phrase: string) => `"${phrase.length > 40 ? phrase.slice(0, 40) : phrase}"`;

/** Trait words of the table below and the ReasonCodeInfo flag each one sets. */
const FLAGS = {
  problem: 'problem',
  archive: 'archive',
  topic: 'topic',
  negatable: 'negatable',
  accumulates: 'accumulates',
  recovery: 'cancelledByRecovery',
  closure: 'cancelledByClosure',
  severity: 'severityClass',
  serious: 'serious',
  bulk: 'bulk',
  writer: 'writer',
  mailing: 'mailing',
} as const;
/** Tone words of the table below. */
const TONES = { negative: 'negative', positive: 'positive', untoned: 'none' } as const;

/**
 * One reason code a row: smallest and largest weight; its traits (the category it is evidence for, then FLAGS
 * words); the message for a matched lexicon phrase, shown as `message ("phrase")` ('' when the reason has none).
 * When each applies is the comment above it (a comment, not a field: nothing reads it at run time, and as a string it
 * weighed about 2 KiB gzip in every analyze bundle); docs/decision-engine.md's reason table says it for partners.
 */
type Row = readonly [min: number, max: number, traits: string, message: string];

// prettier-ignore
const TABLE = {
  // mentions an outage, downtime or data loss ("site is down", "Ausfall", "panne", "caída")
  OUTAGE_LANGUAGE: [12, 45, 'incident problem topic negatable recovery closure serious negative', 'mentions a production outage'],
  // mentions degraded service: slowness, timeouts, elevated errors
  DEGRADATION_LANGUAGE: [5, 20, 'incident problem topic negatable recovery closure', 'mentions degraded service'],
  // internal signal worded as a firing alert ("alert", "threshold exceeded", "backup failed")
  INTERNAL_ALERT: [8, 15, 'incident problem negatable recovery untoned', 'internal alert is firing'],
  // internal alert reports recovery ("resolved", "back to normal"); cancels incident and severity reasons
  ALERT_RESOLVED: [-20, -20, 'notification negatable', 'alert reports recovery'],
  // a metric past its critical level (usage >= 95% or, in an alert, <= 5% free; error rate >= 10%; latency >= 3 s)
  METRIC_CRITICAL: [25, 25, 'incident problem recovery serious', ''],
  // a metric past its warning level (usage >= 85% or, in an alert, <= 15% free; error rate >= 2%; latency >= 1 s)
  METRIC_WARNING: [10, 10, 'incident problem recovery', ''],
  // a condition that stops a system or loses data: out of memory, disk full, no quorum or leader, replication stopped, crash loop, certificate expired, backup failed, node not ready, target missing
  CRITICAL_CONDITION: [10, 40, 'incident problem topic negatable recovery closure severity serious', 'reports a critical condition'],
  // a condition to act on before it becomes an outage: high usage, lag, disk filling in days, too many restarts, backlog, throttling, clock skew, certificate expiring
  WARNING_CONDITION: [5, 20, 'incident problem topic negatable recovery closure severity', 'reports a warning condition'],
  // internal signal that only informs: configuration reloaded, restarted, deployed, scaled, heartbeat, "no action needed"
  INFORMATIONAL_ALERT: [-10, -10, 'negatable severity', 'internal signal is informational'],
  // the problem affects many ("all users", "production"); only for incident, security and support
  IMPACT_SCOPE: [5, 10, 'negatable recovery closure', 'the problem affects many'],
  // breach, phishing, leaked credentials, vulnerability, malware (30 for softer cues such as "suspicious login")
  SECURITY_LANGUAGE: [8, 45, 'security problem topic negatable serious', 'mentions a security issue'],
  // threat of legal action ("lawsuit", "my lawyer", "cease and desist", "Anwalt", "avocat", "abogado")
  LEGAL_THREAT: [10, 40, 'legal problem topic negatable serious negative', 'threatens legal action'],
  // mentions legal matters without a threat ("litigation", "attorney", "breach of contract")
  LEGAL_LANGUAGE: [7, 25, 'legal problem topic negatable', 'mentions legal matters'],
  // privacy or compliance request (GDPR/DSGVO/RGPD, DSAR, right to erasure, SOC 2)
  COMPLIANCE_REQUEST: [7, 25, 'legal problem topic negatable', 'mentions a privacy or compliance request'],
  // failed or wrong payment ("card declined", "charged twice", "invoice overdue")
  PAYMENT_FAILURE: [8, 30, 'billing problem topic negatable writer negative', 'reports a payment or billing failure'],
  // billing topic without a failure ("invoice", "receipt", "VAT")
  BILLING_QUESTION: [4, 15, 'billing topic negatable', 'is about billing'],
  // cancellation or switching intent ("cancel my subscription", "not renewing", "kündigen", "résilier", "cancelar")
  CHURN_LANGUAGE: [5, 35, 'churn_risk problem topic negatable writer negative', 'signals cancellation or churn'],
  // demands money back ("I want a refund", "remboursement", "reembolso")
  REFUND_DEMAND: [7, 25, 'churn_risk problem topic negatable writer negative', 'demands a refund'],
  // buying interest: quote, demo, seats, enterprise plan (10 for a bare "pricing" or "demo")
  SALES_INTEREST: [3, 25, 'sales_opportunity topic negatable', 'shows buying interest'],
  // ordinary support request: something does not work, an error, a how-to question
  SUPPORT_REQUEST: [3, 20, 'support problem topic negatable closure writer', 'asks for help with a problem'],
  // task or chat text reporting a software defect: exception, stack trace, wrong result, "steps to reproduce", regression
  BUG_REPORT: [4, 15, 'support topic negatable closure', 'reports a software defect'],
  // task or chat text says the defect stops work: crash, hang, freeze, blocker, unusable
  SEVERE_DEFECT: [10, 20, 'problem negatable closure serious', 'the defect stops work'],
  // task or chat text about a minor matter: typo, cosmetic issue, feature request, enhancement, refactoring, documentation
  MINOR_ISSUE: [-10, -10, 'negatable', 'is a minor matter'],
  // deadline or action item in the text ("due tomorrow", "by EOD", "action required")
  DEADLINE_LANGUAGE: [3, 10, 'task topic negatable', 'mentions a deadline or action item'],
  // says the problem is solved ("thanks, that fixed it"); cancels support, slowness and outage wording unless the problem recurs
  GRATITUDE_CLOSURE: [-20, -20, 'feedback negatable positive', 'says the issue is resolved'],
  // praise without a request ("love the product")
  POSITIVE_FEEDBACK: [-5, -5, 'feedback negatable positive', 'gives positive feedback'],
  // automated notification wording ("do not reply", "order confirmation", "build succeeded"); markers add up
  AUTOMATED_NOTIFICATION: [-25, -5, 'notification archive accumulates mailing untoned', 'reads like an automated notification'],
  // newsletter or bulk-mail wording ("unsubscribe", "view in browser"); markers add up
  NEWSLETTER_LANGUAGE: [-30, -5, 'newsletter archive accumulates bulk untoned', 'reads like a newsletter or bulk mail'],
  // auto-reply or out-of-office wording; markers add up
  AUTO_REPLY: [-30, -10, 'auto_reply archive accumulates untoned', 'reads like an auto-reply or out-of-office'],
  // spam or scam wording ("you have won", "claim your prize", "lottery"); markers add up
  SPAM_LANGUAGE: [-40, -5, 'spam archive accumulates bulk', 'reads like spam or a scam'],
  // the spam model (logistic regression, calibrated) rates the text as spam: -25 when likely (p >= 0.15 for a long e-mail, 0.3 otherwise), -60 when confident (p at or above the channel's cut, 0.8 for e-mail and support messages), which archives it on its own; -10 and no category evidence when a short text's other evidence (a reason of another category weighing 10 or more) makes a vote short of confident a doubt
  SPAM_MODEL: [-60, -10, 'spam archive bulk untoned', ''],
  // newsletter, notification or spam wording in a long text the spam model reads as ordinary mail (p <= 0.03): review, not archive
  ORDINARY_MAIL_MODEL: [5, 5, '', ''],
  // alarming words ("urgent", "down", "lawsuit") inside text that is otherwise spam or bulk mail: they count against the bulk evidence, not as a problem; cancels the alarm words' points
  BULK_OUTWEIGHS_ALARM: [-60, -5, 'bulk untoned', ''],
  // spam or bulk mail (spam evidence, newsletter wording, a bulk sender) whose other reasons would reach critical: held at 79 (high), never escalated
  BULK_NEVER_ESCALATED: [-100, -1, '', ''],
  // personal rather than business mail ("birthday", "dinner"); markers add up
  PERSONAL_LANGUAGE: [-10, -5, 'personal accumulates', 'reads like personal mail'],
  // urgency words ("urgent", "ASAP", "dringend", "sofort", "urgente"); 15 for two or more
  URGENCY_LANGUAGE: [5, 15, 'negatable recovery', 'uses urgent language'],
  // hedged or negated urgency ("not urgent", "no rush", "nicht dringend", "pas urgent")
  NOT_URGENT: [-5, -5, '', 'says it is not urgent'],
  // an unresolved, repeated problem ("still not", "third time", "no response yet")
  REPEATED_CONTACT: [5, 10, 'writer negative', 'follows up on an unresolved problem'],
  // frustrated tone ("unacceptable", "fed up")
  FRUSTRATION: [3, 5, 'negatable writer negative', 'expresses frustration'],
  // ALL-CAPS subject or body, or repeated "!!"; one small bump however loud
  SHOUTING: [5, 5, 'negative', ''],
  // metadata.severity sev0/sev1/critical/1 (or "sev1", "P1" in the text)
  SEVERITY_CRITICAL: [25, 60, 'incident problem negatable recovery serious', 'mentions critical severity'],
  // metadata.severity sev2/high/major/2 (or "sev2", "P2" in the text)
  SEVERITY_HIGH: [15, 30, 'incident problem negatable recovery', 'mentions high severity'],
  // metadata.severity sev3/medium/warning/3 (or "warning" in an internal signal)
  SEVERITY_MEDIUM: [5, 15, 'negatable recovery', 'mentions medium severity'],
  // metadata.severity sev4/sev5/low/info/4/5
  SEVERITY_LOW: [-10, -10, 'recovery', ''],
  // an alert (internal) or bug report (task) without metadata.severity/priority: the severity model, learned from real alert rules and bug reports, reads the text as more (+) or less (-) serious; for alerts, a model of the rule codes decides the band (20 points per unit of log-odds, at most 40) and a model of the words places the score inside it; for bug reports 50 points per unit (at most 60)
  SEVERITY_MODEL: [-60, 60, '', ''],
  // metadata.vip is true, the sender is in metadata.vip_senders, or metadata.tags has "vip"
  VIP_SENDER: [15, 15, '', ''],
  // metadata.customer_tier is enterprise (or strategic, key, platinum, vip)
  VIP_CUSTOMER: [15, 15, '', ''],
  // metadata.customer_tier is a paid plan (pro, business, premium, team, ...)
  CUSTOMER_TIER_PAID: [5, 5, '', ''],
  // metadata.customer_tier is free or trial
  CUSTOMER_TIER_FREE: [-5, -5, '', ''],
  // metadata.tags has urgent, asap, p0, p1, critical, escalation, blocker
  TAG_URGENT: [10, 10, 'problem recovery', ''],
  // metadata.tags names a topic: problem topics +15 (support +10), bulk/automated -15, spam -20
  TAG_TOPIC: [-20, 15, '', ''],
  // metadata.due_at is before now
  DUE_OVERDUE: [25, 25, '', ''],
  // metadata.due_at is within 24 hours of now
  DUE_WITHIN_24H: [15, 15, '', ''],
  // metadata.due_at is within 72 hours of now
  DUE_WITHIN_3_DAYS: [5, 5, '', ''],
  // metadata.amount or deal_value >= 10,000 (20 from 100,000); sales, churn, billing or CRM signals only
  DEAL_VALUE_HIGH: [10, 20, '', ''],
  // received_at is more than 4 hours before now
  WAITING_OVER_4H: [5, 5, '', ''],
  // received_at is more than 24 hours before now
  WAITING_OVER_24H: [10, 10, '', ''],
  // sender is a no-reply or system address (noreply@, notifications@, mailer-daemon@, ...)
  NO_REPLY_SENDER: [-15, -15, 'notification archive mailing', ''],
  // sender is a bulk-mail address (newsletter@, marketing@, news@, ...)
  BULK_SENDER: [-5, -5, 'newsletter archive bulk mailing', ''],
  // a sales lead from a business domain
  SENDER_BUSINESS_DOMAIN: [5, 5, '', ''],
  // a sales lead from a free-mail domain (gmail.com, web.de, ...)
  SENDER_FREE_MAIL: [-5, -5, '', ''],
} as const satisfies Record<string, Row>;

function reasonCodeInfo([min, max, traits, message]: Row): ReasonCodeInfo {
  // Every record has every field, in this order (a trait it lacks is undefined): one object shape, so that the scoring
  // phases' reads of a trait (infoOf(code).topic, ...) stay monomorphic; records built field by field, in each row's
  // own order, had some forty shapes and every such read went through V8's megamorphic lookup.
  const info: ReasonCodeInfo = {
    min,
    max,
    category: undefined,
    problem: undefined,
    archive: undefined,
    topic: undefined,
    negatable: undefined,
    accumulates: undefined,
    cancelledByRecovery: undefined,
    cancelledByClosure: undefined,
    severityClass: undefined,
    serious: undefined,
    bulk: undefined,
    writer: undefined,
    mailing: undefined,
    tone: undefined,
    message: undefined,
  };
  for (const word of traits.split(' ').filter((w) => w !== '')) {
    if (word in FLAGS) info[FLAGS[word as keyof typeof FLAGS]] = true;
    else if (word in TONES) info.tone = TONES[word as keyof typeof TONES];
    else if ((CATEGORIES as readonly string[]).includes(word)) info.category = word as Category;
    else throw new Error(`reason trait ${word} is neither a flag nor a category`);
  }
  if (message !== '') info.message = (phrase) => `${message} (${kw(phrase)})`;
  return info;
}

export type ReasonCode = keyof typeof TABLE;

export const REASON_CODES = Object.fromEntries(
  Object.entries(TABLE).map(([code, row]) => [code, reasonCodeInfo(row)]),
) as Readonly<Record<ReasonCode, ReasonCodeInfo>>;

const INFO = new Map<string, ReasonCodeInfo>(Object.entries(REASON_CODES));
/**
 * A code's record, as the scoring phases read it (some forty times a signal): from a Map, since reading the object
 * above by a changing key goes through V8's megamorphic keyed lookup, several times slower.
 */
export const infoOf = (code: ReasonCode): ReasonCodeInfo => INFO.get(code)!;

/** The codes with a trait: the one place such lists are kept (sentiment.ts, invariants.ts, score.ts read them). */
export const codesWhere = (test: (info: ReasonCodeInfo) => boolean): ReadonlySet<ReasonCode> =>
  new Set((Object.keys(REASON_CODES) as ReasonCode[]).filter((code) => test(REASON_CODES[code])));

/** Whether a reason's code (a string as decisions carry it) is a known code. */
export const isReasonCode = (code: string): code is ReasonCode => Object.prototype.hasOwnProperty.call(TABLE, code);

// ---- Categories and queues ----

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
export const CATEGORY_PRECEDENCE: readonly Category[] = [
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

export function queueFor(category: Category, source: Source): Queue {
  if (category !== 'general') return CATEGORY_QUEUE[category];
  if (source === 'internal' || source === 'task') return 'operations';
  if (source === 'crm_event') return 'sales';
  return 'support';
}
