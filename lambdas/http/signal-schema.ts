// The analyze request body, validated with valibot. Messages are written here so that no error echoes the
// client's text back (bodies can be 200,000 characters).
import * as v from 'valibot';
import { type Validated, validateBody, withDetailInPlace } from './body-validation';
import { WORKSPACE_ID_PATTERN } from '../domain/grants';
import { isJsonObject } from '../domain/json-walk';
import { parseRfc3339, rfc3339Problem, toUtcString } from '../domain/timestamps';
import { SOURCES, type JsonValue, type Signal } from '../domain/signal';
import type { ErrorDetail } from './errors';

export const LIMITS = {
  workspaceIdMax: 128,
  subjectMax: 1_000,
  bodyMax: 200_000,
  senderMax: 320,
  metadataBytesMax: 16 * 1024,
  metadataDepthMax: 5,
  futureToleranceMs: 24 * 60 * 60 * 1000,
  idempotencyKeyMax: 255,
} as const;

// One pattern for workspace ids: the grant rules own it.
export { WORKSPACE_ID_PATTERN };
const EMAIL = /^[^\s@<>()[\],;:"]+@[^\s@<>()[\],;:"]+\.[^\s@<>()[\],;:".]+$/;
const DISPLAY_NAME_EMAIL = /^[^<>]*<([^<>]+)>$/;

export function isEmailAddress(sender: string): boolean {
  const display = DISPLAY_NAME_EMAIL.exec(sender.trim());
  return EMAIL.test(display ? display[1].trim() : sender.trim());
}

function depthOf(value: unknown, depth: number, max: number): number {
  if (depth > max || value === null || typeof value !== 'object') return depth;
  let deepest = depth;
  for (const child of Object.values(value)) {
    if (child !== null && typeof child === 'object') deepest = Math.max(deepest, depthOf(child, depth + 1, max));
    if (deepest > max) break;
  }
  return deepest;
}

/** 200000 -> "200,000", as toLocaleString('en-US') writes it, without loading Intl at module load (~10 ms). */
const withThousands = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/**
 * Text holds something to read: a character other than whitespace, a control character (NUL) or an invisible format
 * character (a zero-width space, a byte order mark), which the engine reads as nothing.
 */
const VISIBLE = /[^\s\p{Cc}\p{Cf}]/u;
const hasVisibleText = (text: string | undefined): boolean => text !== undefined && VISIBLE.test(text);

const optionalText = (max: number) =>
  v.optional(
    v.pipe(v.string('must be a string'), v.maxLength(max, `must be at most ${withThousands(max)} characters`)),
  );

// The checks across fields run beside the problems of single fields, so that a partner gets every problem in one
// answer (docs/partners.md, "Errors"): this pipe goes on past the fields' problems, and each check runs once the
// fields it reads are sound.
const SignalFields = v.config(
  v.strictObject(
    {
      workspace_id: v.pipe(
        v.string('must be a string'),
        v.regex(WORKSPACE_ID_PATTERN, 'must be 1 to 128 characters of A-Z a-z 0-9 . _ : -'),
      ),
      source: v.picklist(SOURCES, `must be one of ${SOURCES.join(', ')}`),
      subject: optionalText(LIMITS.subjectMax),
      body: optionalText(LIMITS.bodyMax),
      sender: optionalText(LIMITS.senderMax),
      received_at: v.optional(
        v.pipe(
          v.string('must be a string'),
          // Checked and read in one parse: the output is the time in epoch ms.
          v.rawTransform(({ dataset, addIssue, NEVER }) => {
            const ms = parseRfc3339(dataset.value);
            if (ms !== undefined) return ms;
            addIssue({ message: rfc3339Problem(dataset.value) });
            return NEVER;
          }),
        ),
      ),
      metadata: v.optional(
        v.pipe(
          // A custom check rather than v.record: record() would copy the object (and accept arrays).
          v.custom<Record<string, unknown>>(isJsonObject, 'must be a JSON object'),
          // Depth first: it stops at 6 levels, where serializing 10,000 levels would overflow the stack.
          v.check(
            (m) => depthOf(m, 1, LIMITS.metadataDepthMax) <= LIMITS.metadataDepthMax,
            'must be nested at most 5 levels deep',
          ),
          v.check(
            (m) => Buffer.byteLength(JSON.stringify(m)) <= LIMITS.metadataBytesMax,
            'must be at most 16 KiB when serialized',
          ),
        ),
      ),
    },
    // Message for unknown top-level fields; the field name comes from the issue path.
    'is not a field of a signal',
  ),
  { abortPipeEarly: true },
);

const SignalSchema = v.config(
  v.pipe(
    SignalFields,
    v.forward(
      v.partialCheck(
        [['sender'], ['source']],
        (s) => s.sender === undefined || s.source !== 'email' || isEmailAddress(s.sender),
        'must be an e-mail address (a@b.co or Ann <a@b.co>) when source is email',
      ),
      ['sender'],
    ),
    v.forward(
      v.partialCheck(
        [['subject'], ['body'], ['metadata']],
        (s) =>
          hasVisibleText(s.subject) ||
          hasVisibleText(s.body) ||
          (s.metadata !== undefined && Object.keys(s.metadata).length > 0),
        'subject or body must be non-blank, unless metadata is a non-empty object',
      ),
      ['body'],
    ),
  ),
  { abortPipeEarly: false },
);

/** The fields a signal body may hold, in the schema's order: any other is "not a field of a signal". */
export const SIGNAL_FIELDS = Object.keys(SignalFields.entries) as (keyof Signal)[];

/** 0000-01-01T00:00:00Z, the earliest instant an RFC 3339 timestamp in UTC can write. */
const EARLIEST_UTC_MS = Date.parse('0000-01-01T00:00:00Z');

/** Validates a parsed body; `receivedAtMs` is the time of receipt used when `received_at` is absent. */
export function validateSignal(input: unknown, receivedAtMs: number): Validated<{ signal: Signal }> {
  const result = validateBody(SignalSchema, input);
  if (!result.ok) return withTimeProblem(input, result.details, receivedAtMs);
  const s = result.output;
  const receivedAt = s.received_at ?? receivedAtMs;
  const problem = timeProblem(receivedAt, receivedAtMs);
  if (problem) return { ok: false, details: [{ field: 'received_at', message: problem }] };
  return {
    ok: true,
    signal: {
      workspace_id: s.workspace_id,
      source: s.source,
      subject: s.subject,
      body: s.body,
      sender: s.sender,
      received_at: toUtcString(receivedAt),
      metadata: s.metadata as { [key: string]: JsonValue } | undefined,
    },
  };
}

/** Checked beside the schema: "the future" is relative to the time of receipt passed in. */
function timeProblem(receivedAt: number, receivedAtMs: number): string | undefined {
  if (receivedAt > receivedAtMs + LIMITS.futureToleranceMs) return 'must not be more than 24 hours in the future';
  // Stored in UTC: a time of year 0000 with a positive offset is in year -1 there, which RFC 3339 cannot write (the
  // decision would answer `-000001-12-31T...`).
  if (receivedAt < EARLIEST_UTC_MS) return 'must not be before 0000-01-01T00:00:00Z';
  return undefined;
}

/** A refused signal's details with a readable `received_at`'s time problem among them, in the body's order. */
function withTimeProblem(input: unknown, details: ErrorDetail[], receivedAtMs: number): Validated<{ signal: Signal }> {
  const raw = (input as { received_at?: unknown } | null)?.received_at;
  const ms = typeof raw === 'string' ? parseRfc3339(raw) : undefined;
  const problem = ms === undefined ? undefined : timeProblem(ms, receivedAtMs);
  if (!problem) return { ok: false, details };
  return { ok: false, details: withDetailInPlace(input, details, { field: 'received_at', message: problem }) };
}

/** Idempotency-Key: 1 to 255 printable ASCII characters. */
export function validateIdempotencyKey(value: string | undefined): ErrorDetail | undefined {
  if (value === undefined) return undefined;
  if (value.length < 1 || value.length > LIMITS.idempotencyKeyMax || !/^[\x20-\x7e]+$/.test(value)) {
    return { field: 'Idempotency-Key', message: 'must be 1 to 255 printable ASCII characters' };
  }
  return undefined;
}
