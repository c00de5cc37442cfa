// The policy body of PUT /workspaces/{id}/policy (docs/partners.md, "Workspace policy"), validated strictly with
// valibot: unknown fields anywhere are refused, every problem is named in `details`. The admin CLI validates files with
// the same schema.
import * as v from 'valibot';
import { type Validated, validateBody, withDetailInPlace } from './body-validation';
import { apiKeyPath } from '../domain/audit';
import { looksLikeApiKey } from '../domain/api-key';
import { PRIORITIES } from '../domain/decision';
import { NON_ASCII, withAsciiDomain } from '../domain/engine/metadata';
import { isJsonObject, jsonPath } from '../domain/json-walk';
import { hasVisible } from '../domain/keyword-text';
import { DEFAULT_THRESHOLDS, NAME_PATTERN, type WorkspacePolicy } from '../domain/policy';

export const POLICY_MAX_BYTES = 64 * 1024;
const ADDRESS = /^[^\s@<>()[\],;:"]+@[^\s@<>()[\],;:"]+\.[^\s@<>()[\],;:".]+$/;
const DOMAIN = /^@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/i;

const name = (what: string) =>
  v.pipe(v.string(`must be a ${what} name`), v.regex(NAME_PATTERN, 'must match ^[a-z][a-z0-9_]{0,63}$'));
const int = (min: number, max: number) =>
  v.pipe(
    v.number('must be an integer'),
    v.integer('must be an integer'),
    v.minValue(min, `must be at least ${min}`),
    v.maxValue(max, `must be at most ${max}`),
  );

/**
 * An address or `@domain`. A domain in Unicode (`@münchen.de`, `ann@bücher.example`) is checked in its ASCII form, as
 * a domain name whose labels DNS holds to 63 characters: one with no ASCII form is refused. An address with an ASCII
 * domain is checked as it always was. The 320 characters count the entry as written.
 */
function isSenderEntry(entry: string): boolean {
  const ascii = withAsciiDomain(entry);
  if (entry.startsWith('@')) return DOMAIN.test(ascii);
  const domain = ascii.slice(ascii.lastIndexOf('@') + 1);
  const unicode = NON_ASCII.test(entry.slice(entry.lastIndexOf('@') + 1));
  return ADDRESS.test(ascii) && (!unicode || DOMAIN.test(`@${domain}`));
}

const senders = v.pipe(
  v.array(
    v.pipe(
      v.string('must be a string'),
      v.maxLength(320, 'must be at most 320 characters'),
      v.check(isSenderEntry, 'must be an address (ann@acme.com) or a domain (@acme.com)'),
    ),
    'must be an array of addresses and domains',
  ),
  v.maxLength(1_000, 'must hold at most 1,000 entries'),
);

/**
 * A strict object's message: `mustBe` for a value that is no object, `notAKey` for a key it does not take (a key it
 * requires and lacks is reported as "is required" by validateBody).
 */
const objectMessage =
  (mustBe: string, notAKey: string) =>
  (issue: v.StrictObjectIssue): string =>
    issue.path?.at(-1)?.origin === 'key' ? notAKey : mustBe;

/**
 * An object schema that refuses arrays (valibot's object schemas take an array as an object with no keys, so
 * `"thresholds": []` was stored as `{}`), with `mustBe` for anything else than a JSON object.
 */
const jsonObject = <S extends v.GenericSchema>(mustBe: string, schema: S) =>
  v.pipe(v.custom<unknown>(isJsonObject, mustBe), schema);

const ROUTING_KEY = v.pipe(
  v.string(),
  v.regex(NAME_PATTERN, 'is not a category name: a routing key must match ^[a-z][a-z0-9_]{0,63}$'),
);
const QUEUE = name('queue');

/**
 * Each key and each value of routing checked by its own schema, its problem at its own path (`routing["Bad Key"]`,
 * `routing.billing`); a key and its value both bad are one field, named once, for the key. Not v.record: it takes an
 * array as an object, and skips the keys `constructor` and `prototype`, which are category names like any other.
 */
const routingEntries = v.rawCheck<Record<string, string>>(({ dataset, addIssue }) => {
  if (!dataset.typed) return;
  const input = dataset.value;
  for (const [key, value] of Object.entries(input)) {
    for (const [origin, schema, checked] of [
      ['key', ROUTING_KEY, key],
      ['value', QUEUE, value],
    ] as const) {
      const result = v.safeParse(schema, checked, { abortPipeEarly: true });
      if (!result.success)
        addIssue({
          message: result.issues[0].message,
          input: checked,
          path: [{ type: 'object', origin, input, key, value }],
        });
    }
  }
});

/** The fields of a policy, each checked on its own; each pipe in them stops at its first problem. */
const PolicyFields = v.config(
  v.strictObject(
    {
      vip_senders: v.optional(senders),
      trusted_senders: v.optional(senders),
      blocked_senders: v.optional(senders),
      keywords: v.optional(
        v.pipe(
          v.array(
            jsonObject(
              'must be an object {phrase, weight, category?, queue?}',
              v.strictObject(
                {
                  phrase: v.pipe(
                    v.string('must be a string'),
                    v.check((s) => s.trim().length >= 1 && s.length <= 100, 'must be 1 to 100 characters'),
                    // Keywords are matched with these left out (keyword-text.ts): such a phrase matches nothing seen.
                    v.check(
                      hasVisible,
                      'must hold a visible character, not only soft hyphens or zero-width characters',
                    ),
                  ),
                  weight: int(-50, 50),
                  category: v.optional(name('category')),
                  queue: v.optional(name('queue')),
                },
                objectMessage('must be an object {phrase, weight, category?, queue?}', 'is not a field of a keyword'),
              ),
            ),
            'must be an array of keywords',
          ),
          v.maxLength(200, 'must hold at most 200 keywords'),
        ),
      ),
      categories: v.optional(
        v.pipe(
          v.array(
            jsonObject(
              'must be an object {name, queue?, description?}',
              v.strictObject(
                {
                  name: name('category'),
                  queue: v.optional(name('queue')),
                  description: v.optional(
                    v.pipe(v.string('must be a string'), v.maxLength(200, 'must be at most 200 characters')),
                  ),
                },
                objectMessage('must be an object {name, queue?, description?}', 'is not a field of a category'),
              ),
            ),
            'must be an array of categories',
          ),
          v.maxLength(200, 'must hold at most 200 categories'),
          v.check((list) => new Set(list.map((c) => c.name)).size === list.length, 'must not name a category twice'),
        ),
      ),
      routing: v.optional(
        v.pipe(
          v.custom<Record<string, string>>(isJsonObject, 'must be a JSON object'),
          v.check((m) => Object.keys(m).length <= 200, 'must map at most 200 categories'),
          routingEntries,
        ),
      ),
      thresholds: v.optional(
        jsonObject(
          'must be an object with critical, high and/or medium',
          v.strictObject(
            { critical: v.optional(int(1, 100)), high: v.optional(int(1, 100)), medium: v.optional(int(1, 100)) },
            objectMessage('must be an object with critical, high and/or medium', 'is not a threshold'),
          ),
        ),
      ),
      response_minutes: v.optional(
        jsonObject(
          'must be an object with critical, high, medium and/or low',
          v.strictObject(
            Object.fromEntries(PRIORITIES.map((p) => [p, v.optional(int(1, 525_600))])) as Record<
              (typeof PRIORITIES)[number],
              v.OptionalSchema<ReturnType<typeof int>, undefined>
            >,
            objectMessage('must be an object with critical, high, medium and/or low', 'is not a priority'),
          ),
        ),
      ),
      learning: v.optional(v.boolean('must be true or false')),
      // Read-only: a client may send back what it read.
      version: v.optional(v.unknown()),
      updated_at: v.optional(v.unknown()),
    },
    'is not a field of a policy',
  ),
  { abortPipeEarly: true },
);

// The checks across fields run beside the problems of single fields, so that a partner gets every problem in one
// answer: this pipe goes on past the problems of PolicyFields, and each check runs once the fields it reads are sound.
const PolicySchema = v.config(
  v.pipe(
    PolicyFields,
    // Once the thresholds sent are sound: the thresholds, the missing ones at their defaults, strictly decreasing.
    v.forward(
      v.partialCheck(
        [
          ['thresholds', 'critical'],
          ['thresholds', 'high'],
          ['thresholds', 'medium'],
        ],
        (p) => {
          const t = { ...DEFAULT_THRESHOLDS, ...p.thresholds };
          return t.critical > t.high && t.high > t.medium;
        },
        'must be strictly decreasing (critical > high > medium) once missing ones take their defaults 80, 60, 35',
      ),
      ['thresholds'],
    ),
    // Once the names and queues of categories are sound: none of them given a queue there and in routing too.
    // Routing needs only be an object for this (its own problems are named beside this one).
    v.forward(
      v.partialCheck(
        [
          ['categories', '$', 'name'],
          ['categories', '$', 'queue'],
        ],
        (p) => {
          const { routing } = p as { routing?: unknown };
          if (!isJsonObject(routing)) return true;
          return !(p.categories ?? []).some((c) => c.queue !== undefined && Object.hasOwn(routing, c.name));
        },
        'a category may get its queue from routing or from its entry in categories, not both',
      ),
      ['routing'],
    ),
  ),
  { abortPipeEarly: false },
);

/** A type that compiles only when A and B have the same keys and each is assignable to the other. */
type Same<A, B> = [keyof A, A, keyof B, B] extends [keyof B, B, keyof A, A] ? true : false;
/**
 * The schema's output is the domain's WorkspacePolicy: a setting added to one and not the other does not compile (and
 * the domain's settings table, POLICY_FIELDS, then asks for it too).
 */
const SCHEMA_IS_THE_POLICY: Same<
  Omit<v.InferOutput<typeof PolicySchema>, 'version' | 'updated_at'>,
  WorkspacePolicy
> = true;
void SCHEMA_IS_THE_POLICY;

export function validatePolicy(input: unknown): Validated<{ policy: WorkspacePolicy }> {
  const result = validateBody(PolicySchema, input);
  // The audit log keeps every stored policy and never an API key: refused as bad input, beside the body's other
  // problems and before any version is compared (a 400 comes before a 412), naming where (docs/partners.md,
  // "Workspace policy").
  const at = apiKeyPath(input, [], looksLikeApiKey);
  const keyProblem = at && { field: jsonPath(at), message: 'must not hold an API key' };
  if (!result.ok)
    return keyProblem ? { ok: false, details: withDetailInPlace(input, result.details, keyProblem) } : result;
  if (keyProblem) return { ok: false, details: [keyProblem] };
  // Exactly as sent, in the order of the contract's table; the read-only fields are dropped.
  const {
    version: _v,
    updated_at: _u,
    ...policy
  } = result.output as WorkspacePolicy & { version?: unknown; updated_at?: unknown };
  return { ok: true, policy: policy };
}
