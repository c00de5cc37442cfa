// The checks of what an operator gives the admin commands (ids, grants, scopes, rate limits, dates): each answers the
// value to use, or throws AdminInputError with a message the CLI prints before it exits non-zero.
import { parseRfc3339 } from '../../lambdas/domain/timestamps';
import { holdsApiKey, looksLikeApiKey } from '../../lambdas/domain/api-key';
import { SCOPES, type Scope } from '../../lambdas/contract/routes';
import { MAX_PREFIX_GRANTS, WORKSPACE_ID_PATTERN, grantProblem, isPrefixGrant } from '../../lambdas/domain/grants';
import { PARTNER_STATUSES, type PartnerStatus } from '../../lambdas/domain/ports';
import { type RateLimit, parseRateLimit } from '../../lambdas/domain/rate-limit';

/** Bad input from the operator: the CLI prints the message and exits non-zero. */
export class AdminInputError extends Error {
  override readonly name = 'AdminInputError';
}

/**
 * A key's secret pasted where an id belongs: refused without repeating it (the message would print it on the terminal
 * and in a script's log), before the audit log would refuse it in its own words ("target.partner_id holds an API key").
 */
export function refuseApiKey(what: string, value: string, holds: (text: string) => boolean = holdsApiKey): void {
  if (holds(value)) throw new AdminInputError(`${what} holds an API key: give an id, not a secret`);
}

/**
 * A new id or grant is refused also for part of a key (looksLikeApiKey): it would be stored and printed. An id given
 * to find what exists is checked for a whole key only, so one stored before keeps working.
 */
export const refuseKeyLike = (what: string, value: string): void => refuseApiKey(what, value, looksLikeApiKey);

export function assertWorkspace(ws: string | undefined): string {
  if (ws) refuseApiKey('--workspace', ws);
  if (!ws || !WORKSPACE_ID_PATTERN.test(ws))
    throw new AdminInputError('--workspace must be 1 to 128 characters of A-Z a-z 0-9 . _ : -');
  return ws;
}

const PARTNER_ID_PATTERN = /^[A-Za-z0-9._:-]{1,64}$/;

export function assertPartnerId(id: string): string {
  refuseApiKey('the partner id', id);
  if (!PARTNER_ID_PATTERN.test(id))
    throw new AdminInputError(`bad partner id "${id}": 1 to 64 characters of A-Z a-z 0-9 . _ : -`);
  return id;
}
/**
 * Not a partner id: the admin CLI's imports keep their Idempotency-Key records under it (workspace-import.ts), where a
 * partner's records are under its own id, so a partner named so could block an operator's import.
 */
export const ADMIN_IMPORT_NAMESPACE = 'admin';

export function assertPartnerStatus(status: string): PartnerStatus {
  if (!(PARTNER_STATUSES as readonly string[]).includes(status)) {
    throw new AdminInputError(`bad status "${status}": use one of ${PARTNER_STATUSES.join(', ')}`);
  }
  return status as PartnerStatus;
}

/** Workspace ids and prefix grants (`acme:*`), checked and without repeats. */
export function assertGrants(grants: string[]): string[] {
  if (grants.length === 0) throw new AdminInputError('give at least one --workspace (or --workspaces-file)');
  for (const grant of grants) {
    refuseKeyLike('--workspace', grant);
    const problem = grantProblem(grant);
    if (problem) throw new AdminInputError(problem);
  }
  const unique = [...new Set(grants)];
  if (unique.filter(isPrefixGrant).length > MAX_PREFIX_GRANTS) {
    throw new AdminInputError(`a key holds at most ${MAX_PREFIX_GRANTS} prefix grants`);
  }
  return unique;
}

export function assertScopes(scopes: string[] | undefined): Scope[] {
  if (!scopes?.length) return [...SCOPES];
  for (const scope of scopes) {
    if (!(SCOPES as readonly string[]).includes(scope))
      throw new AdminInputError(`bad scope "${scope}": use ${SCOPES.join(', ')}`);
  }
  return SCOPES.filter((s) => scopes.includes(s));
}

export function assertRateLimit(text: string): RateLimit {
  const rate = parseRateLimit(text);
  if (!rate)
    throw new AdminInputError(
      `bad rate limit "${text}": use <n>/s, <n>/m or <n>/h with n from 1 to 1000000000, e.g. 600/m`,
    );
  return rate;
}

/**
 * A whole-number option, written in digits (no sign, point or exponent) and from min to max; else AdminInputError
 * with the caller's message, which names the option and its range.
 */
export function assertWholeNumber(text: string, message: string, min = 0, max = Infinity): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || !(value >= min && value <= max)) throw new AdminInputError(message);
  return value;
}

/** A date the operator gave (ISO 8601 with Z or an offset), as epoch milliseconds. */
export function assertDate(text: string): number {
  const ms = parseRfc3339(text);
  if (ms === undefined)
    throw new AdminInputError(
      `malformed date "${text}": give a date and time with Z or an offset, e.g. 2027-01-31T00:00:00Z`,
    );
  return ms;
}
