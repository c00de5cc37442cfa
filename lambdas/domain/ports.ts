// What the use cases need from storage, as interfaces (ports). The DynamoDB implementations live in lambdas/stores/
// and depend on this file, never the other way round. Pure types and small error classes: no AWS SDK.
import type { Decision } from './decision';

export const PARTNER_STATUSES = ['active', 'disabled', 'suspended', 'pending'] as const;
export type PartnerStatus = (typeof PARTNER_STATUSES)[number];
export type KeyStatus = 'active' | 'revoked';

export interface PartnerRecord {
  partner_id: string;
  name: string;
  status: PartnerStatus;
  created_at: string;
  updated_at: string;
}

export interface KeyRecord {
  key_hash: string;
  key_id: string;
  partner_id: string;
  /** Non-secret display prefix, e.g. `sas_live_Ab3x`. */
  prefix: string;
  workspaces: string[];
  status: KeyStatus;
  expires_at?: string;
  created_at: string;
  description?: string;
}

export class NotFoundError extends Error {
  constructor(what: string) {
    super(`${what} not found`);
    this.name = 'NotFoundError';
  }
}

export class AlreadyExistsError extends Error {
  constructor(what: string) {
    super(`${what} already exists`);
    this.name = 'AlreadyExistsError';
  }
}

export interface AccessStore {
  getKeyByHash(keyHash: string): Promise<KeyRecord | undefined>;
  getPartner(partnerId: string): Promise<PartnerRecord | undefined>;
  createPartner(partner: PartnerRecord): Promise<void>;
  setPartnerStatus(partnerId: string, status: PartnerStatus, now: string): Promise<PartnerRecord>;
  putKey(key: KeyRecord): Promise<void>;
  findKeyById(keyId: string): Promise<KeyRecord | undefined>;
  /** Sets status or expiry of the key with this id; fails with NotFoundError when there is none. */
  updateKey(keyId: string, change: { status?: KeyStatus; expires_at?: string }): Promise<KeyRecord>;
  /**
   * Adds and removes workspace grants in one atomic update, so concurrent grants and ungrants on one key never
   * lose each other's changes. Fails with NotFoundError when there is no such key.
   */
  changeGrants(keyId: string, change: { add?: string[]; remove?: string[] }): Promise<KeyRecord>;
  listKeys(partnerId: string): Promise<KeyRecord[]>;
}

/** Who asked for a decision: stored beside it, never returned to partners. */
export interface DecisionOwner {
  partner_id: string;
  key_id: string;
}

export interface IdempotencyRequest {
  /** SHA-256 of the partner's Idempotency-Key (the raw key is not stored). */
  keyHash: string;
  /** SHA-256 of the canonical request body: same key, different body is a conflict. */
  requestHash: string;
}

export type SaveResult =
  | { kind: 'created'; decision: Decision }
  | { kind: 'replayed'; decision: Decision }
  | { kind: 'conflict' };

/** Attributes stored beside a decision and returned by no route: the learning sketch and the workspace id to index by. */
export interface DecisionExtras {
  /** The one-way sketch of the signal (sketch.ts), encoded by encodeSketch. */
  sketch?: Uint8Array;
}

export interface DecisionStore {
  save(decision: Decision, owner: DecisionOwner, idempotency?: IdempotencyRequest, extra?: DecisionExtras): Promise<SaveResult>;
  get(decisionId: string): Promise<Decision | undefined>;
}

// ---- Workspaces: policy, learned model, feedback (contract sections 8 and 9) ----

/** What a container caches per workspace: its policy, its learned model and the key its sketches are hashed with. */
export interface WorkspaceState {
  policy: import('./policy').StoredPolicy;
  model: import('./learning/model').WorkspaceModel;
  /** 8 bytes, hex: this workspace's HalfSipHash key. */
  sketchKey: string;
  /** DynamoDB reads the load made (requests) and the bytes of model it read, for the bench. */
  loadCost: { requests: number; bytes: number };
}

export type PolicyWrite =
  | { kind: 'stored'; policy: import('./policy').StoredPolicy }
  | { kind: 'precondition_failed' };

export interface WorkspaceStore {
  getPolicy(workspaceId: string): Promise<import('./policy').StoredPolicy>;
  /** Replaces the policy whole; with `ifMatch`, only when the stored version is that one. */
  putPolicy(workspaceId: string, policy: import('./policy').WorkspacePolicy, ifMatch: number | undefined, now: string): Promise<PolicyWrite>;
  /** Policy, model and sketch key in one load (the key is made on a workspace's first load). */
  loadState(workspaceId: string): Promise<WorkspaceState>;
}

export type FeedbackFields = Partial<Record<import('./learning/model').LearnedField, string>>;

/** A decision as feedback needs it: the decision, its sketch, and the feedback already given. */
export interface FeedbackTarget {
  decision: Decision;
  sketch?: import('./learning/sketch').Sketch;
  feedback?: { fields: FeedbackFields; created_at: string };
  /** The labels this decision currently counts in its workspace's model. */
  learned: FeedbackFields;
  /** Optimistic-concurrency counter of feedback on this decision. */
  seq: number;
}

export interface FeedbackStore {
  getTarget(decisionId: string): Promise<FeedbackTarget | undefined>;
  /**
   * Stores the feedback (replacing any earlier one) and moves the decision's counts in the model from `target.learned`
   * to `learned`. Returns false when another feedback on the same decision landed first (the caller reads again).
   */
  record(target: FeedbackTarget, fields: FeedbackFields, learned: FeedbackFields, createdAt: string): Promise<boolean>;
}
