// Validating an import's examples (docs/partners.md, Learning): each example on its own, every problem at once; the
// valid ones are taught by the application's use case (lambdas/application/import-examples.ts). The admin CLI's
// `workspace import` runs the same function.
import { validateSignal } from '../http/signal-schema';
import {
  type ImportAnswer,
  type ImportDeps,
  type ImportItem,
  type ImportOptions,
  type ImportOutcome,
  type ValidExample,
  learnExamples,
} from '../application/import-examples';
import { validateFeedback } from '../http/feedback-schema';
import { type ErrorDetail } from '../http/errors';
import { boundedItemError } from '../contract/errors';
import { jsonPath } from '../domain/json-walk';
import { MISSING_FIELD_MESSAGE, type Validated, detailsUnder, withDetailInPlace } from '../http/body-validation';

const EXAMPLE_FIELDS = new Set(['signal', 'labels']);

/** The example's signal checked, its problems added to `details`; undefined when it is not one to check. */
function checkSignal(given: unknown, workspaceId: string, nowMs: number, details: ErrorDetail[]) {
  if (given === null || typeof given !== 'object' || Array.isArray(given)) {
    details.push({ field: 'signal', message: 'must be a JSON object' });
    return undefined;
  }
  const fields = given as Record<string, unknown>;
  // The rest of the signal is checked as the path's workspace's, so a wrong workspace_id hides no other problem.
  const signal = validateSignal({ ...fields, workspace_id: workspaceId }, nowMs);
  let problems = signal.ok ? [] : signal.details;
  if (fields.workspace_id !== undefined && fields.workspace_id !== workspaceId)
    problems = withDetailInPlace(fields, problems, {
      field: 'workspace_id',
      message: "must be the path's workspace_id or left out",
    });
  details.push(...detailsUnder('signal', problems));
  return signal;
}

/** One example's signal and labels, or what is wrong with it (every problem at once). */
export function validateExample(raw: unknown, workspaceId: string, nowMs: number): Validated<ValidExample> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { ok: false, details: [{ field: '(example)', message: 'must be an object with signal and labels' }] };
  }
  const details: ErrorDetail[] = [];
  const example = raw as Record<string, unknown>;
  let signal: ReturnType<typeof validateSignal> | undefined;
  let labels: ReturnType<typeof validateFeedback> | undefined;
  // In document order (docs/partners.md, "Errors"): each key's problems where the example holds it, then what it lacks.
  for (const key of Object.keys(example)) {
    if (example[key] === undefined) continue; // as if absent (an object made in code, not JSON)
    if (key === 'signal') signal = checkSignal(example.signal, workspaceId, nowMs, details);
    else if (key === 'labels') {
      labels = validateFeedback(example.labels);
      if (!labels.ok) details.push(...detailsUnder('labels', labels.details));
    } else details.push({ field: jsonPath([key]), message: 'is not a field of an example' });
  }
  for (const key of EXAMPLE_FIELDS)
    if (example[key] === undefined) details.push({ field: key, message: MISSING_FIELD_MESSAGE });
  if (details.length || !signal?.ok || !labels?.ok) return { ok: false, details };
  return { ok: true, signal: signal.signal, labels: labels.fields };
}

/**
 * `checkItem` lets the HTTP route write each example's problems as paths into its body (`examples[3].signal.source`)
 * with the forbidden keys the example held; the admin CLI's errors name the file's line instead.
 */
export async function importExamples(
  workspaceId: string,
  examples: unknown[],
  deps: ImportDeps,
  options: ImportOptions & {
    checkItem?: (index: number, checked: Validated<ValidExample>) => Validated<ValidExample>;
  },
): Promise<ImportOutcome> {
  const data: ImportItem[] = [];
  const valid: ValidExample[] = [];
  const checkItem = options.checkItem ?? ((_index, checked) => checked);
  examples.forEach((raw, index) => {
    const v = checkItem(index, validateExample(raw, workspaceId, options.nowMs));
    if (v.ok) {
      valid.push({ ...v, index });
      data.push({ index, status: 'learned' });
    } else
      data.push({
        index,
        error: boundedItemError('VALIDATION_ERROR', 'This example is not valid.', v.details),
      });
  });
  const answer: ImportAnswer = { object: 'list', workspace_id: workspaceId, learned: valid.length, data };
  return learnExamples(answer, valid, deps, options);
}
