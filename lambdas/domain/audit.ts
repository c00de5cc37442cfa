// Audit events (docs/operations.md, "Audit log"): what changed, who changed it, and the changed fields before and
// after. Pure code: the DynamoDB item is built in lambdas/stores/audit-log.ts, inside the transaction of the change it
// records.
import { holdsApiKey } from './api-key';
import { ulid, ulidIdPattern, ulidTime } from './ids';
import { canonicalJson } from './json-walk';

const AUDIT_ACTIONS = [
  'partner.create',
  'partner.set_status',
  'key.create',
  'key.revoke',
  'key.rotate',
  'key.grant',
  'key.ungrant',
  'key.set_rate_limit',
  'policy.put',
  'model.import',
  'model.forget',
] as const;
type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Events are kept this long (DynamoDB TTL deletes them after). */
export const AUDIT_RETENTION_DAYS = 400;

/** What changed. */
export interface AuditTarget {
  partner_id?: string;
  key_id?: string;
  workspace_id?: string;
}

export interface AuditEventInput {
  /** `key:<key_id>` (an API call), `local:<OS user>` (the admin CLI locally) or an AWS principal ARN (`--aws`). */
  actor: string;
  action: AuditAction;
  target: AuditTarget;
  /** The changed fields only, as they were; null when the thing did not exist. */
  before: Record<string, unknown> | null;
  /** The changed fields only, as they are now; null when the thing is gone. */
  after: Record<string, unknown> | null;
}

export interface AuditEvent extends AuditEventInput {
  /** `aud_<ULID>`: time-sortable, so id order is `at` order. */
  event_id: string;
  /** RFC 3339 UTC, milliseconds. */
  at: string;
}

export const newAuditEventId = (nowMs?: number): string => `aud_${ulid(nowMs)}`;
/** The lowest event id of any event at or after `ms` (ids sort as their times do). */
export const firstAuditEventIdAt = (ms: number): string =>
  `aud_${ulidTime(Math.max(0, Math.floor(ms)))}${'0'.repeat(16)}`;

/** `admin audit list`: every filter given must match; `keyId` matches the target's key or an actor `key:<keyId>`. */
export interface AuditQuery {
  sinceMs?: number;
  partnerId?: string;
  keyId?: string;
  workspaceId?: string;
  limit: number;
}
export const DEFAULT_AUDIT_LIST_LIMIT = 100;
export const MAX_AUDIT_LIST_LIMIT = 10_000;
export const AUDIT_EVENT_ID_PATTERN = ulidIdPattern('aud_');

export const actorForKey = (keyId: string) => `key:${keyId}`;
export const actorForLocalUser = (user: string) => `local:${user}`;

/** A field name that could carry a secret or signal text: a key, a hash, a token, a body. `key_id` is fine. */
const SECRET_NAME =
  /(^|_)(key|api_key|apikey|hash|key_hash|secret|password|token|authorization|text|body|subject|signal|signals|content)$/i;
const MAX_DEPTH = 8;
/** Room for a whole policy before and after (64 KiB each) under DynamoDB's 400 KB item limit. */
const MAX_AUDIT_EVENT_BYTES = 300_000;

/**
 * Why `input` must not be stored as an audit event, or undefined when it may be. Refuses field names that name a key,
 * a hash or text among the changed fields (`key_hash`, `api_key`, `text`, `body`, ...; `key_id` is fine), any string holding an API key, an
 * unknown action, a blank actor, and events too large or too deep to be a record of changed fields. Values are not
 * guessed at beyond that: a workspace id may legitimately be 64 hex digits.
 */
export function auditEventProblem(input: AuditEventInput): string | undefined {
  if (!(AUDIT_ACTIONS as readonly string[]).includes(input.action))
    return `unknown audit action "${String(input.action)}"`;
  if (typeof input.actor !== 'string' || !input.actor.trim()) return 'an audit event needs an actor';
  for (const [name, value] of Object.entries(input.target ?? {})) {
    if (!['partner_id', 'key_id', 'workspace_id'].includes(name)) return `target.${name} is not a target field`;
    if (value !== undefined && typeof value !== 'string') return `target.${name} must be a string`;
  }
  const size = Buffer.byteLength(JSON.stringify(input));
  if (size > MAX_AUDIT_EVENT_BYTES) return `audit event of ${size} bytes is over ${MAX_AUDIT_EVENT_BYTES}`;
  return (
    secretIn('actor', input.actor, 1) ??
    secretIn('target', input.target, 1) ??
    secretIn('before', input.before, 0) ??
    secretIn('after', input.after, 0)
  );
}

function secretIn(path: string, value: unknown, depth: number): string | undefined {
  if (depth > MAX_DEPTH) return `${path} is nested too deep for an audit event`;
  if (typeof value === 'string') return holdsApiKey(value) ? `${path} holds an API key` : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const problem = secretIn(`${path}[${i}]`, value[i], depth + 1);
      if (problem) return problem;
    }
    return undefined;
  }
  for (const [name, inner] of Object.entries(value)) {
    // The changed fields' own names; deeper names are data (a policy's routing maps category names, which are free).
    // A count (`signals: 100`) says nothing secret; a string, list or object under such a name might.
    const couldHoldText = typeof inner === 'string' || (inner !== null && typeof inner === 'object');
    if (depth === 0 && couldHoldText && SECRET_NAME.test(name))
      return `${path}.${name}: an audit event holds no key, key hash or text`;
    if (holdsApiKey(name)) return `${path} holds an API key`;
    const problem = secretIn(`${path}.${name}`, inner, depth + 1);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * The path to the first string or object key in `value` holding an API key (document order), if any, looked for as
 * deep as an audit event may nest (MAX_DEPTH): a body nested deeper is refused for that, and a walk to its bottom
 * would overflow the stack. `holds` says what counts: a whole key by default, or what reads as one (new text).
 */
export function apiKeyPath(
  value: unknown,
  path: (string | number)[] = [],
  holds: (text: string) => boolean = holdsApiKey,
): (string | number)[] | undefined {
  if (typeof value === 'string') return holds(value) ? path : undefined;
  if (value === null || typeof value !== 'object' || path.length > MAX_DEPTH) return undefined;
  const entries: [string | number, unknown][] = Array.isArray(value) ? [...value.entries()] : Object.entries(value);
  for (const [name, inner] of entries) {
    if (typeof name === 'string' && holds(name)) return [...path, name];
    const found = apiKeyPath(inner, [...path, name], holds);
    if (found) return found;
  }
  return undefined;
}

/** Thrown for an event that must not be stored: a programming error, never the caller's input. */
export class AuditEventError extends Error {
  override name = 'AuditEventError';
}

/** The event for `input` at `at`, checked. */
export function auditEvent(input: AuditEventInput, at: Date): AuditEvent {
  const problem = auditEventProblem(input);
  if (problem) throw new AuditEventError(problem);
  const target: AuditTarget = {};
  for (const name of ['partner_id', 'key_id', 'workspace_id'] as const)
    if (input.target[name] !== undefined) target[name] = input.target[name];
  return {
    event_id: newAuditEventId(at.getTime()),
    at: at.toISOString(),
    actor: input.actor,
    action: input.action,
    target,
    // Plain JSON data: no undefined fields (DynamoDB refuses them), no class instances.
    before: input.before === null ? null : (JSON.parse(JSON.stringify(input.before)) as Record<string, unknown>),
    after: input.after === null ? null : (JSON.parse(JSON.stringify(input.after)) as Record<string, unknown>),
  };
}

/**
 * The fields of `after` that differ from `before` (by JSON value, whatever the key order of their objects: DynamoDB
 * gives a stored map's members back in an order of its own), each side holding only those.
 */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const out = { before: {} as Record<string, unknown>, after: {} as Record<string, unknown> };
  for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const was = before[name] ?? null;
    const is = after[name] ?? null;
    if (canonicalJson(was) === canonicalJson(is)) continue;
    out.before[name] = was;
    out.after[name] = is;
  }
  return out;
}
