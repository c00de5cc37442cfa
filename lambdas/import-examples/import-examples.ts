// The import use case (contract section 13): each example validated on its own, sketched with the workspace's key
// and summed into one delta per label, then written in a few transactions (lambdas/stores/model-write-store.ts).
// An example teaches exactly what a decision on its signal followed by that feedback would: the same sketch, the
// same label counts. No decision is made or stored and no text is kept. The admin CLI's `workspace import` runs
// the same function.
import { validateSignal } from '../analyze/signal-schema';
import { validateFeedback } from '../feedback/feedback-schema';
import { MAX_LABELS } from '../feedback/record-feedback';
import { type LabelDelta, labelDeltas } from '../domain/learning/label-delta';
import { applyDeltas } from '../domain/learning/model';
import { type Sketch, sketchSignal } from '../domain/learning/sketch';
import type { CachedWorkspace, WorkspaceCache } from '../domain/learning/workspace-cache';
import { type FeedbackFields, ModelBusyError } from '../domain/ports';
import type { ErrorDetail } from '../http/errors';
import type { DynamoModelWriteStore, TransactItem } from '../stores/model-write-store';

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
  store: Pick<DynamoModelWriteStore, 'applyImport'>;
}

export interface ImportOptions {
  nowMs: number;
  /** The idempotency record's key and the request's hash (the same key with another body is a conflict). */
  idempotency?: { pk: string; requestHash: string };
  /** The audit event for this import (its counts), written in the transaction that records it. */
  audit?: (counts: { examples: number; learned: number; labels: number }) => TransactItem | undefined;
}

const EXAMPLE_FIELDS = new Set(['signal', 'labels']);
const prefixed = (prefix: string, details: ErrorDetail[]) =>
  details.map((d) => ({ ...d, field: `${prefix}.${d.field}` }));

/** One example's signal and labels, or what is wrong with it (every problem at once). */
export function validateExample(
  raw: unknown,
  workspaceId: string,
  nowMs: number,
):
  | { ok: true; signal: { subject?: string; body?: string; sender?: string }; labels: FeedbackFields }
  | { ok: false; details: ErrorDetail[] } {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { ok: false, details: [{ field: '(example)', message: 'must be an object with signal and labels' }] };
  }
  const details: ErrorDetail[] = [];
  const example = raw as Record<string, unknown>;
  for (const key of Object.keys(example))
    if (!EXAMPLE_FIELDS.has(key)) details.push({ field: key, message: 'is not a field of an example' });
  let signal: ReturnType<typeof validateSignal> | undefined;
  if (example.signal === undefined) details.push({ field: 'signal', message: 'is required' });
  else if (example.signal === null || typeof example.signal !== 'object' || Array.isArray(example.signal)) {
    details.push({ field: 'signal', message: 'must be an object' });
  } else {
    const given = example.signal as Record<string, unknown>;
    if (given.workspace_id !== undefined && given.workspace_id !== workspaceId) {
      details.push({ field: 'signal.workspace_id', message: "must be the path's workspace_id or left out" });
    } else {
      signal = validateSignal({ ...given, workspace_id: workspaceId }, nowMs);
      if (!signal.ok) details.push(...prefixed('signal', signal.details));
    }
  }
  let labels: ReturnType<typeof validateFeedback> | undefined;
  if (example.labels === undefined) details.push({ field: 'labels', message: 'is required' });
  else {
    labels = validateFeedback(example.labels);
    if (!labels.ok) details.push(...prefixed('labels', labels.details));
  }
  if (details.length || !signal?.ok || !labels?.ok) return { ok: false, details };
  return { ok: true, signal: signal.signal, labels: labels.fields };
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

function teach(
  workspace: CachedWorkspace,
  valid: { signal: { subject?: string; body?: string; sender?: string }; labels: FeedbackFields }[],
): LabelDelta[] {
  const known = new Set(workspace.state.model.labels.map((l) => `${l.field}:${l.label}`));
  const taught: { sketch: Sketch; labels: FeedbackFields }[] = valid.map((v) => ({
    sketch: sketchSignal(workspace.key, v.signal),
    labels: teachable(v.labels, known),
  }));
  return labelDeltas(taught);
}

export async function importExamples(
  workspaceId: string,
  examples: unknown[],
  deps: ImportDeps,
  options: ImportOptions,
): Promise<ImportOutcome> {
  const data: ImportItem[] = [];
  const valid: { signal: { subject?: string; body?: string; sender?: string }; labels: FeedbackFields }[] = [];
  examples.forEach((raw, index) => {
    const v = validateExample(raw, workspaceId, options.nowMs);
    if (v.ok) {
      valid.push(v);
      data.push({ index, status: 'learned' });
    } else
      data.push({
        index,
        error: { code: 'VALIDATION_ERROR', message: 'This example is not valid.', details: v.details },
      });
  });
  const answer: ImportAnswer = { object: 'list', workspace_id: workspaceId, learned: valid.length, data };
  for (let attempt = 0; attempt < 3; attempt++) {
    const workspace = await deps.workspaces.get(workspaceId);
    const generation = workspace.state.generation ?? 0;
    const deltas = teach(workspace, valid);
    const result = await deps.store.applyImport({
      workspaceId,
      generation,
      deltas,
      labels: deltas.map((d) => `${d.field}:${d.label}`),
      record: options.idempotency && {
        pk: options.idempotency.pk,
        item: { kind: 'import', request_hash: options.idempotency.requestHash, answer: JSON.stringify(answer) },
      },
      audit: options.audit?.({ examples: examples.length, learned: valid.length, labels: deltas.length }),
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
      if (cached && (cached.state.generation ?? 0) === generation) applyDeltas(cached.state.model, deltas);
      return { kind: 'imported', answer };
    }
    // A reset landed in between: sketch again for the new generation.
    deps.workspaces.invalidate(workspaceId);
  }
  throw new ModelBusyError(new Error('the model was reset repeatedly during the import'));
}
