// The port of writes that change a workspace's learned model as a whole (lambdas/stores/model-write-store.ts), apart
// from ports.ts because the learning types it carries import ports.ts themselves.
import type { AuditEventInput } from '../audit';
import type { Entry } from './entries';
import type { LabelDelta, LearnedField } from './model';

/** An audit event to write with the change it records, and its time. */
export interface AuditEntry {
  event: AuditEventInput;
  at: Date;
}

export interface ImportWrite {
  workspaceId: string;
  /** The generation the deltas were sketched for; a reset since then answers `generation_changed`. */
  generation: number;
  deltas: LabelDelta[];
  /** With an Idempotency-Key: the record's key, and what it holds (request hash, answer). */
  record?: { pk: string; item: Record<string, unknown> };
  /** The audit event, in the transaction that records the import. */
  audit?: AuditEntry;
  /** The labels the import adds to the workspace's label sets (planLabels), in the same transaction. */
  labels?: LabelSetChange[];
  nowMs: number;
}

/** A forget's audit event, made from the model's figures before and after it (a forget that changes nothing: none). */
export type ForgetAudit = (change: { before: Record<string, unknown>; after: Record<string, unknown> }) => AuditEntry;

export type ImportWriteResult =
  /** `entry`: the entry that holds the import, for the container that took it to mark applied. */
  | { kind: 'applied'; entry: Entry }
  | { kind: 'recorded'; item: Record<string, unknown> }
  | { kind: 'generation_changed' }
  /** A label set has no room left since planLabels read it: nothing was written; plan again. */
  | { kind: 'labels_changed' };

/** Labels to add to one field's label set, on the condition that it still has room for them. */
export interface LabelSetChange {
  generation: number;
  field: LearnedField;
  add: string[];
  /** Whether the set existed when read; if not, it is made holding `start` (the caller's model's labels) and `add`. */
  existed: boolean;
  start: string[];
}

/** Of the labels asked for, those the workspace holds or may learn, and the change that records the new ones. */
export interface LabelPlan {
  admitted: Set<string>;
  change?: LabelSetChange;
}

/** The labels a workspace has learned, per generation and field, kept where every container sees them. */
export interface LabelAdmission {
  /**
   * Of `wanted` (labels of `field` the caller's model does not hold), those the workspace holds or may still learn
   * within MAX_LABELS, and the change that records the new ones (none when nothing is to be written); `known` are the
   * caller's model's labels of the field. Reads only.
   */
  planLabels(
    workspaceId: string,
    generation: number,
    field: LearnedField,
    known: ReadonlySet<string>,
    wanted: readonly string[],
  ): Promise<LabelPlan>;
}

/** Label admission that records what it admits by itself (feedback; an import writes its changes in its transaction). */
export interface LabelRecorder extends LabelAdmission {
  /** Writes `change` if the set still has room for what it adds; false when it has not (plan again). */
  recordLabels(workspaceId: string, change: LabelSetChange): Promise<boolean>;
}

/**
 * Writes that change a workspace's learned model as a whole: an import's counts, and a reset. Its planLabels only
 * reads: the import writes the change in its own transaction, so an import that loses its Idempotency-Key to another
 * body takes no label place.
 */
export interface ModelWriteStore extends LabelAdmission {
  applyImport(input: ImportWrite): Promise<ImportWriteResult>;
  /**
   * The idempotency record of an import, if one was written and has not expired at `nowMs` (the request's now, the one
   * its claim is judged at; read consistently).
   */
  getRecord(pk: string, nowMs: number): Promise<Record<string, unknown> | undefined>;
  /**
   * Moves the model to a new, empty generation (with its audit event); answers the generation the workspace is in
   * afterwards. A model that learned nothing since its last reset stays as it is: nothing written, no event.
   */
  forget(workspaceId: string, audit?: ForgetAudit): Promise<number>;
}
