// Every reason code the engine can emit, one record each: when it applies, its weight range, the category it is
// evidence for, how the scoring phases treat it, and its message. docs/decision-engine.md's table is checked
// against this record (test/unit/decision-engine-doc.test.ts).
import type { Category, Queue } from '../decision';
import type { Source } from '../signal';

export interface ReasonCodeInfo {
  /** Smallest and largest weight the reason can carry. */
  min: number;
  max: number;
  /** When the reason applies. */
  description: string;
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
  /** The message for a matched lexicon phrase (lexicon text, never signal text). */
  message?: (phrase: string) => string;
}

/** A matched phrase as shown in a message: lexicon text, cut to 40 characters. */
const kw = (phrase: string) => `"${phrase.length > 40 ? phrase.slice(0, 40) : phrase}"`;

export const REASON_CODES = {
  OUTAGE_LANGUAGE: {
    min: 12,
    max: 45,
    category: 'incident',
    problem: true,
    topic: true,
    negatable: true,
    cancelledByRecovery: true,
    cancelledByClosure: true,
    description: 'mentions an outage, downtime or data loss ("site is down", "Ausfall", "panne", "caída")',
    message: (p) => `mentions a production outage (${kw(p)})`,
  },
  DEGRADATION_LANGUAGE: {
    min: 5,
    max: 20,
    category: 'incident',
    problem: true,
    topic: true,
    negatable: true,
    cancelledByRecovery: true,
    cancelledByClosure: true,
    description: 'mentions degraded service: slowness, timeouts, elevated errors',
    message: (p) => `mentions degraded service (${kw(p)})`,
  },
  INTERNAL_ALERT: {
    min: 8,
    max: 15,
    category: 'incident',
    problem: true,
    negatable: true,
    cancelledByRecovery: true,
    description: 'internal signal worded as a firing alert ("alert", "threshold exceeded", "backup failed")',
    message: (p) => `internal alert is firing (${kw(p)})`,
  },
  ALERT_RESOLVED: {
    min: -20,
    max: -20,
    category: 'notification',
    negatable: true,
    description:
      'internal alert reports recovery ("resolved", "back to normal"); cancels incident and severity reasons',
    message: (p) => `alert reports recovery (${kw(p)})`,
  },
  METRIC_CRITICAL: {
    min: 25,
    max: 25,
    category: 'incident',
    problem: true,
    cancelledByRecovery: true,
    description:
      'a metric past its critical level (usage >= 95% or, in an alert, <= 5% free; error rate >= 10%; latency >= 3 s)',
  },
  METRIC_WARNING: {
    min: 10,
    max: 10,
    category: 'incident',
    problem: true,
    cancelledByRecovery: true,
    description:
      'a metric past its warning level (usage >= 85% or, in an alert, <= 15% free; error rate >= 2%; latency >= 1 s)',
  },
  CRITICAL_CONDITION: {
    min: 10,
    max: 40,
    category: 'incident',
    problem: true,
    topic: true,
    negatable: true,
    cancelledByRecovery: true,
    cancelledByClosure: true,
    severityClass: true,
    description:
      'a condition that stops a system or loses data: out of memory, disk full, no quorum or leader, replication stopped, crash loop, certificate expired, backup failed, node not ready, target missing',
    message: (p) => `reports a critical condition (${kw(p)})`,
  },
  WARNING_CONDITION: {
    min: 5,
    max: 20,
    category: 'incident',
    problem: true,
    topic: true,
    negatable: true,
    cancelledByRecovery: true,
    cancelledByClosure: true,
    severityClass: true,
    description:
      'a condition to act on before it becomes an outage: high usage, lag, disk filling in days, too many restarts, backlog, throttling, clock skew, certificate expiring',
    message: (p) => `reports a warning condition (${kw(p)})`,
  },
  INFORMATIONAL_ALERT: {
    min: -10,
    max: -10,
    negatable: true,
    severityClass: true,
    description:
      'internal signal that only informs: configuration reloaded, restarted, deployed, scaled, heartbeat, "no action needed"',
    message: (p) => `internal signal is informational (${kw(p)})`,
  },
  IMPACT_SCOPE: {
    min: 5,
    max: 10,
    negatable: true,
    cancelledByRecovery: true,
    cancelledByClosure: true,
    description: 'the problem affects many ("all users", "production"); only for incident, security and support',
    message: (p) => `the problem affects many (${kw(p)})`,
  },
  SECURITY_LANGUAGE: {
    min: 8,
    max: 45,
    category: 'security',
    problem: true,
    topic: true,
    negatable: true,
    description:
      'breach, phishing, leaked credentials, vulnerability, malware (30 for softer cues such as "suspicious login")',
    message: (p) => `mentions a security issue (${kw(p)})`,
  },
  LEGAL_THREAT: {
    min: 10,
    max: 40,
    category: 'legal',
    problem: true,
    topic: true,
    negatable: true,
    description: 'threat of legal action ("lawsuit", "my lawyer", "cease and desist", "Anwalt", "avocat", "abogado")',
    message: (p) => `threatens legal action (${kw(p)})`,
  },
  LEGAL_LANGUAGE: {
    min: 7,
    max: 25,
    category: 'legal',
    problem: true,
    topic: true,
    negatable: true,
    description: 'mentions legal matters without a threat ("litigation", "attorney", "breach of contract")',
    message: (p) => `mentions legal matters (${kw(p)})`,
  },
  COMPLIANCE_REQUEST: {
    min: 7,
    max: 25,
    category: 'legal',
    problem: true,
    topic: true,
    negatable: true,
    description: 'privacy or compliance request (GDPR/DSGVO/RGPD, DSAR, right to erasure, SOC 2)',
    message: (p) => `mentions a privacy or compliance request (${kw(p)})`,
  },
  PAYMENT_FAILURE: {
    min: 8,
    max: 30,
    category: 'billing',
    problem: true,
    topic: true,
    negatable: true,
    description: 'failed or wrong payment ("card declined", "charged twice", "invoice overdue")',
    message: (p) => `reports a payment or billing failure (${kw(p)})`,
  },
  BILLING_QUESTION: {
    min: 4,
    max: 15,
    category: 'billing',
    topic: true,
    negatable: true,
    description: 'billing topic without a failure ("invoice", "receipt", "VAT")',
    message: (p) => `is about billing (${kw(p)})`,
  },
  CHURN_LANGUAGE: {
    min: 5,
    max: 35,
    category: 'churn_risk',
    problem: true,
    topic: true,
    negatable: true,
    description:
      'cancellation or switching intent ("cancel my subscription", "not renewing", "kündigen", "résilier", "cancelar")',
    message: (p) => `signals cancellation or churn (${kw(p)})`,
  },
  REFUND_DEMAND: {
    min: 7,
    max: 25,
    category: 'churn_risk',
    problem: true,
    topic: true,
    negatable: true,
    description: 'demands money back ("I want a refund", "remboursement", "reembolso")',
    message: (p) => `demands a refund (${kw(p)})`,
  },
  SALES_INTEREST: {
    min: 3,
    max: 25,
    category: 'sales_opportunity',
    topic: true,
    negatable: true,
    description: 'buying interest: quote, demo, seats, enterprise plan (10 for a bare "pricing" or "demo")',
    message: (p) => `shows buying interest (${kw(p)})`,
  },
  SUPPORT_REQUEST: {
    min: 3,
    max: 20,
    category: 'support',
    problem: true,
    topic: true,
    negatable: true,
    cancelledByClosure: true,
    description: 'ordinary support request: something does not work, an error, a how-to question',
    message: (p) => `asks for help with a problem (${kw(p)})`,
  },
  BUG_REPORT: {
    min: 4,
    max: 15,
    category: 'support',
    topic: true,
    negatable: true,
    cancelledByClosure: true,
    description:
      'task or chat text reporting a software defect: exception, stack trace, wrong result, "steps to reproduce", regression',
    message: (p) => `reports a software defect (${kw(p)})`,
  },
  SEVERE_DEFECT: {
    min: 10,
    max: 20,
    problem: true,
    negatable: true,
    cancelledByClosure: true,
    description: 'task or chat text says the defect stops work: crash, hang, freeze, blocker, unusable',
    message: (p) => `the defect stops work (${kw(p)})`,
  },
  MINOR_ISSUE: {
    min: -10,
    max: -10,
    negatable: true,
    description:
      'task or chat text about a minor matter: typo, cosmetic issue, feature request, enhancement, refactoring, documentation',
    message: (p) => `is a minor matter (${kw(p)})`,
  },
  DEADLINE_LANGUAGE: {
    min: 3,
    max: 10,
    category: 'task',
    topic: true,
    negatable: true,
    description: 'deadline or action item in the text ("due tomorrow", "by EOD", "action required")',
    message: (p) => `mentions a deadline or action item (${kw(p)})`,
  },
  GRATITUDE_CLOSURE: {
    min: -20,
    max: -20,
    category: 'feedback',
    negatable: true,
    description:
      'says the problem is solved ("thanks, that fixed it"); cancels support, slowness and outage wording unless the problem recurs',
    message: (p) => `says the issue is resolved (${kw(p)})`,
  },
  POSITIVE_FEEDBACK: {
    min: -5,
    max: -5,
    category: 'feedback',
    negatable: true,
    description: 'praise without a request ("love the product")',
    message: (p) => `gives positive feedback (${kw(p)})`,
  },
  AUTOMATED_NOTIFICATION: {
    min: -25,
    max: -5,
    category: 'notification',
    archive: true,
    accumulates: true,
    description:
      'automated notification wording ("do not reply", "order confirmation", "build succeeded"); markers add up',
    message: (p) => `reads like an automated notification (${kw(p)})`,
  },
  NEWSLETTER_LANGUAGE: {
    min: -30,
    max: -5,
    category: 'newsletter',
    archive: true,
    accumulates: true,
    description: 'newsletter or bulk-mail wording ("unsubscribe", "view in browser"); markers add up',
    message: (p) => `reads like a newsletter or bulk mail (${kw(p)})`,
  },
  AUTO_REPLY: {
    min: -30,
    max: -10,
    category: 'auto_reply',
    archive: true,
    accumulates: true,
    description: 'auto-reply or out-of-office wording; markers add up',
    message: (p) => `reads like an auto-reply or out-of-office (${kw(p)})`,
  },
  SPAM_LANGUAGE: {
    min: -40,
    max: -5,
    category: 'spam',
    archive: true,
    accumulates: true,
    description: 'spam or scam wording ("you have won", "claim your prize", "lottery"); markers add up',
    message: (p) => `reads like spam or a scam (${kw(p)})`,
  },
  SPAM_MODEL: {
    min: -60,
    max: -10,
    category: 'spam',
    archive: true,
    description:
      "the spam model (logistic regression, calibrated) rates the text as spam: -25 when likely (p >= 0.15 for a long e-mail, 0.3 otherwise), -60 when confident (p >= 0.8 on a long text, 0.9 on a short one), which archives it on its own; -10 and no category evidence when a short text's other evidence (a reason of another category weighing 10 or more) makes a vote short of confident a doubt",
  },
  ORDINARY_MAIL_MODEL: {
    min: 5,
    max: 5,
    description:
      'newsletter, notification or spam wording in a long text the spam model reads as ordinary mail (p <= 0.03): review, not archive',
  },
  BULK_OUTWEIGHS_ALARM: {
    min: -60,
    max: -5,
    description:
      'alarming words ("urgent", "down", "lawsuit") inside text that is otherwise spam or bulk mail: they count against the bulk evidence, not as a problem; cancels the alarm words\' points',
  },
  BULK_NEVER_ESCALATED: {
    min: -100,
    max: -1,
    description:
      'spam or bulk mail (spam evidence, newsletter wording, a bulk sender) whose other reasons would reach critical: held at 79 (high), never escalated',
  },
  PERSONAL_LANGUAGE: {
    min: -10,
    max: -5,
    category: 'personal',
    accumulates: true,
    description: 'personal rather than business mail ("birthday", "dinner"); markers add up',
    message: (p) => `reads like personal mail (${kw(p)})`,
  },
  URGENCY_LANGUAGE: {
    min: 5,
    max: 15,
    negatable: true,
    cancelledByRecovery: true,
    description: 'urgency words ("urgent", "ASAP", "dringend", "sofort", "urgente"); 15 for two or more',
    message: (p) => `uses urgent language (${kw(p)})`,
  },
  NOT_URGENT: {
    min: -5,
    max: -5,
    description: 'hedged or negated urgency ("not urgent", "no rush", "nicht dringend", "pas urgent")',
    message: (p) => `says it is not urgent (${kw(p)})`,
  },
  REPEATED_CONTACT: {
    min: 5,
    max: 10,
    description: 'an unresolved, repeated problem ("still not", "third time", "no response yet")',
    message: (p) => `follows up on an unresolved problem (${kw(p)})`,
  },
  FRUSTRATION: {
    min: 3,
    max: 5,
    negatable: true,
    description: 'frustrated tone ("unacceptable", "fed up")',
    message: (p) => `expresses frustration (${kw(p)})`,
  },
  SHOUTING: {
    min: 5,
    max: 5,
    description: 'ALL-CAPS subject or body, or repeated "!!"; one small bump however loud',
  },
  SEVERITY_CRITICAL: {
    min: 25,
    max: 50,
    category: 'incident',
    problem: true,
    negatable: true,
    cancelledByRecovery: true,
    description: 'metadata.severity sev0/sev1/critical/1 (or "sev1", "P1" in the text)',
    message: (p) => `mentions critical severity (${kw(p)})`,
  },
  SEVERITY_HIGH: {
    min: 15,
    max: 30,
    category: 'incident',
    problem: true,
    negatable: true,
    cancelledByRecovery: true,
    description: 'metadata.severity sev2/high/major/2 (or "sev2", "P2" in the text)',
    message: (p) => `mentions high severity (${kw(p)})`,
  },
  SEVERITY_MEDIUM: {
    min: 5,
    max: 10,
    negatable: true,
    cancelledByRecovery: true,
    description: 'metadata.severity sev3/medium/warning/3 (or "warning" in an internal signal)',
    message: (p) => `mentions medium severity (${kw(p)})`,
  },
  SEVERITY_LOW: {
    min: -10,
    max: -10,
    cancelledByRecovery: true,
    description: 'metadata.severity sev4/sev5/low/info/4/5',
  },
  SEVERITY_MODEL: {
    min: -60,
    max: 60,
    description:
      'an alert (internal) or bug report (task) without metadata.severity/priority: the severity model, learned from real alert rules and bug reports, reads the text as more (+) or less (-) serious; per unit of log-odds 20 points for alerts (at most 40), 50 for bug reports (at most 60)',
  },
  VIP_SENDER: {
    min: 15,
    max: 15,
    description: 'metadata.vip is true, the sender is in metadata.vip_senders, or metadata.tags has "vip"',
  },
  VIP_CUSTOMER: {
    min: 15,
    max: 15,
    description: 'metadata.customer_tier is enterprise (or strategic, key, platinum, vip)',
  },
  CUSTOMER_TIER_PAID: {
    min: 5,
    max: 5,
    description: 'metadata.customer_tier is a paid plan (pro, business, premium, team, ...)',
  },
  CUSTOMER_TIER_FREE: {
    min: -5,
    max: -5,
    description: 'metadata.customer_tier is free or trial',
  },
  TAG_URGENT: {
    min: 10,
    max: 10,
    problem: true,
    cancelledByRecovery: true,
    description: 'metadata.tags has urgent, asap, p0, p1, critical, escalation, blocker',
  },
  TAG_TOPIC: {
    min: -20,
    max: 15,
    description: 'metadata.tags names a topic: problem topics +15 (support +10), bulk/automated -15, spam -20',
  },
  DUE_OVERDUE: {
    min: 25,
    max: 25,
    description: 'metadata.due_at is before now',
  },
  DUE_WITHIN_24H: {
    min: 15,
    max: 15,
    description: 'metadata.due_at is within 24 hours of now',
  },
  DUE_WITHIN_3_DAYS: {
    min: 5,
    max: 5,
    description: 'metadata.due_at is within 72 hours of now',
  },
  DEAL_VALUE_HIGH: {
    min: 10,
    max: 20,
    description: 'metadata.amount or deal_value >= 10,000 (20 from 100,000); sales, churn, billing or CRM signals only',
  },
  WAITING_OVER_4H: {
    min: 5,
    max: 5,
    description: 'received_at is more than 4 hours before now',
  },
  WAITING_OVER_24H: {
    min: 10,
    max: 10,
    description: 'received_at is more than 24 hours before now',
  },
  NO_REPLY_SENDER: {
    min: -15,
    max: -15,
    category: 'notification',
    archive: true,
    description: 'sender is a no-reply or system address (noreply@, notifications@, mailer-daemon@, ...)',
  },
  BULK_SENDER: {
    min: -5,
    max: -5,
    category: 'newsletter',
    archive: true,
    description: 'sender is a bulk-mail address (newsletter@, marketing@, news@, ...)',
  },
  SENDER_BUSINESS_DOMAIN: {
    min: 5,
    max: 5,
    description: 'a sales lead from a business domain',
  },
  SENDER_FREE_MAIL: {
    min: -5,
    max: -5,
    description: 'a sales lead from a free-mail domain (gmail.com, web.de, ...)',
  },
} as const satisfies Record<string, ReasonCodeInfo>;

export type ReasonCode = keyof typeof REASON_CODES;

/** Looks a code's record up with every optional field visible (the literal types above hide absent ones). */
export const infoOf = (code: ReasonCode): ReasonCodeInfo => REASON_CODES[code];

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
