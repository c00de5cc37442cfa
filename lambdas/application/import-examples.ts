// The import use case (docs/partners.md, Learning): the valid examples, sketched with the workspace's key and summed
// into one delta per label, written as one journal entry (lambdas/stores/model-write-store.ts). An example teaches
// exactly what a decision on its signal followed by that feedback would: the same sketch, the same label counts. No
// decision is made or stored and no text is kept.
import type { ErrorDetail } from '../contract/errors';
import type { AuditTarget } from '../domain/audit';
import { labelDeltas } from '../domain/learning/label-delta';
import type { LearnedField } from '../domain/learning/model';
import { sketchSignal } from '../domain/learning/sketch';
import type { WorkspaceCache } from '../domain/learning/workspace-cache';
import type { AuditEntry, ModelWriteStore } from '../domain/learning/model-writes';
import { type FeedbackFields, ModelBusyError } from '../domain/ports';
import { AGAIN, CONTENTION_RETRY, RetriesExhausted, retrying } from '../domain/retry';
import { applyOwnEntry } from './model-learning';
import { type AllowedLabels, LABEL_LIMIT_MESSAGE, allowedLabels, pastLimit } from './record-feedback';

export type ImportItem =
  | { index: number; status: 'learned' }
  | { index: number; error: { code: string; message: string; details?: ErrorDetail[] } };

export interface ImportAnswer {
  object: 'list';
  workspace_id: string;
  learned: number;
  data: ImportItem[];
}

export type ImportOutcome = { kind: 'imported' | 'replayed'; answer: ImportAnswer } | { kind: 'conflict' };

export interface ImportDeps {
  workspaces: Pick<WorkspaceCache, 'get' | 'update' | 'invalidate'>;
  store: Pick<ModelWriteStore, 'applyImport' | 'planLabels' | 'getRecord'>;
}

export interface ImportOptions {
  nowMs: number;
  /**
   * The idempotency record's key and the request's hash (the same key with another body is a conflict). A key made
   * from the model generation the examples are written in (the admin import's) changes with a reset in between.
   */
  idempotency?: {
    pk: string | ((generation: number) => string);
    requestHash: string;
    /** Whether a stored record's hash is this request's (default: the same `requestHash`). */
    sameRequest?: (stored: unknown) => boolean;
  };
  /** Writes an example's problems for the caller (the HTTP route: as paths into its body); as they are by default. */
  itemDetails?: (index: number, details: ErrorDetail[]) => ErrorDetail[];
  /** The audit event for this import (its counts), written in the transaction that records it. */
  audit?: (counts: { examples: number; learned: number; labels: number }) => AuditEntry | undefined;
}

/**
 * ImportOptions.audit for an import by `actor` into `target`: the `model.import` event with the import's counts, at
 * the time `at` gives when the import is recorded.
 */
export const importAudit =
  (actor: string, target: AuditTarget, at: () => Date): NonNullable<ImportOptions['audit']> =>
  (counts) => ({ event: { actor, action: 'model.import', target, before: null, after: counts }, at: at() });

/** An example that passed validation: the signal's text fields and the labels it teaches. */
export interface ValidExample {
  signal: { subject?: string; body?: string; sender?: string };
  labels: FeedbackFields;
  /** Its place in the import. */
  index?: number;
}

/**
 * The answer with every example that names a new label past a field's MAX_LABELS refused (it teaches nothing; docs/
 * partners.md, "Importing your history, and forgetting it"), and the examples left to teach.
 */
function withinLimits(
  answer: ImportAnswer,
  valid: ValidExample[],
  allowed: AllowedLabels,
  itemDetails: NonNullable<ImportOptions['itemDetails']>,
) {
  const data = [...answer.data];
  const kept = valid.filter((example) => {
    const named = Object.entries(example.labels) as [LearnedField, string][];
    const past = named.find(([field, label]) => pastLimit(allowed, field, label));
    if (!past) return true;
    const message = LABEL_LIMIT_MESSAGE;
    if (example.index !== undefined)
      data[example.index] = {
        index: example.index,
        error: {
          code: 'VALIDATION_ERROR',
          message,
          details: itemDetails(example.index, [{ field: `labels.${past[0]}`, message }]),
        },
      };
    return false;
  });
  return { answer: { ...answer, learned: kept.length, data }, kept };
}

/** Teaches the valid examples; `answer` is what the import answers (one item per example, valid or not). */
export async function learnExamples(
  validated: ImportAnswer,
  valid: ValidExample[],
  deps: ImportDeps,
  options: ImportOptions,
): Promise<ImportOutcome> {
  const workspaceId = validated.workspace_id;
  const idem = options.idempotency;
  const isSameRequest = (stored: unknown) =>
    idem?.sameRequest ? idem.sameRequest(stored) : stored === idem?.requestHash;
  /** The answer of an import that landed with this key: its own again, or a conflict when its body was another. */
  const asRecorded = (item: Record<string, unknown>): ImportOutcome =>
    item.kind !== 'import' || !isSameRequest(item.request_hash)
      ? { kind: 'conflict' }
      : { kind: 'replayed', answer: JSON.parse(String(item.answer)) as ImportAnswer };
  // A reset landing in between makes the import sketch again for the new generation, after the policy's wait.
  const attempt = async (): Promise<ImportOutcome | typeof AGAIN> => {
    const workspace = await deps.workspaces.get(workspaceId);
    const generation = workspace.state.generation ?? 0;
    const key = options.idempotency;
    const pk = key && (typeof key.pk === 'string' ? key.pk : key.pk(generation));
    // Before any label takes a place (the labels' sets are written as they are admitted): a replay or a conflict
    // changes nothing.
    const earlier = pk === undefined ? undefined : await deps.store.getRecord(pk, options.nowMs);
    if (earlier) return asRecorded(earlier);
    // Labels are admitted in the examples' order; one admitted for an example refused for another field's label
    // stays learned without counts (it takes a place, as a label whose counts moved away does).
    const named = valid.flatMap((example) => Object.entries(example.labels) as [LearnedField, string][]);
    // Read, not written: the import's transaction writes them, so an import that loses its Idempotency-Key to another
    // body, or is reset, takes no label place.
    const allowed = await allowedLabels(named, workspaceId, workspace, deps.store);
    const { changes } = allowed;
    const { answer, kept } = withinLimits(validated, valid, allowed, options.itemDetails ?? ((_, details) => details));
    const deltas = labelDeltas(kept.map((v) => ({ sketch: sketchSignal(workspace.key, v.signal), labels: v.labels })));
    // An import that changes nothing writes nothing but its Idempotency-Key's answer: no entry, no audit event
    // (docs/operations.md, "Audit log": a command that changes nothing writes no event).
    const changesModel = kept.length > 0 || changes.length > 0;
    if (!changesModel && !(key && pk !== undefined)) return { kind: 'imported', answer };
    const result = await deps.store.applyImport({
      workspaceId,
      generation,
      deltas,
      record:
        key && pk !== undefined
          ? { pk, item: { kind: 'import', request_hash: key.requestHash, answer: JSON.stringify(answer) } }
          : undefined,
      audit: changesModel
        ? options.audit?.({ examples: answer.data.length, learned: kept.length, labels: deltas.length })
        : undefined,
      labels: changes,
      nowMs: options.nowMs,
    });
    if (result.kind === 'recorded') return asRecorded(result.item);
    if (result.kind === 'applied') {
      // This container decides with what was just imported at once; others within WORKSPACE_CACHE_TTL_SECONDS.
      deps.workspaces.update(workspaceId, (cached) => applyOwnEntry(cached.state, result));
      return { kind: 'imported', answer };
    }
    // Another request added labels since they were read: read them again. A reset landed in between: sketch again
    // for the new generation.
    if (result.kind === 'generation_changed') deps.workspaces.invalidate(workspaceId);
    return AGAIN;
  };
  try {
    // Again after a reset (rare) or another request's new labels in a set this import adds to: contention on one item.
    return await retrying('import', attempt, CONTENTION_RETRY);
  } catch (err) {
    if (!(err instanceof RetriesExhausted)) throw err;
    throw new ModelBusyError(new Error('the model was reset, or its labels changed, repeatedly during the import'));
  }
}
