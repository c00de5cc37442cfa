// What the use cases need from storage, as interfaces (ports). The DynamoDB implementations live in lambdas/stores/
// and depend on this file, never the other way round. Pure types and small error classes: no AWS SDK.
import type { Scope } from '../contract/routes';
import type { Decision } from './decision';
import type { LabelRecorder } from './learning/model-writes';
import type { RateLimit } from './rate-limit';
import type { IdempotencyRequest } from './idempotency';

export type { IdempotencyRequest };

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
  status: KeyStatus;
  expires_at?: string;
  created_at: string;
  description?: string;
  /** What the key may do (docs/partners.md, Scopes and rate limits); keys made before scopes existed hold all of them. */
  scopes: Scope[];
  /** Undefined: no per-key limit. */
  rate_limit?: RateLimit;
  /**
   * The key id whose rate limit counters this key counts on: set by `key rotate` to the old key's (its own
   * `rate_counter`, if it has one, so a key rotated again stays in one lineage), so that the old and the new key share
   * one allowance during the grace period. Undefined: the key's own id (every key not made by a rotation).
   */
  rate_counter?: string;
  /** The key a rotation replaced this one with (its expiry is then the grace period's end). */
  replaced_by?: string;
  /** Still holds version 1's `workspaces` list, which `key migrate-grants` moves into grants. */
  legacy_workspaces?: true;
}

/** The key a grant belongs to, as the grant items record it. */
export interface GrantOwner {
  key_id: string;
  partner_id: string;
}

/** A grant someone already holds (for the cross-partner check). */
export interface GrantHolder extends GrantOwner {
  grant: string;
}

/** Grants that would share a workspace with another partner's key. */
export class SharedGrantError extends Error {
  constructor(readonly conflicts: { grant: string; held: GrantHolder }[]) {
    const shown = conflicts
      .slice(0, 5)
      .map(
        ({ grant, held }) =>
          `"${grant}" overlaps "${held.grant}" held by partner ${held.partner_id} (key ${held.key_id})`,
      );
    super(
      `refused: ${conflicts.length} grant(s) would share workspaces with another partner: ${shown.join('; ')}` +
        `${conflicts.length > 5 ? '; ...' : ''}`,
    );
    this.name = 'SharedGrantError';
  }
}

export class TooManyPrefixGrantsError extends Error {
  override name = 'TooManyPrefixGrantsError';
  constructor(max: number) {
    super(`a key holds at most ${max} prefix grants`);
  }
}

/** Grants as data: one item per (key, grant), so a key may hold any number with the same cost per request. */
export interface GrantStore {
  /** Consistent: whether `keyId` may use `workspaceId`, exactly or through a prefix (prefixes read only when asked). */
  checkGrant(
    keyId: string,
    workspaceId: string,
    knownPrefixes?: string[],
  ): Promise<{ exact: boolean; prefixes?: string[] }>;
  /** The key's prefix grants, read consistently. */
  prefixGrants(keyId: string): Promise<string[]>;
  /** Every grant of a key (admin; on AWS an index read, so a grant made a moment ago may be missing). */
  listGrants(keyId: string): Promise<string[]>;
  /** Whose grants a key id holds, from the grant items (admin: a key never stored still has the grants written). */
  ownerOf(keyId: string): Promise<GrantOwner | undefined>;
  /**
   * The key's grants as the table holds them now, for copying them to another key (`key rotate`): never one removed
   * a moment ago. Prefix grants are all there; an exact grant made a moment ago may be missing.
   */
  currentGrants(keyId: string): Promise<string[]>;
  /**
   * Grants another partner's key holds that overlap any of `grants`, of keys for which `counts` holds (the caller
   * decides which keys count). A prefix grant is reported with one such holder under it.
   */
  foreignHolders(
    partnerId: string,
    grants: string[],
    counts: (keyId: string) => Promise<boolean>,
  ): Promise<{ grant: string; held: GrantHolder }[]>;
  /** Idempotent; each grant is written with its index entry atomically, and each transaction with its `key.grant` event. */
  addGrants(owner: GrantOwner, grants: string[], by: AuditActor): Promise<void>;
  /**
   * Each transaction with its `key.ungrant` event; a grant the key does not hold is left out (no write, no event).
   * Answers the grants it removed.
   */
  removeGrants(owner: GrantOwner, grants: string[], by: AuditActor): Promise<string[]>;
}

/**
 * A model write that kept losing to concurrent ones (503 with Retry-After): named for itself, so the log line
 * `request failed` does not read as DynamoDB's own `ServiceUnavailable` (docs/operations.md, "Alarms: what each one
 * means and what to do").
 */
export class ModelBusyError extends Error {
  override name = 'ModelBusy';
  constructor(cause?: unknown) {
    super('the model is busy with concurrent writes; retry shortly', { cause });
  }
}

export class NotFoundError extends Error {
  override name = 'NotFoundError';
  constructor(what: string) {
    super(`${what} not found`);
  }
}

/** The key changed while a command that read it was writing (a concurrent revoke during a rotation). */
export class KeyChangedError extends Error {
  override name = 'KeyChangedError';
}

export class AlreadyExistsError extends Error {
  override name = 'AlreadyExistsError';
  constructor(what: string) {
    super(`${what} already exists`);
  }
}

/** Who makes a change (the audit event's `actor`, docs/operations.md, "Audit log"). */
export interface AuditActor {
  actor: string;
  /** The partner an API key acts for: its events are in `audit list --partner` too. */
  partner_id?: string;
}

/** A key stored in place of another (`key rotate`): the old key's expiry, changed in the same transaction. */
export interface KeyRetirement {
  key: KeyRecord;
  expires_at: string;
}

/**
 * Every write records its audit event in its own transaction (lambdas/stores/audit-log.ts): a change that fails leaves
 * no event, and no change is stored without one.
 */
export interface AccessStore {
  getKeyByHash(keyHash: string): Promise<KeyRecord | undefined>;
  getPartner(partnerId: string): Promise<PartnerRecord | undefined>;
  createPartner(partner: PartnerRecord, by: AuditActor): Promise<void>;
  /** Unchanged status: nothing written, no event. */
  setPartnerStatus(partnerId: string, status: PartnerStatus, now: string, by: AuditActor): Promise<PartnerRecord>;
  /** `key.create`, or with `retiring` `key.rotate` (the new key and the old key's expiry in one transaction). */
  putKey(key: KeyRecord, by: AuditActor, retiring?: KeyRetirement): Promise<void>;
  findKeyById(keyId: string): Promise<KeyRecord | undefined>;
  /** Sets status, expiry or rate limit (`null` removes it); NotFoundError when there is no such key. */
  updateKey(
    keyId: string,
    change: { status?: KeyStatus; expires_at?: string; rate_limit?: RateLimit | null },
    by: AuditActor & { action: 'key.revoke' | 'key.set_rate_limit' },
  ): Promise<KeyRecord>;
  listKeys(partnerId: string): Promise<KeyRecord[]>;
  /** Moves version 1's grant lists (on the key item) into grant items; answers how many keys and grants moved. */
  migrateLegacyGrants(by: AuditActor): Promise<{ keys: number; grants: number }>;
  grants: GrantStore;
}

/** A lease's answer: granted with the count after it, or refused with the count that refused it (when read). */
export type LeaseAnswer = { granted: true; counter: number } | { granted: false; counter?: number };

/** The shared per-(key, window) counter rate limits lease tokens from. */
export interface RateCounterStore {
  /**
   * Adds `n` to the counter of this key and window if the result stays at most `ceiling`. `counterId`: the key's id,
   * or for a rotated key the old key's (KeyRecord.rate_counter).
   */
  lease(
    counterId: string,
    window: { seconds: number; index: number; endMs: number },
    n: number,
    ceiling: number,
  ): Promise<LeaseAnswer>;
}

/** Who asked for a decision: stored beside it, never returned to partners. */
export interface DecisionOwner {
  partner_id: string;
  key_id: string;
}

/** `conflict`: the Idempotency-Key was used before with another body. */
export type SaveResult =
  { kind: 'created'; decision: Decision } | { kind: 'replayed'; decision: Decision } | { kind: 'conflict' };

/** Attributes stored beside a decision and returned by no route: the learning sketch and the workspace id to index by. */
export interface DecisionExtras {
  /** The one-way sketch of the signal (sketch.ts), encoded by encodeSketch. */
  sketch?: Uint8Array;
}

export interface DecisionStore {
  save(
    decision: Decision,
    owner: DecisionOwner,
    idempotency?: IdempotencyRequest,
    extra?: DecisionExtras,
  ): Promise<SaveResult>;
  get(decisionId: string): Promise<Decision | undefined>;
}

/** One page of a workspace's decisions, newest first (GET /decisions). */
export interface DecisionListQuery {
  workspaceId: string;
  limit: number;
  /** Only decisions with ids below this one (the cursor, already checked to be of this workspace). */
  startingAfter?: string;
  priorities?: string[];
  /** Exclusive bounds on `created_at`, epoch ms (fractions allowed). */
  createdAfterMs?: number;
  createdBeforeMs?: number;
  nowMs: number;
}

export interface DecisionListStore {
  list(query: DecisionListQuery): Promise<{ decisions: Decision[]; hasMore: boolean }>;
  /** The workspace of a stored decision (expired or not), or undefined when there is none. */
  workspaceOf(decisionId: string): Promise<string | undefined>;
}

/** A batch's answer as stored under its Idempotency-Key: per item a decision id or the item's error. */
export type BatchItemRecord =
  { id: string } | { error: { code: string; message: string; details?: { field: string; message: string }[] } };

export type BatchSaveResult =
  | { kind: 'created' }
  /**
   * An earlier batch with this key and body: its items, the moment it was analyzed (to rebuild lost ones), and whether
   * its attempt failed to store its decisions (then nothing of it is still being written).
   */
  | { kind: 'replayed'; items: BatchItemRecord[]; createdMs: number; failed: boolean }
  | { kind: 'conflict' };

export interface BatchSaveOptions {
  items: BatchItemRecord[];
  createdMs: number;
  idempotency?: IdempotencyRequest;
  extras?: Map<string, DecisionExtras>;
}

export interface DecisionBatchStore {
  /**
   * Stores a batch's decisions (BatchWriteItem, 25 a request, unprocessed items retried). With an idempotency
   * request, first claims the key with one conditional write holding the items; when it was claimed before, stores
   * nothing and answers what the first batch stored.
   */
  saveBatch(decisions: Decision[], owner: DecisionOwner, options: BatchSaveOptions): Promise<BatchSaveResult>;
  /** Decisions by id (absent ones left out), for replays. */
  getMany(decisionIds: string[]): Promise<Map<string, Decision>>;
  /**
   * Writes decisions none is stored under yet, each on that condition: a replay restoring decisions its first attempt
   * did not store. Answers those found stored after all, as stored (never overwritten: feedback may be on them).
   */
  putNew(
    decisions: Decision[],
    owner: DecisionOwner,
    extras?: Map<string, DecisionExtras>,
  ): Promise<Map<string, Decision>>;
}

// ---- Workspaces: policy, learned model, feedback (docs/partners.md, Workspace policy; Feedback) ----

/** What a container caches per workspace: its policy, its learned model and the key its sketches are hashed with. */
export interface WorkspaceState {
  policy: import('./policy').StoredPolicy;
  model: import('./learning/model').WorkspaceModel;
  /** This workspace's HalfSipHash key (8 bytes, hex) and its sketch format: `sketchKeyOf` in learning/sketch.ts. */
  sketchKey: string;
  /** The model generation: a reset (DELETE .../model) starts a new, empty one; absent means 0. */
  generation?: number;
  /** DynamoDB reads the load made (requests) and the bytes of model it read, for the bench. */
  loadCost: { requests: number; bytes: number };
  /** Where this container stands in the workspace's learning entries. */
  entries?: import('./learning/entries').EntryCursor;
}

export type PolicyWrite =
  { kind: 'stored'; policy: import('./policy').StoredPolicy } | { kind: 'precondition_failed'; version: number };

export interface WorkspaceStore {
  getPolicy(workspaceId: string): Promise<import('./policy').StoredPolicy>;
  /**
   * Replaces the policy whole; with `ifMatch`, only when the stored version is that one. Records a `policy.put` event
   * (the changed fields and the version, before and after) in the same transaction.
   */
  putPolicy(
    workspaceId: string,
    policy: import('./policy').WorkspacePolicy,
    ifMatch: number | undefined,
    now: string,
    by: AuditActor,
  ): Promise<PolicyWrite>;
  /** Policy, model and sketch key in one load (the key is made on a workspace's first load). */
  loadState(workspaceId: string): Promise<WorkspaceState>;
  /** What changed since `cached` was loaded, reading only that; undefined when nothing did. */
  refreshState(workspaceId: string, cached: WorkspaceState): Promise<WorkspaceState | undefined>;
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
  /** The model generation `learned` was counted in (0 before any reset). */
  learnedGeneration: number;
  /** When the decision item (and its sketch) expires, epoch seconds. */
  expiresAt?: number;
}

/** A feedback stored: the learning entry written with it (none when it moved no counts). */
export interface FeedbackRecorded {
  entry?: import('./learning/entries').Entry;
}

export interface FeedbackStore extends LabelRecorder {
  getTarget(decisionId: string): Promise<FeedbackTarget | undefined>;
  /**
   * The workspace's model generation as stored now (strongly consistent): a container whose cached copy is older
   * (a forget through another container) loads the workspace again before it computes what a feedback moves.
   */
  generationOf(workspaceId: string): Promise<number>;
  /**
   * Stores the feedback (replacing any earlier one) and moves the decision's counts in the model from `target.learned`
   * to `learned`. Returns false when another feedback on the same decision landed first (the caller reads again).
   */
  record(
    target: FeedbackTarget,
    fields: FeedbackFields,
    learned: FeedbackFields,
    createdAt: string,
    generation?: number,
  ): Promise<FeedbackRecorded | false>;
}
