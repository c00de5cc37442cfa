// GET /decisions query parameters, checked strictly (docs/partners.md, Listing decisions). API Gateway joins a repeated parameter
// with commas, so `limit=1&limit=2` arrives as "1,2" and is refused like any other bad value, its message saying so
// (no value of a parameter but `priority` holds a comma).
import { WORKSPACE_ID_PATTERN } from '../domain/grants';
import { parseRfc3339, rfc3339Problem } from '../domain/timestamps';
import { PRIORITIES, type Priority } from '../domain/decision';
import { DECISION_ID_PATTERN } from '../domain/ids';
import type { ErrorDetail } from '../http/errors';
import type { Validated } from '../http/body-validation';
import { withoutApiKeys } from '../domain/api-key';

const LIST_LIMIT = { default: 20, max: 100 } as const;
const KNOWN = new Set(['workspace_id', 'limit', 'starting_after', 'priority', 'created_after', 'created_before']);

interface ListQuery {
  limit: number;
  startingAfter?: string;
  priorities?: Priority[];
  createdAfterMs?: number;
  createdBeforeMs?: number;
}

/** A bad value's message, and why it may have a comma: the parameter was given more than once. */
const refused = (value: string, message: string) =>
  value.includes(',') ? `${message} (given more than once, it arrives joined with commas)` : message;

/** First step of the refusal order: the workspace, or the detail saying why it is missing or malformed. */
export function workspaceParameter(params: Record<string, string>): { workspaceId: string } | { detail: ErrorDetail } {
  const value = params.workspace_id;
  if (value === undefined || value === '') return { detail: { field: 'workspace_id', message: 'is required' } };
  if (!WORKSPACE_ID_PATTERN.test(value)) {
    const message = refused(value, 'must be 1 to 128 characters of A-Z a-z 0-9 . _ : -');
    return { detail: { field: 'workspace_id', message } };
  }
  return { workspaceId: value };
}

/** A space where a timestamp's offset sign belongs read as `+`: a query string decodes an unescaped `+` as a space. */
const plusOffset = (value: string) => value.replace(/(\d) (\d{2}:\d{2})$/, '$1+$2');

/**
 * An exclusive time bound in epoch ms: the whole ms, plus a half when the value lies inside that ms (digits past the
 * third of the fraction). created_at is whole ms, so only which side of the ms the bound lies on matters, and a half
 * stays exact where the fraction itself, added to an epoch of 1.8e12 ms, would round onto the ms (`...31.134000001Z`
 * read as `...31.134Z` left that decision out of created_before).
 */
function timeParameter(text: string): number | undefined {
  const ms = parseRfc3339(text);
  if (ms === undefined) return undefined;
  const beyondMs = /\.\d{3}(\d+)/.exec(text)?.[1] ?? '';
  return /[1-9]/.test(beyondMs) ? ms + 0.5 : ms;
}

/** The other parameters, after the workspace check. */
export function listQuery(params: Record<string, string>): Validated<{ query: ListQuery }> {
  const details: ErrorDetail[] = [];
  for (const name of Object.keys(params)) {
    // An API key pasted as a parameter's name is not repeated (docs/partners.md, "Errors").
    if (!KNOWN.has(name))
      details.push({ field: withoutApiKeys(name), message: 'is not a parameter of this operation' });
  }
  const query: ListQuery = { limit: LIST_LIMIT.default };
  if (params.limit !== undefined) {
    const n = /^[0-9]{1,3}$/.test(params.limit) ? Number(params.limit) : NaN;
    if (!(n >= 1 && n <= LIST_LIMIT.max))
      details.push({ field: 'limit', message: refused(params.limit, 'must be an integer from 1 to 100') });
    else query.limit = n;
  }
  if (params.starting_after !== undefined) {
    if (!DECISION_ID_PATTERN.test(params.starting_after)) {
      const message = refused(params.starting_after, 'must be the decision_id of a decision of this workspace');
      details.push({ field: 'starting_after', message });
    } else query.startingAfter = params.starting_after;
  }
  if (params.priority !== undefined) {
    const values = params.priority.split(',');
    if (values.some((p) => !(PRIORITIES as readonly string[]).includes(p))) {
      details.push({ field: 'priority', message: `must be one or more of ${PRIORITIES.join(', ')}, comma-separated` });
    } else query.priorities = [...new Set(values)] as Priority[];
  }
  for (const [name, key] of [
    ['created_after', 'createdAfterMs'],
    ['created_before', 'createdBeforeMs'],
  ] as const) {
    if (params[name] === undefined) continue;
    const text = plusOffset(params[name]);
    const ms = timeParameter(text);
    if (ms === undefined) details.push({ field: name, message: refused(params[name], rfc3339Problem(text)) });
    else query[key] = ms;
  }
  return details.length ? { ok: false, details } : { ok: true, query };
}
