// Values for the fuzz test's requests (fuzz-requests.ts): the world a run sets up, hostile JSON values, long and
// deeply nested text, and workspace ids granted, foreign or hostile.
import fc from 'fast-check';
import { KiB } from './hostile';
import { anyValueText, hostileString } from './hostile-arbitraries';

export interface FuzzWorld {
  keys: {
    /** Every scope; grants `granted` exactly and `grantPrefix` + `*`. */
    full: string;
    /** Scope `read` only, same grants. */
    readOnly: string;
    /** Another partner's key (its workspace is `foreign`). */
    otherPartner: string;
    /** Its partner is suspended. */
    inactive: string;
    revoked: string;
    /** Full scopes with a small rate limit: 429 soon. */
    limited: string;
  };
  granted: string[];
  grantPrefix: string;
  foreign: string[];
  /** Decisions made before the run, in granted and foreign workspaces. */
  decisions: { granted: string[]; foreign: string[] };
}

export type Entries = [string, string][];

export const MAX_NODE_PATH = 7 * KiB; // a request line well inside Node's 16 KiB header limit (API Gateway's is 10 KiB)
const WS_CHARS = [...'ABCXYZabcxyz0189._:-'];
export const PROTOTYPE_NAMES = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
];
export const WORDS = [
  'outage',
  'urgent',
  'down',
  'refund',
  'invoice',
  'security',
  'breach',
  'cancel',
  'a',
  'to',
  'the',
  'is',
  'we',
  'login',
  'fails',
];

export const json = (v: unknown) => JSON.stringify(v);
export const arrayText = (items: string[]) => `[${items.join(',')}]`;

/** Bytes of a string as UTF-8, every byte outside the unreserved set percent-encoded (never throws on a lone surrogate). */
export function percentEncode(s: string): string {
  let out = '';
  for (const b of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(b);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** A long string cheaply: a short seed repeated to a length. */
export const longString = (
  min: number,
  max: number,
  seed: fc.Arbitrary<string> = fc.constantFrom('x', 'ä', '𝔘', 'a b ', 'outage ', '\u0000', '"\\', '<script>'),
) =>
  fc
    .tuple(
      seed.filter((s) => s.length > 0),
      fc.integer({ min, max }),
    )
    .map(([s, n]) => s.repeat(Math.ceil(n / s.length)).slice(0, n));

/** JSON text nested up to `maxDepth` deep: arrays, objects, both in turn, or `__proto__` keys. */
export const deepNest = (maxDepth: number) =>
  fc
    .tuple(fc.constantFrom('array', 'object', 'mixed', 'proto'), fc.integer({ min: 1, max: maxDepth }))
    .map(([kind, depth]) => {
      if (kind === 'array') return '['.repeat(depth) + ']'.repeat(depth);
      if (kind === 'object') return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
      if (kind === 'proto') return '{"__proto__":'.repeat(depth) + '{}' + '}'.repeat(depth);
      return '[{"x":'.repeat(depth) + 'null' + '}]'.repeat(depth);
    });

const ODD_VALUES = fc.constantFrom(
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  '{"toString":1,"valueOf":2}',
  '[{"__proto__":null}]',
  'null',
  'true',
  '[]',
  '{}',
  '""',
  '0',
  '-1',
  '1e308',
);

/** Values that attack a field, small enough to sit in every field of a signal: any JSON, wrong types, prototype
 * objects, some nesting. */
export const fieldValueText = fc.oneof(
  { weight: 6, arbitrary: anyValueText },
  { weight: 1, arbitrary: deepNest(40) },
  { weight: 2, arbitrary: ODD_VALUES },
);

/** Values that attack one field of a body: also nesting thousands deep and strings of up to 120,000 characters. */
export const hostileValueText = fc.oneof(
  { weight: 8, arbitrary: anyValueText },
  { weight: 3, arbitrary: deepNest(3_000) },
  { weight: 1, arbitrary: deepNest(25_000) },
  { weight: 1, arbitrary: longString(1_000, 120_000).map(json) },
  { weight: 3, arbitrary: ODD_VALUES },
);

// ---- workspaces and decision ids ------------------------------------------------------------------------------

const wsString = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...WS_CHARS), minLength: min, maxLength: max });

export const grantedWorkspace = (w: FuzzWorld) =>
  // Mostly the exact grants; one in five a new id under the prefix grant (each new one costs a workspace load).
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...w.granted) },
    { weight: 1, arbitrary: wsString(1, 128 - w.grantPrefix.length).map((s) => w.grantPrefix + s) },
  );

/** Workspace ids the full key has no grant for; `room` bounds the longest (a path has less room than a body). */
export const hostileWorkspace = (w: FuzzWorld, room: number) =>
  fc.oneof(
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        ...w.foreign,
        'ws_zz',
        ...PROTOTYPE_NAMES,
        '',
        ' ',
        'ws_a ',
        'WS_A',
        'ws_a\u0000',
        '*',
        `${w.grantPrefix}*`,
        w.grantPrefix.slice(0, -1),
        'ws_a,ws_b',
        'ws_a/../ws_b',
      ),
    },
    { weight: 2, arbitrary: wsString(129, Math.min(room, 2_200)) },
    { weight: 2, arbitrary: wsString(129 - w.grantPrefix.length, Math.min(room, 2_200)).map((s) => w.grantPrefix + s) },
    {
      weight: 1,
      arbitrary: longString(Math.min(2_200, room), room, fc.constantFrom('a', 'x:', '0.')).map(
        (s) => w.grantPrefix + s,
      ),
    },
    { weight: 2, arbitrary: hostileString(40) },
  );

export const validDecisionId = fc.ulid().map((u) => `dec_${u}`);
