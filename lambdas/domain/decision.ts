// The decision a partner receives. Field order here is the order partners see in responses.

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
}

export interface Decision extends Assessment {
  decision_id: string;
  workspace_id: string;
  source: string;
  received_at: string;
  created_at: string;
}

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
  assessment: Assessment,
): Decision {
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
  };
}
