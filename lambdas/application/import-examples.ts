// The import use case (docs/partners.md, Learning): the valid examples, sketched with the workspace's key and summed
// into one delta per label, written as one journal entry (lambdas/stores/model-write-store.ts). An example teaches
// exactly what a decision on its signal followed by that feedback would: the same sketch, the same label counts. No
// decision is made or stored and no text is kept.
import type { ErrorDetail } from '../contract/errors';
import { type LabelDelta, labelDeltas } from '../domain/learning/label-delta';
import { applyOwn } from '../domain/learning/journal';
import { MAX_LABELS, applyDeltas } from '../domain/learning/model';
import { type Sketch, sketchSignal } from '../domain/learning/sketch';
import type { CachedWorkspace, WorkspaceCache } from '../domain/learning/workspace-cache';
import type { AuditEntry, ModelWriteStore } from '../domain/learning/model-writes';
import { type FeedbackFields, ModelBusyError } from '../domain/ports';
import { AGAIN, type RetryPolicy, RetriesExhausted, retrying } from '../domain/retry';
import { afterModelWrites } from './model-write-queue';

/** Resets during one import are rare: three attempts, as before, now with a wait between them. */
const RESET_RETRY: RetryPolicy = { attempts: 3, baseMs: 10, capMs: 40, budgetMs: 2_000 };

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
  workspaces: Pick<WorkspaceCache, 'get' | 'peek' | 'invalidate'>;
  store: Pick<ModelWriteStore, 'applyImport'>;
}

export interface ImportOptions {
  nowMs: number;
  /** The idempotency record's key and the request's hash (the same key with another body is a conflict). */
  idempotency?: { pk: string; requestHash: string };
  /** The audit event for this import (its counts), written in the transaction that records it. */
  audit?: (counts: { examples: number; learned: number; labels: number }) => AuditEntry | undefined;
}

/** An example that passed validation: the signal's text fields and the labels it teaches. */
export interface ValidExample {
  signal: { subject?: string; body?: string; sender?: string };
  labels: FeedbackFields;
}

/** The labels an example teaches: all it names, except new ones beyond the workspace's MAX_LABELS. */
function teachable(labels: FeedbackFields, known: Set<string>): FeedbackFields {
  const out: FeedbackFields = {};
  for (const [field, label] of Object.entries(labels) as [keyof FeedbackFields, string][]) {
    const id = `${field}:${label}`;
    if (known.has(id) || known.size < MAX_LABELS) {
      known.add(id);
      out[field] = label;
    }
  }
  return out;
}

function teach(workspace: CachedWorkspace, valid: ValidExample[]): LabelDelta[] {
  const known = new Set(workspace.state.model.labels.map((l) => `${l.field}:${l.label}`));
  const taught: { sketch: Sketch; labels: FeedbackFields }[] = valid.map((v) => ({
    sketch: sketchSignal(workspace.key, v.signal),
    labels: teachable(v.labels, known),
  }));
  return labelDeltas(taught);
}

/** Teaches the valid examples; `answer` is what the import answers (one item per example, valid or not). */
export function learnExamples(
  answer: ImportAnswer,
  valid: ValidExample[],
  deps: ImportDeps,
  options: ImportOptions,
): Promise<ImportOutcome> {
  return afterModelWrites(answer.workspace_id, () => learnNow(answer, valid, deps, options));
}

async function learnNow(
  answer: ImportAnswer,
  valid: ValidExample[],
  deps: ImportDeps,
  options: ImportOptions,
): Promise<ImportOutcome> {
  const workspaceId = answer.workspace_id;
  // A reset landing in between makes the import sketch again for the new generation, after the policy's wait.
  const attempt = async (): Promise<ImportOutcome | typeof AGAIN> => {
    const workspace = await deps.workspaces.get(workspaceId);
    const generation = workspace.state.generation ?? 0;
    const deltas = teach(workspace, valid);
    const result = await deps.store.applyImport({
      workspaceId,
      generation,
      deltas,
      examples: valid.length,
      record: options.idempotency && {
        pk: options.idempotency.pk,
        item: { kind: 'import', request_hash: options.idempotency.requestHash, answer: JSON.stringify(answer) },
      },
      audit: options.audit?.({ examples: answer.data.length, learned: valid.length, labels: deltas.length }),
      nowMs: options.nowMs,
    });
    if (result.kind === 'recorded') {
      const item = result.item;
      if (item.kind !== 'import' || item.request_hash !== options.idempotency?.requestHash) return { kind: 'conflict' };
      return { kind: 'replayed', answer: JSON.parse(String(item.answer)) as ImportAnswer };
    }
    if (result.kind === 'applied') {
      // This container decides with what was just imported at once; others within WORKSPACE_CACHE_TTL_SECONDS.
      const cached = deps.workspaces.peek(workspaceId);
      if (cached && (cached.state.generation ?? 0) === generation) {
        // Its journal entry is marked applied, so the next check does not apply it twice.
        const journal = result.journal;
        if (journal && cached.state.journal && journal.generation === generation)
          applyOwn(cached.state.model, cached.state.journal, { seq: journal.seq, changes: [], deltas });
        else applyDeltas(cached.state.model, deltas);
      }
      return { kind: 'imported', answer };
    }
    // A reset landed in between: sketch again for the new generation.
    deps.workspaces.invalidate(workspaceId);
    return AGAIN;
  };
  try {
    return await retrying('import', attempt, RESET_RETRY);
  } catch (err) {
    if (!(err instanceof RetriesExhausted)) throw err;
    throw new ModelBusyError(new Error('the model was reset repeatedly during the import'));
  }
}
