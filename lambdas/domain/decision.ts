// The decision a partner receives. Field order here is the order partners see in responses.
import { parseInstant } from './timestamps';

export const PRIORITIES = ['critical', 'high', 'medium', 'low'] as const;
export type Priority = (typeof PRIORITIES)[number];

export const ACTIONS = ['escalate', 'respond_now', 'respond', 'review', 'archive'] as const;
export type RecommendedAction = (typeof ACTIONS)[number];

export const CATEGORIES = [
  'incident',
  'security',
  'legal',
  'billing',
  'churn_risk',
  'sales_opportunity',
  'support',
  'task',
  'feedback',
  'notification',
  'newsletter',
  'auto_reply',
  'spam',
  'personal',
  'general',
] as const;
export type Category = (typeof CATEGORIES)[number];

export const QUEUES = [
  'engineering',
  'security',
  'legal',
  'finance',
  'sales',
  'customer_success',
  'support',
  'operations',
  'none',
] as const;
export type Queue = (typeof QUEUES)[number];

export interface Reason {
  /** Stable UPPER_SNAKE code, documented in the README. */
  code: string;
  message: string;
  /** Signed integer: how many points this reason moved the score. */
  weight: number;
}

/** What the scorer decides about a signal: everything in a decision but identity and timestamps. */
export interface Assessment {
  score: number;
  priority: Priority;
  recommended_action: RecommendedAction;
  category: Category;
  queue: Queue;
  reasons: Reason[];
  model_version: string;
  /** 0 to 1, two decimals: how sure the engine is of category and priority (statedConfidence). */
  confidence: number;
  /** ISO 639-1 code, or `und`. */
  language: string;
  sentiment: 'negative' | 'neutral' | 'positive';
}

/** What a decision is built from: the engine's assessment, or one a workspace's learned labels renamed (any string). */
interface DecisionAssessment extends Omit<Assessment, 'category' | 'queue'> {
  category: Category | (string & {});
  queue: Queue | (string & {});
}

export interface Decision extends DecisionAssessment {
  decision_id: string;
  workspace_id: string;
  source: string;
  received_at: string;
  created_at: string;
  /** received_at plus the response time for the priority; null when the action is archive. */
  respond_by: string | null;
  policy_version: number;
}

/**
 * Every field of a decision, in the order partners see, and whether it came with version 2 (a decision stored before
 * it lacks the field, and keeps that shape when read back). Keyed by the Decision type itself: a new field does not
 * compile until it is listed here, so the stores (which rebuild a read decision from this list) cannot drop it.
 */
const FIELD_SINCE: { [K in keyof Decision]-?: 1 | 2 } = {
  decision_id: 1,
  workspace_id: 1,
  priority: 1,
  score: 1,
  recommended_action: 1,
  category: 1,
  queue: 1,
  reasons: 1,
  source: 1,
  received_at: 1,
  created_at: 1,
  model_version: 1,
  confidence: 2,
  language: 2,
  sentiment: 2,
  respond_by: 2,
  policy_version: 2,
};
export const DECISION_FIELDS = Object.keys(FIELD_SINCE) as readonly (keyof Decision)[];
/** The fields a decision stored before version 2 lacks (clients must not count on them: the SDK leaves them optional). */
export const DECISION_V2_FIELDS = DECISION_FIELDS.filter((f) => FIELD_SINCE[f] === 2);

/** Minutes to respond per priority when the workspace's policy sets none (docs/partners.md, The decision). */
export const DEFAULT_RESPONSE_MINUTES: Readonly<Record<Priority, number>> = {
  critical: 60,
  high: 240,
  medium: 1_440,
  low: 4_320,
};

/** What a workspace's policy contributes to a decision (the policy module passes the workspace's own). */
export interface DecisionPolicy {
  policy_version: number;
  response_minutes?: Partial<Record<Priority, number>>;
}

export const NO_POLICY: DecisionPolicy = { policy_version: 0 };

/** Priority bands fixed by the contract. */
export function priorityForScore(score: number): Priority {
  if (score >= 80) return 'critical';
  if (score >= 60) return 'high';
  if (score >= 35) return 'medium';
  return 'low';
}

/** Builds the decision object in the field order partners see; GET returns exactly this object. */
export function buildDecision(
  ids: { decision_id: string; workspace_id: string; source: string; received_at: string; created_at: string },
  assessment: DecisionAssessment,
  policy: DecisionPolicy = NO_POLICY,
): Decision {
  const minutes = policy.response_minutes?.[assessment.priority] ?? DEFAULT_RESPONSE_MINUTES[assessment.priority];
  const received = parseInstant(ids.received_at);
  const respondBy =
    assessment.recommended_action === 'archive' || !Number.isFinite(received)
      ? null
      : new Date(received + minutes * 60_000).toISOString();
  return {
    decision_id: ids.decision_id,
    workspace_id: ids.workspace_id,
    priority: assessment.priority,
    score: assessment.score,
    recommended_action: assessment.recommended_action,
    category: assessment.category,
    queue: assessment.queue,
    reasons: assessment.reasons.map((r) => ({ code: r.code, message: r.message, weight: r.weight })),
    source: ids.source,
    received_at: ids.received_at,
    created_at: ids.created_at,
    model_version: assessment.model_version,
    confidence: assessment.confidence,
    language: assessment.language,
    sentiment: assessment.sentiment,
    respond_by: respondBy,
    policy_version: policy.policy_version,
  };
}

/** A chance as a decision states its confidence: never sure either way (0.05 to 0.99), two decimals. */
export function statedConfidence(c: number): number {
  return Math.round((c < 0.05 ? 0.05 : c > 0.99 ? 0.99 : c) * 100) / 100;
}
