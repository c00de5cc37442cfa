// The feedback body (docs/partners.md, "Feedback: teach your workspace"): at least one of priority, recommended_action
// (documented values), category and queue (documented or the workspace's own names). Unknown fields are refused.
import * as v from 'valibot';
import { type Validated, validateBody } from './body-validation';
import { ACTIONS, PRIORITIES } from '../domain/decision';
import { NAME_PATTERN } from '../domain/policy';
import type { FeedbackFields } from '../domain/ports';

const name = v.pipe(v.string('must be a string'), v.regex(NAME_PATTERN, 'must match ^[a-z][a-z0-9_]{0,63}$'));

const FeedbackSchema = v.pipe(
  v.strictObject(
    {
      priority: v.optional(v.picklist(PRIORITIES, `must be one of ${PRIORITIES.join(', ')}`)),
      recommended_action: v.optional(v.picklist(ACTIONS, `must be one of ${ACTIONS.join(', ')}`)),
      category: v.optional(name),
      queue: v.optional(name),
    },
    'is not a field of feedback',
  ),
  v.check(
    (f) =>
      f.priority !== undefined ||
      f.recommended_action !== undefined ||
      f.category !== undefined ||
      f.queue !== undefined,
    'must give at least one of priority, recommended_action, category, queue',
  ),
);

export function validateFeedback(input: unknown): Validated<{ fields: FeedbackFields }> {
  const result = validateBody(FeedbackSchema, input);
  if (!result.ok) return result;
  // In the contract's order, only the fields given.
  const out: FeedbackFields = {};
  for (const field of ['priority', 'recommended_action', 'category', 'queue'] as const) {
    if (result.output[field] !== undefined) out[field] = result.output[field];
  }
  return { ok: true, fields: out };
}
