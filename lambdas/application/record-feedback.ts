// The feedback use case: record what a decision should have been (replacing earlier feedback) and move the decision's
// counts in its workspace's model to the new labels, unless the workspace's policy turned learning off. A workspace
// learns at most MAX_LABELS labels per field; feedback naming a new label past that is refused, as an import's example
// is (docs/partners.md, "Importing your history, and forgetting it").
import { type LearnedField, MAX_LABELS } from '../domain/learning/model';
import type { LabelAdmission, LabelPlan, LabelRecorder, LabelSetChange } from '../domain/learning/model-writes';
import type { CachedWorkspace } from '../domain/learning/workspace-cache';
import type { FeedbackFields, FeedbackRecorded, FeedbackStore, FeedbackTarget } from '../domain/ports';
import { AGAIN, RetriesExhausted, retrying } from '../domain/retry';

type FeedbackOutcome =
  | ({ kind: 'recorded'; target: FeedbackTarget; learned: FeedbackFields } & FeedbackRecorded)
  | { kind: 'busy' }
  | { kind: 'past_limit'; fields: LearnedField[] };

export const LABEL_LIMIT_MESSAGE = `a workspace learns at most ${MAX_LABELS} labels per field; this one would be one more`;

/** How many labels of each field the model holds. */
function labelsPerField(workspace: CachedWorkspace): Map<LearnedField, Set<string>> {
  const out = new Map<LearnedField, Set<string>>();
  for (const l of workspace.state.model.labels) {
    if (!out.has(l.field)) out.set(l.field, new Set());
    out.get(l.field)!.add(l.label);
  }
  return out;
}

/**
 * The labels a workspace may learn: those its cached model holds, and of the others named, those the store admits
 * within MAX_LABELS. The store decides across every container and request at once; a cached model may be
 * WORKSPACE_CACHE_TTL_SECONDS old, and requests run side by side. `changes` record the admitted new labels.
 */
export interface AllowedLabels {
  known: Map<LearnedField, Set<string>>;
  admitted: Map<LearnedField, Set<string>>;
  changes: LabelSetChange[];
}

/**
 * The labels `named` the workspace may learn, each field's label set read once. With a `recorder` (feedback), they
 * are recorded too, field by field, only when every field's are admitted: one field past the limit refuses the whole
 * feedback, so no field takes a place for it. A set another request filled between the read and the write is read
 * again; the fields recorded before it keep their places (docs/learning.md), the fields after it take none.
 */
export async function allowedLabels(
  named: Iterable<[LearnedField, string]>,
  workspaceId: string,
  workspace: CachedWorkspace,
  store: LabelAdmission,
  recorder?: LabelRecorder,
): Promise<AllowedLabels> {
  const known = labelsPerField(workspace);
  const wanted = new Map<LearnedField, string[]>();
  for (const [field, label] of named) {
    if (!known.get(field)?.has(label)) wanted.set(field, [...(wanted.get(field) ?? []), label]);
  }
  const generation = workspace.state.generation ?? 0;
  const plan = (field: LearnedField) =>
    store.planLabels(workspaceId, generation, field, known.get(field) ?? new Set(), wanted.get(field)!);
  const plans = new Map<LearnedField, LabelPlan>();
  for (const field of wanted.keys()) plans.set(field, await plan(field));
  const admitted = new Map([...plans].map(([field, p]) => [field, p.admitted] as const));
  const changes = [...plans.values()].flatMap((p) => (p.change ? [p.change] : []));
  const allAdmitted = [...wanted].every(([field, labels]) => labels.every((l) => admitted.get(field)!.has(l)));
  if (!recorder || !allAdmitted) return { known, admitted, changes };
  for (const [field, first] of plans) {
    let current = first;
    const recorded = await retrying('label set', async () => {
      if (!current.change || (await recorder.recordLabels(workspaceId, current.change))) return current;
      current = await plan(field);
      return AGAIN;
    });
    admitted.set(field, recorded.admitted);
    // Filled meanwhile by another request: the feedback will be refused, so the fields after this take no place.
    if (wanted.get(field)!.some((l) => !recorded.admitted.has(l))) break;
  }
  return { known, admitted, changes: [] };
}

/** Whether `label` would be a new label of `field` past MAX_LABELS. */
export const pastLimit = (allowed: AllowedLabels, field: LearnedField, label: string): boolean =>
  !allowed.known.get(field)?.has(label) && !allowed.admitted.get(field)?.has(label);

/**
 * The labels a decision counts in the model after this feedback, `allowed` being the labels it may learn. A label
 * past the limit was refused before the first attempt; one a retry meets (another feedback changed the decision
 * meanwhile) is left out, not refused.
 */
function labelsToLearn(fields: FeedbackFields, previous: FeedbackFields, allowed: AllowedLabels): FeedbackFields {
  const out: FeedbackFields = {};
  for (const [field, label] of Object.entries(fields) as [LearnedField, string][]) {
    if (previous[field] === label || !pastLimit(allowed, field, label)) out[field] = label;
  }
  return out;
}

export async function recordFeedback(
  first: FeedbackTarget,
  fields: FeedbackFields,
  store: FeedbackStore,
  workspace: CachedWorkspace,
  createdAt: string,
): Promise<FeedbackOutcome> {
  const generation = workspace.state.generation ?? 0;
  // A decision counted before a reset (DELETE .../model) counts nothing in the new generation: its feedback teaches
  // the new model only what it says (docs/partners.md, "Importing your history, and forgetting it").
  const current = (t: FeedbackTarget): FeedbackTarget =>
    t.learnedGeneration === generation ? t : { ...t, learned: {} };
  // A decision counted in a newer generation than the workspace read: a forget landed since, and this feedback would
  // be written in the old one, marking the decision as counted there (its newer count then never taken back).
  const newer = (t: FeedbackTarget) => t.learnedGeneration > generation;
  if (newer(first)) return { kind: 'busy' };
  let target = current(first);
  const named = (Object.entries(fields) as [LearnedField, string][]).filter(
    ([field, label]) => target.learned[field] !== label,
  );
  const allowed = await allowedLabels(named, first.decision.workspace_id, workspace, store, store);
  const past = named.filter(([field, label]) => pastLimit(allowed, field, label));
  if (past.length) return { kind: 'past_limit', fields: past.map(([field]) => field) };
  // Concurrent feedback on one decision: the loser re-reads the decision's target after the retry policy's wait.
  const busy = { kind: 'busy' } as const;
  try {
    return await retrying<FeedbackOutcome>('feedback', async (attempt) => {
      if (attempt > 0) {
        const next = await store.getTarget(first.decision.decision_id);
        if (!next || newer(next)) return busy;
        target = current(next);
      }
      const learned = labelsToLearn(fields, target.learned, allowed);
      const recorded = await store.record(target, fields, learned, createdAt, generation);
      return recorded ? { kind: 'recorded', target, learned, ...recorded } : AGAIN;
    });
  } catch (err) {
    if (err instanceof RetriesExhausted) return busy;
    throw err;
  }
}
