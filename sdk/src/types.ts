// Requests and responses of the Signal Analysis Service API, as docs/openapi.yaml describes them. The repository's
// test suite compares these declarations with the document (names, required fields, enumerations), so they cannot
// drift apart unnoticed.

export type Source = 'email' | 'task' | 'crm_event' | 'support_message' | 'internal';
export type Priority = 'critical' | 'high' | 'medium' | 'low';
export type RecommendedAction = 'escalate' | 'respond_now' | 'respond' | 'review' | 'archive';
export type Sentiment = 'negative' | 'neutral' | 'positive';

/** JSON as metadata may hold it. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** The body of `POST /signals/analyze`, and each item of a batch. */
export interface Signal {
  workspace_id: string;
  source: Source;
  subject?: string;
  body?: string;
  sender?: string;
  /** RFC 3339 with `Z` or an offset; defaults to the time of receipt. */
  received_at?: string;
  metadata?: { [key: string]: JsonValue };
}

export interface Reason {
  code: string;
  message: string;
  weight: number;
}

/** A decision, exactly as analyze answers it and GET returns it. */
export interface Decision {
  decision_id: string;
  workspace_id: string;
  priority: Priority;
  score: number;
  recommended_action: RecommendedAction;
  /** A documented category, or a workspace's own. */
  category: string;
  /** A documented queue, or a workspace's own. */
  queue: string;
  reasons: Reason[];
  source: Source;
  received_at: string;
  created_at: string;
  model_version: string;
  // Version 2 fields: on every decision made since version 2; decisions stored before keep their shape.
  confidence?: number;
  language?: string;
  sentiment?: Sentiment;
  respond_by?: string | null;
  policy_version?: number;
}

/** Query of `GET /decisions`. */
export interface ListDecisionsParams {
  workspace_id: string;
  /** 1 to 100, default 20. */
  limit?: number;
  /** The last `decision_id` of the previous page. */
  starting_after?: string;
  /** Only these priorities. */
  priority?: Priority | Priority[];
  /** Exclusive bounds on `created_at`: RFC 3339 strings or Dates. */
  created_after?: string | Date;
  created_before?: string | Date;
}

export interface DecisionList {
  object: 'list';
  data: Decision[];
  has_more: boolean;
}

export interface BatchRequest {
  signals: Signal[];
}

export type BatchItemErrorCode = 'WORKSPACE_NOT_ALLOWED' | 'VALIDATION_ERROR';

/** One problem of a VALIDATION_ERROR; an error lists at most 100, in document order. */
export interface ErrorDetail {
  /** A JSON path into the body (`signals[3].subject`, `keywords[0].weight`), `Idempotency-Key`, or `(body)`. */
  field: string;
  message: string;
}

export interface BatchItemError {
  code: BatchItemErrorCode;
  message: string;
  details?: ErrorDetail[];
}

export type BatchItemResult =
  { index: number; decision: Decision; error?: never } | { index: number; error: BatchItemError; decision?: never };

export interface BatchResult {
  object: 'list';
  data: BatchItemResult[];
}

/** `POST /workspaces/{workspace_id}/examples`: one labeled signal of a workspace's history. */
export interface ImportExample {
  /** As for analyze; `workspace_id` may be left out (when given it must be the path's). */
  signal: Omit<Signal, 'workspace_id'> & { workspace_id?: string };
  /** The labels the signal should have had (at least one field). */
  labels: Feedback;
}

export interface ImportRequest {
  examples: ImportExample[];
}

export type ImportItemResult =
  { index: number; status: 'learned'; error?: never } | { index: number; error: BatchItemError; status?: never };

export interface ImportResult {
  object: 'list';
  workspace_id: string;
  /** Examples learned (those without an error). */
  learned: number;
  data: ImportItemResult[];
}

export interface ModelForgotten {
  workspace_id: string;
  forgotten: true;
}

export type ErrorCode =
  | 'FORBIDDEN'
  | 'UNAUTHORIZED'
  | 'ACCOUNT_INACTIVE'
  | 'INSUFFICIENT_SCOPE'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'INVALID_JSON'
  | 'WORKSPACE_NOT_ALLOWED'
  | 'VALIDATION_ERROR'
  | 'NOT_FOUND'
  | 'DECISION_NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'IDEMPOTENCY_CONFLICT'
  | 'PRECONDITION_FAILED'
  | 'RATE_LIMITED'
  | 'INTERNAL_ERROR'
  | 'SERVICE_UNAVAILABLE';

/** The body of every error the service answers. */
export interface ErrorBody {
  error: {
    code: ErrorCode;
    message: string;
    request_id: string;
    details?: ErrorDetail[];
  };
}

/** `POST /decisions/{decision_id}/feedback`: what the decision should have been (at least one field). */
export interface Feedback {
  priority?: Priority;
  recommended_action?: RecommendedAction;
  category?: string;
  queue?: string;
}

export interface FeedbackRecord {
  decision_id: string;
  workspace_id: string;
  feedback: Feedback;
  created_at: string;
}

export interface PolicyKeyword {
  phrase: string;
  weight: number;
  category?: string;
  queue?: string;
}

export interface PolicyCategory {
  name: string;
  queue?: string;
  description?: string;
}

/** A workspace's policy as sent with PUT (every field optional; `version` and `updated_at` are ignored if sent). */
export interface PolicyInput {
  vip_senders?: string[];
  trusted_senders?: string[];
  blocked_senders?: string[];
  keywords?: PolicyKeyword[];
  categories?: PolicyCategory[];
  routing?: { [category: string]: string };
  thresholds?: { critical?: number; high?: number; medium?: number };
  response_minutes?: { critical?: number; high?: number; medium?: number; low?: number };
  learning?: boolean;
  version?: number;
  updated_at?: string | null;
}

/** A workspace's policy as GET and PUT answer it. */
export interface Policy extends PolicyInput {
  version: number;
  updated_at?: string | null;
}
