// fast-check arbitraries of whole HTTP requests for the fuzz test of every route (test/e2e/fuzz-routes.test.ts):
// a route of lambdas/contract/routes.ts (or an unknown path, or a known path with a wrong method), a path with valid,
// foreign or hostile parameters, hostile headers, and a body near the route's own shape with hostile values anywhere
// (deep nesting, huge strings, any code point, prototype keys, wrong types), or no shape at all.
// A `granted` request carries the full-scope key and names only workspaces that key holds (or one of their decisions),
// so it gets past authorization into validation and the engine; the others are refused on the way there.
import fc from 'fast-check';
import { API_BASE_PATH, ROUTES, type RouteDefinition } from '../../lambdas/contract/routes';
import { BASE62, keyChecksum } from '../../lambdas/domain/api-key';
import { ACTIONS, PRIORITIES } from '../../lambdas/domain/decision';
import { SOURCES } from '../../lambdas/domain/signal';
import { KiB, objectText, validSignal } from './hostile';
import { KEY_NAMES, anyValueText, hostileJson, hostileString } from './hostile-arbitraries';

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

export interface FuzzRequest {
  /** The route id, `unknown path` or `wrong method`. */
  target: string;
  method: string;
  path: string;
  headers: [string, string][];
  body?: Buffer;
  granted: boolean;
}

type Entries = [string, string][];

const MAX_NODE_PATH = 7 * KiB; // a request line well inside Node's 16 KiB header limit (API Gateway's is 10 KiB)
const WS_CHARS = [...'ABCXYZabcxyz0189._:-'];
const PROTOTYPE_NAMES = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
];
const WORDS = [
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

const json = (v: unknown) => JSON.stringify(v);
const arrayText = (items: string[]) => `[${items.join(',')}]`;

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
const longString = (
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
const deepNest = (maxDepth: number) =>
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
const fieldValueText = fc.oneof(
  { weight: 6, arbitrary: anyValueText },
  { weight: 1, arbitrary: deepNest(40) },
  { weight: 2, arbitrary: ODD_VALUES },
);

/** Values that attack one field of a body: also nesting thousands deep and strings of up to 120,000 characters. */
const hostileValueText = fc.oneof(
  { weight: 8, arbitrary: anyValueText },
  { weight: 3, arbitrary: deepNest(3_000) },
  { weight: 1, arbitrary: deepNest(25_000) },
  { weight: 1, arbitrary: longString(1_000, 120_000).map(json) },
  { weight: 3, arbitrary: ODD_VALUES },
);

// ---- workspaces and decision ids ------------------------------------------------------------------------------

const wsString = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...WS_CHARS), minLength: min, maxLength: max });

const grantedWorkspace = (w: FuzzWorld) =>
  // Mostly the exact grants; one in five a new id under the prefix grant (each new one costs a workspace load).
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...w.granted) },
    { weight: 1, arbitrary: wsString(1, 128 - w.grantPrefix.length).map((s) => w.grantPrefix + s) },
  );

/** Workspace ids the full key has no grant for; `room` bounds the longest (a path has less room than a body). */
const hostileWorkspace = (w: FuzzWorld, room: number) =>
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

const validDecisionId = fc.ulid().map((u) => `dec_${u}`);

// ---- headers ----------------------------------------------------------------------------------------------------

/** Header values Node's client will send: latin1 without CR, LF or NUL. */
const headerValue = (maxLength: number) =>
  fc.oneof(
    fc.string({
      unit: fc.constantFrom(...'aZ09 \t"\'<>{}[]\\/:;,=*%$@!~^`|'.split(''), '\u00e4', '\u00ff', '\u0080'),
      maxLength,
    }),
    // eslint-disable-next-line no-control-regex -- control characters are exactly what it removes
    fc.string({ unit: 'binary-ascii', maxLength }).map((s) => s.replace(/[\x00-\x08\x0a-\x1f\x7f]/g, '')),
  );

const JSON_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json;charset=UTF-8',
];
const OTHER_TYPES = [
  'application/json;charset=UTF-16',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/jsonx',
  'application/vnd.api+json',
  '',
  ' application/json',
  'application/json, text/plain',
  '*/*',
];

const idempotencyKey = fc.option(
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom('fuzz-1', 'fuzz-2', 'fuzz-3', 'fuzz-4', 'fuzz 5', '*') },
    {
      weight: 4,
      arbitrary: fc
        .string({ unit: 'binary-ascii', minLength: 1, maxLength: 255 })
        .map((s) => s.replace(/[^\x21-\x7e]/g, 'k') || 'k'),
    },
    { weight: 1, arbitrary: longString(256, 4_000).map((s) => s.replace(/[^\x20-\x7e]/g, 'k')) },
    { weight: 1, arbitrary: headerValue(80) },
  ),
  { nil: undefined, freq: 3 },
);

const ifMatch = fc.option(
  fc.oneof(
    fc.constantFrom(
      '"0"',
      '0',
      '"1"',
      '*',
      'W/"1"',
      '"-1"',
      '"1.5"',
      '"99999999999999999999999"',
      '""',
      '"abc"',
      '1, 2',
    ),
    fc.nat().map((n) => `"${n}"`),
    headerValue(40),
  ),
  {
    nil: undefined,
    freq: 2,
  },
);

const HEADER_NAMES = [
  'x-forwarded-for',
  'x-amzn-trace-id',
  'x-api-key',
  'accept',
  'accept-encoding',
  'content-encoding',
  'origin',
  'cookie',
  'user-agent',
  'x-request-id',
  'forwarded',
  'if-none-match',
  'range',
  'expect-ct',
  ...PROTOTYPE_NAMES.map((n) => n.toLowerCase()),
];
const extraHeaders = fc.array(
  fc.tuple(fc.oneof(fc.constantFrom(...HEADER_NAMES), fc.stringMatching(/^x-[a-z0-9-]{1,20}$/)), headerValue(200)),
  { maxLength: 4 },
);
const hugeHeader = fc
  .tuple(fc.constantFrom('x-padding', 'user-agent', 'cookie'), longString(2_000, 9_000, fc.constantFrom('a', 'b=c; ')))
  .map(([n, v]): [string, string] => [n, v]);

/** Authorization headers that name no valid key (or a valid one said wrong). */
function refusedAuthorization(w: FuzzWorld): fc.Arbitrary<string[]> {
  const k = w.keys;
  // Well-formed keys nobody issued: they pass the checksum, so each costs the authorizer a read (then its cache).
  const unknownKey = fc
    .tuple(
      fc.constantFrom('sas_live_', 'sas_test_'),
      fc.string({ unit: fc.constantFrom(...BASE62), minLength: 32, maxLength: 32 }),
    )
    .map(([p, s]) => p + s + keyChecksum(p + s));
  const keyLike = fc
    .tuple(
      fc.constantFrom('sas_live_', 'sas_test_', 'sas_prod_', ''),
      fc.string({ unit: fc.constantFrom(...'0189AZaz'), minLength: 38, maxLength: 38 }),
    )
    .map(([p, s]) => p + s);
  return fc.oneof(
    fc.constant([] as string[]),
    fc.constantFrom(k.otherPartner, k.inactive, k.revoked, k.readOnly, k.limited).map((key) => [`Bearer ${key}`]),
    keyLike.map((key) => [`Bearer ${key}`]),
    unknownKey.map((key) => [`Bearer ${key}`]),
    fc.constant(k.full).map((key) => [`Basic ${key}`]),
    fc.constant(k.full).map((key) => [key]),
    fc.constant(k.full).map((key) => [`Bearer ${key}x`]),
    fc.constant(k.full).map((key) => [`Bearer ${key.slice(0, -1)}${key.endsWith('0') ? '1' : '0'}`]),
    fc.constant(k.full).map((key) => [`Bearer ${key}`, `Bearer ${key}`]),
    fc.constant(k.full).map((key) => [`Bearer  ${key} `]),
    headerValue(300).map((v) => [`Bearer ${v}`]),
    headerValue(100).map((v) => [v]),
    longString(1_000, 8_000, fc.constantFrom('A', 'sas_live_')).map((v) => [`Bearer ${v}`]),
  );
}

const grantedAuthorization = (w: FuzzWorld) =>
  fc.constantFrom('Bearer', 'bearer', 'BEARER', 'BeArEr').map((scheme) => [`${scheme} ${w.keys.full}`]);

// ---- bodies -----------------------------------------------------------------------------------------------------

const field = <T>(valid: fc.Arbitrary<T>) =>
  fc.option(fc.oneof({ weight: 5, arbitrary: valid.map(json) }, { weight: 1, arbitrary: fieldValueText }), {
    nil: undefined,
    freq: 8,
  });

const text = (maxLength: number) =>
  fc.oneof(
    { weight: 14, arbitrary: hostileString(Math.min(maxLength, 300)) },
    {
      weight: 1,
      arbitrary: longString(
        1,
        maxLength,
        fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 6 }).map((ws) => `${ws.join(' ')} `),
      ),
    },
  );

/** A signal as JSON text entries, each field valid or hostile (or left out); the workspace as the caller chose. */
const address = fc
  .tuple(
    fc.stringMatching(/^[a-z0-9._+-]{1,12}$/),
    fc.constantFrom('acme.com', 'example.org', 'sub.example.co.uk', 'x'),
  )
  .map(([local, domain]) => `${local}@${domain}`);

const entriesOf = (r: Record<string, string | undefined>): Entries =>
  Object.entries(r).filter((e): e is [string, string] => e[1] !== undefined);
const PAST = { min: new Date('2000-01-01T00:00:00Z'), max: new Date('2026-01-01T00:00:00Z'), noInvalidDate: true };
/** Text with something to read (signal-schema.ts: not only whitespace, control and format characters). */
const nonBlank = (maxLength: number) =>
  hostileString(maxLength).map((s) => (/[^\s\p{Cc}\p{Cf}]/u.test(s) ? s : `x${s}`));

/** A signal the service must analyze (200): any text, any code point, long bodies, scorer metadata within limits. */
const validSignalEntries = (workspace: fc.Arbitrary<string>, bodyMax: number) =>
  fc
    .tuple(
      fc.constantFrom(...SOURCES),
      fc.record(
        {
          subject: nonBlank(300),
          body: text(bodyMax),
          received_at: fc.date(PAST).map((d) => d.toISOString()),
          metadata: fc.record(
            {
              customer_tier: fc.constantFrom('enterprise', 'free', 'gold'),
              vip: fc.boolean(),
              tags: fc.array(hostileString(12), { maxLength: 4 }),
              amount: fc.integer(),
              due_at: fc.date(PAST).map((d) => d.toISOString()),
            },
            { requiredKeys: [] },
          ),
        },
        { requiredKeys: ['subject'] },
      ),
      workspace,
      address,
      fc.option(hostileString(40), { nil: undefined }),
    )
    .map(([source, rest, workspace_id, email, other]) =>
      entriesOf({
        workspace_id: json(workspace_id),
        source: json(source),
        ...Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, json(v)])),
        sender: json(source === 'email' ? `Ann <${email}>` : other),
      }),
    );

/** A signal whose fields are each valid, hostile or missing. */
const signalEntries = (workspace: fc.Arbitrary<string>, bodyMax: number) =>
  fc.oneof(
    { weight: 3, arbitrary: validSignalEntries(workspace, bodyMax) },
    { weight: 2, arbitrary: mutatedSignalEntries(workspace, bodyMax) },
  );

const mutatedSignalEntries = (workspace: fc.Arbitrary<string>, bodyMax: number) =>
  fc
    .record({
      workspace_id: fc.oneof({ weight: 12, arbitrary: workspace.map(json) }, { weight: 1, arbitrary: fieldValueText }),
      source: field(fc.constantFrom(...SOURCES)),
      subject: field(text(1_200)),
      body: field(text(bodyMax)),
      sender: field(
        fc.oneof(
          address,
          hostileString(40),
          hostileString(10).map((n) => `${n} <a@b.co>`),
          longString(300, 400, fc.constantFrom('a', '@')),
        ),
      ),
      received_at: field(
        fc.oneof(
          fc
            .date({ min: new Date('1970-01-01'), max: new Date('2030-01-01'), noInvalidDate: true })
            .map((d) => d.toISOString()),
          hostileString(30),
          fc.constantFrom('2026-02-30T00:00:00Z', '9999-12-31T23:59:59Z', '2026-01-01T00:00:00+24:00'),
        ),
      ),
      metadata: field(
        fc.dictionary(
          fc.oneof(
            fc.constantFrom('customer_tier', 'vip', 'tags', 'due_at', 'amount', ...PROTOTYPE_NAMES),
            hostileString(10),
          ),
          hostileJson,
          { maxKeys: 6 },
        ),
      ),
    })
    .map((r) => Object.entries(r).filter((e): e is [string, string] => e[1] !== undefined));

const SENDERS = [
  'ann@acme.com',
  '@acme.com',
  '@example.org',
  'bob@sub.example.co.uk',
  'not-an-address',
  '@',
  '@-bad-.com',
];
const senderList = fc.oneof(
  {
    weight: 9,
    arbitrary: fc.array(fc.oneof(fc.constantFrom(...SENDERS), address, hostileString(30)), { maxLength: 12 }),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 990, max: 1_010 })
      .map((n) => Array.from({ length: n }, (_, i) => (i % 2 ? `user${i}@acme${i}.com` : `@d${i}.example.com`))),
  },
);
const keyword = fc.record(
  {
    phrase: fc.oneof(
      hostileString(100),
      fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 30 }).map((ws) => ws.join(' ').slice(0, 100)),
    ),
    weight: fc.oneof(fc.integer({ min: -50, max: 50 }), fc.integer(), fc.double()),
    category: fc.oneof(fc.constantFrom('incident', 'billing', 'own_cat', 'Bad-Name'), hostileString(10)),
    queue: fc.oneof(fc.constantFrom('engineering', 'own_queue', '9bad'), hostileString(10)),
  },
  { requiredKeys: ['phrase', 'weight'] },
);
/** The policy made to be slow: 200 keywords of 100 characters of short words that occur in bodies. */
const slowKeywords = fc.constant(
  Array.from({ length: 200 }, (_, i) => ({
    phrase: `${'a to '.repeat(19)}a ${WORDS[i % WORDS.length]}`.slice(0, 100),
    weight: (i % 21) - 10,
  })),
);
const NAMES = ['own_cat', 'incident', 'billing', 'team_x'];
const validPolicyEntries = fc
  .record(
    {
      vip_senders: fc.array(fc.oneof(fc.constantFrom('ann@acme.com', '@acme.com', '@example.org'), address), {
        maxLength: 6,
      }),
      trusted_senders: fc.array(address, { maxLength: 3 }),
      blocked_senders: fc.array(fc.constantFrom('@spam.example', 'bad@x.example'), { maxLength: 2 }),
      keywords: fc.oneof(
        {
          weight: 6,
          arbitrary: fc.array(
            fc.record(
              {
                phrase: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 12 }).map((ws) => ws.join(' ')),
                weight: fc.integer({ min: -50, max: 50 }),
                category: fc.constantFrom(...NAMES),
                queue: fc.constantFrom('own_queue', 'engineering'),
              },
              { requiredKeys: ['phrase', 'weight'] },
            ),
            { maxLength: 10 },
          ),
        },
        { weight: 1, arbitrary: slowKeywords },
      ),
      categories: fc.uniqueArray(
        fc.record(
          {
            name: fc.constantFrom(...NAMES),
            queue: fc.constantFrom('own_queue', 'support'),
            description: hostileString(100),
          },
          { requiredKeys: ['name'] },
        ),
        { maxLength: 4, selector: (c) => c.name },
      ),
      thresholds: fc.constantFrom({ critical: 90 }, { critical: 70, high: 50, medium: 20 }, {}),
      response_minutes: fc.record(
        { critical: fc.integer({ min: 1, max: 525_600 }), low: fc.integer({ min: 1, max: 525_600 }) },
        { requiredKeys: [] },
      ),
      learning: fc.boolean(),
    },
    { requiredKeys: [] },
  )
  .map((p) => Object.entries(p).map(([k, v]): [string, string] => [k, json(v)]));

/** A policy of valid fields, or of fields each valid, hostile or missing. */
const policyEntries = fc.oneof(validPolicyEntries, mutatedPolicyEntries());

function mutatedPolicyEntries() {
  return fc
    .record({
      vip_senders: field(senderList),
      trusted_senders: field(senderList),
      blocked_senders: field(senderList),
      keywords: field(
        fc.oneof(
          { weight: 4, arbitrary: fc.array(keyword, { maxLength: 8 }) },
          { weight: 1, arbitrary: slowKeywords },
          { weight: 1, arbitrary: fc.array(keyword, { minLength: 195, maxLength: 205 }) },
        ),
      ),
      categories: field(
        fc.array(
          fc.record(
            {
              name: fc.constantFrom('own_cat', 'incident', 'x', 'Bad'),
              queue: fc.constantFrom('own_queue', 'support'),
              description: hostileString(220),
            },
            { requiredKeys: ['name'] },
          ),
          { maxLength: 5 },
        ),
      ),
      routing: field(
        fc.dictionary(
          fc.oneof(fc.constantFrom('incident', 'own_cat', ...PROTOTYPE_NAMES), hostileString(8)),
          fc.oneof(fc.constantFrom('engineering', 'own_queue'), hostileJson),
          { maxKeys: 5 },
        ),
      ),
      thresholds: field(
        fc.record(
          {
            critical: fc.integer({ min: -5, max: 105 }),
            high: fc.integer({ min: -5, max: 105 }),
            medium: fc.integer({ min: -5, max: 105 }),
          },
          { requiredKeys: [] },
        ),
      ),
      response_minutes: field(
        fc.dictionary(fc.constantFrom(...PRIORITIES, 'urgent'), fc.integer({ min: -1, max: 600_000 }), { maxKeys: 4 }),
      ),
      learning: field(fc.oneof(fc.boolean(), fc.constantFrom('true', 0, null))),
      version: field(hostileJson),
      updated_at: field(hostileJson),
    })
    .map(entriesOf);
}

const validFeedbackEntries = fc
  .record(
    {
      priority: fc.constantFrom(...PRIORITIES),
      recommended_action: fc.constantFrom(...ACTIONS),
      category: fc.constantFrom(...NAMES),
      queue: fc.constantFrom('own_queue', 'engineering'),
    },
    { requiredKeys: ['category'] },
  )
  .map((f) => Object.entries(f).map(([k, v]): [string, string] => [k, json(v)]));

const feedbackEntries = fc.oneof(validFeedbackEntries, mutatedFeedbackEntries());

function mutatedFeedbackEntries() {
  return fc
    .record({
      priority: field(fc.oneof(fc.constantFrom(...PRIORITIES), hostileString(10))),
      recommended_action: field(fc.oneof(fc.constantFrom(...ACTIONS), hostileString(10))),
      category: field(fc.oneof(fc.constantFrom('incident', 'billing', 'own_cat', 'Nope'), hostileString(10))),
      queue: field(fc.oneof(fc.constantFrom('engineering', 'own_queue', '1x'), hostileString(10))),
    })
    .map(entriesOf);
}

/** A batch: mostly a few signals, sometimes 100, sometimes none or too many; or signals naming the prefix grant
 * with ids of hundreds of KB (what a cache that kept them would pay for). */
const batchEntries = (w: FuzzWorld, workspace: fc.Arbitrary<string>) =>
  fc
    .oneof(
      {
        weight: 8,
        arbitrary: fc.array(signalEntries(workspace, 2_000).map(objectText), { minLength: 1, maxLength: 5 }),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(
            fc.array(signalEntries(fc.oneof(workspace, hostileWorkspace(w, 2_000)), 200).map(objectText), {
              minLength: 1,
              maxLength: 6,
            }),
            fc.integer({ min: 95, max: 101 }),
          )
          .map(([signals, n]) => {
            // Repeated up to 95..101 entries, but not much past the 1 MiB cap.
            const out: string[] = [];
            for (let i = 0, bytes = 0; i < n && bytes < 1.2 * KiB * KiB; i++) {
              out.push(signals[i % signals.length]);
              bytes += signals[i % signals.length].length;
            }
            return out;
          }),
      },
      {
        weight: 1,
        arbitrary: fc
          .constantFrom(0, 101, 150)
          .map((n) =>
            Array.from({ length: n }, () => objectText(Object.entries(validSignal()).map(([k, v]) => [k, json(v)]))),
          ),
      },
      {
        weight: 1,
        arbitrary: fc
          .array(fc.integer({ min: 150 * KiB, max: 250 * KiB }), { minLength: 1, maxLength: 4 })
          .map((sizes) => sizes.map((n) => json(validSignal({ workspace_id: w.grantPrefix + 'p'.repeat(n) })))),
      },
    )
    .map((signals): Entries => [['signals', arrayText(signals)]]);

const examplesEntries = (workspace: fc.Arbitrary<string>) =>
  fc
    .array(fc.tuple(signalEntries(workspace, 500), feedbackEntries), { minLength: 0, maxLength: 5 })
    .map((items): Entries => [
      [
        'examples',
        arrayText(
          items.map(([s, l]) =>
            objectText([
              ['signal', objectText(s)],
              ['labels', objectText(l)],
            ]),
          ),
        ),
      ],
    ]);

/** The route's body as top-level entries, near its own shape. */
function routeEntries(route: RouteDefinition, w: FuzzWorld, workspace: fc.Arbitrary<string>): fc.Arbitrary<Entries> {
  if (route.id === 'Analyze') return signalEntries(workspace, 200_000);
  if (route.id === 'AnalyzeBatch') return batchEntries(w, workspace);
  if (route.id === 'PutPolicy') return policyEntries;
  if (route.id === 'Feedback') return feedbackEntries;
  if (route.path.endsWith('/examples'))
    return examplesEntries(fc.oneof(workspace, fc.constant(undefined as unknown as string)));
  return fc.array(fc.tuple(fc.constantFrom(...KEY_NAMES), anyValueText), { maxLength: 4 });
}

/** The body: the route's entries with one hostile value or key slipped in, or replaced by anything at all. */
function body(route: RouteDefinition, w: FuzzWorld, workspace: fc.Arbitrary<string>): fc.Arbitrary<Buffer | undefined> {
  const entries = routeEntries(route, w, workspace);
  const asText = (e: Entries) => Buffer.from(objectText(e), 'utf8');
  return fc.oneof(
    { weight: 10, arbitrary: entries.map(asText) },
    {
      weight: 4,
      arbitrary: fc
        .tuple(
          entries,
          fc.oneof(
            fc.constantFrom(...KEY_NAMES, ...PROTOTYPE_NAMES, 'signals', 'keywords', 'examples'),
            hostileString(12),
          ),
          hostileValueText,
          fc.nat(),
        )
        .map(([e, key, value, at]) => {
          const out = [...e];
          if (out.length && at % 2) out[at % out.length] = [out[at % out.length][0], value];
          else out.splice(at % (out.length + 1), 0, [key, value]);
          return asText(out);
        }),
    },
    {
      weight: 3,
      arbitrary: fc.oneof(
        { weight: 2, arbitrary: fc.constantFrom(undefined, Buffer.alloc(0)) },
        { weight: 3, arbitrary: hostileJson.map((v) => Buffer.from(json(v))) },
        { weight: 2, arbitrary: deepNest(5_000).map((t) => Buffer.from(t)) },
        { weight: 1, arbitrary: deepNest(120_000).map((t) => Buffer.from(t)) },
        { weight: 2, arbitrary: fc.uint8Array({ maxLength: 400 }).map((b) => Buffer.from(b)) },
        {
          weight: 2,
          arbitrary: fc
            .constantFrom('{', '{"a":1,}', "{'a':1}", '\ufeff{}', '{"a":1}{"b":2}', 'NaN', '{"a":1e999999}', '\u0000')
            .map((t) => Buffer.from(t)),
        },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            Buffer.from([0xff, 0xfe, 0x7b, 0x7d]),
            Buffer.from([0xc3, 0x28]),
            Buffer.from('{"subject":"\udc00"}'),
          ),
        },
        {
          weight: 1,
          arbitrary: fc
            .integer({ min: 257 * KiB, max: 1_100 * KiB })
            .map((n) => Buffer.from(json({ workspace_id: 'ws_a', source: 'email', body: 'y'.repeat(n) }))),
        },
      ),
    },
  );
}

// ---- paths ------------------------------------------------------------------------------------------------------

const encodedSegment = (value: fc.Arbitrary<string>, broken = true) =>
  fc
    .tuple(value, fc.constantFrom('encoded', 'encoded', 'encoded', 'raw', broken ? 'broken' : 'raw'))
    .map(([v, how]) => {
      if (how === 'raw') return /^[A-Za-z0-9\-._~:@!$&'()*+,;=]+$/.test(v) ? v : percentEncode(v);
      if (how === 'broken') return `${percentEncode(v)}%E0%A4%`;
      return percentEncode(v);
    });

const junkQuery = fc.option(
  fc
    .array(
      fc.tuple(
        fc.oneof(fc.constantFrom('workspace_id', 'limit', ...PROTOTYPE_NAMES, 'a'), hostileString(8)),
        hostileString(30),
      ),
      { minLength: 1, maxLength: 4 },
    )
    .map((pairs) => '?' + pairs.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&')),
  { nil: '', freq: 5 },
);

/** Mostly valid, sometimes hostile. */
const mostly = (valid: fc.Arbitrary<string>, hostile: fc.Arbitrary<string>) =>
  fc.oneof({ weight: 5, arbitrary: valid }, { weight: 1, arbitrary: hostile });
const rfc3339 = fc
  .date({ noInvalidDate: true, min: new Date('2000-01-01'), max: new Date('2100-01-01') })
  .map((d) => d.toISOString());

/** A list query: the workspace, each other parameter in one request of two (mostly valid), sometimes a parameter
 * twice or an unknown one. */
const listQuery = (w: FuzzWorld, workspace: fc.Arbitrary<string>) => {
  const sometimes = (value: fc.Arbitrary<string>) => fc.option(value, { nil: undefined, freq: 2 });
  return fc
    .tuple(
      fc.record({
        workspace_id: mostly(workspace, fc.constantFrom('', 'ws_a,ws_b')),
        limit: sometimes(
          mostly(
            fc.integer({ min: 1, max: 100 }).map(String),
            fc.constantFrom('0', '101', '-1', '1.5', '1e2', 'abc', '', '1,2'),
          ),
        ),
        starting_after: sometimes(
          fc.oneof(validDecisionId, hostileString(30), ...w.decisions.granted.map((id) => fc.constant(id))),
        ),
        priority: sometimes(
          mostly(
            fc.subarray([...PRIORITIES], { minLength: 1 }).map((p) => p.join(',')),
            hostileString(20),
          ),
        ),
        created_after: sometimes(mostly(rfc3339, hostileString(30))),
        created_before: sometimes(mostly(rfc3339, hostileString(30))),
      }),
      fc.tuple(fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES), hostileString(8)), hostileString(8)),
      fc.constantFrom('plain', 'plain', 'plain', 'plain', 'repeat', 'odd'),
    )
    .map(([params, odd, how]) => {
      const pairs = entriesOf(params).map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`);
      if (how === 'repeat') pairs.push(pairs[pairs.length - 1]);
      if (how === 'odd') pairs.push(`${percentEncode(odd[0])}=${percentEncode(odd[1])}`);
      return `?${pairs.join('&')}`;
    });
};

/** The route's path with its parameters filled in. */
function routePath(
  route: RouteDefinition,
  w: FuzzWorld,
  grantedOnly: boolean,
  workspaceInPath: fc.Arbitrary<string>,
): fc.Arbitrary<string> {
  const decision = grantedOnly
    ? fc.constantFrom(...w.decisions.granted)
    : fc.oneof(
        fc.constantFrom(...w.decisions.foreign),
        validDecisionId,
        fc.constantFrom('dec_', 'dec_0', ...PROTOTYPE_NAMES, '.', '..'),
        hostileString(40),
        longString(200, 6_000),
      );
  const params: Record<string, fc.Arbitrary<string>> = { workspace_id: workspaceInPath, decision_id: decision };
  const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  return fc.tuple(...names.map((n) => encodedSegment(params[n] ?? hostileString(20), !grantedOnly))).map((values) => {
    let i = 0;
    return route.path.replace(/\{(\w+)\}/g, () => values[i++]).slice(0, MAX_NODE_PATH);
  });
}

const unknownPath = fc.oneof(
  fc.constantFrom(
    '/',
    '/api',
    API_BASE_PATH,
    `${API_BASE_PATH}/`,
    '/api/v2/signals/analyze',
    '/API/V1/signals/analyze',
    `${API_BASE_PATH}/signals/analyze/`,
    `${API_BASE_PATH}//signals/analyze`,
    `${API_BASE_PATH}/signals/../signals/analyze`,
    `${API_BASE_PATH}/signals/%61nalyze`,
    `${API_BASE_PATH}/decisions/`,
    `${API_BASE_PATH}/workspaces//policy`,
    `${API_BASE_PATH}/workspaces/ws_a/policy/extra`,
    `${API_BASE_PATH}/__proto__`,
    `${API_BASE_PATH}/constructor/prototype`,
    `${API_BASE_PATH}/signals/analyze%00`,
    `${API_BASE_PATH}/signals`,
    '/favicon.ico',
    '/api/v1/decisions/dec_x/feedback/x',
    '*',
  ),
  fc
    .array(encodedSegment(hostileString(30)), { minLength: 1, maxLength: 6 })
    .map((segments) => `${API_BASE_PATH}/${segments.join('/')}`),
  longString(1_000, MAX_NODE_PATH - 20, fc.constantFrom('a/', '%2F', '..%2F', 'x')).map((s) => `${API_BASE_PATH}/${s}`),
);

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];

// ---- whole requests ---------------------------------------------------------------------------------------------

function summary(r: FuzzRequest): string {
  const head = r.headers.map(([n, v]) => `${n}: ${n === 'authorization' ? '<redacted>' : v.slice(0, 60)}`).join('; ');
  const bodyText =
    r.body === undefined
      ? '(none)'
      : `${r.body.length} bytes ${JSON.stringify(r.body.subarray(0, 160).toString('utf8'))}`;
  return `${r.target} ${r.method} ${r.path.slice(0, 200)}${r.path.length > 200 ? `...(${r.path.length})` : ''} [${head}] body=${bodyText}`;
}

/** A request with a short printable form (fast-check prints it on failure; bodies can be 1 MiB). */
function request(r: FuzzRequest): FuzzRequest {
  // Anything is fuzz input, but a body over API Gateway's own 10 MB limit gets its answer, not the service's; and
  // past every route's cap (1 MiB) more bytes only cost time.
  if (r.body && r.body.length > 1.5 * KiB * KiB) r.body = r.body.subarray(0, 1.5 * KiB * KiB);
  return Object.assign(r, { [fc.toStringMethod]: () => summary(r) });
}

function headersFor(route: RouteDefinition | undefined, authorization: fc.Arbitrary<string[]>, hasBody: boolean) {
  return fc
    .record({
      authorization,
      contentType: fc.option(
        fc.oneof(
          { weight: 40, arbitrary: fc.constantFrom(...JSON_TYPES) },
          { weight: 2, arbitrary: fc.constantFrom(...OTHER_TYPES) },
          { weight: 1, arbitrary: headerValue(60) },
        ),
        { nil: undefined, freq: hasBody ? 40 : 2 },
      ),
      idempotency:
        route?.method === 'POST'
          ? idempotencyKey
          : fc.oneof({ weight: 5, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: idempotencyKey }),
      ifMatch: route?.id === 'PutPolicy' ? ifMatch : fc.constant(undefined),
      extra: fc.oneof(
        { weight: 6, arbitrary: fc.constant([] as [string, string][]) },
        { weight: 3, arbitrary: extraHeaders },
        { weight: 1, arbitrary: hugeHeader.map((h) => [h]) },
      ),
      duplicateContentType: fc.oneof(
        { weight: 40, arbitrary: fc.constant(false) },
        { weight: 1, arbitrary: fc.constant(true) },
      ),
    })
    .map((h) => {
      const out: [string, string][] = h.authorization.map((a): [string, string] => ['authorization', a]);
      if (h.contentType !== undefined) out.push(['content-type', h.contentType]);
      if (h.contentType !== undefined && h.duplicateContentType) out.push(['content-type', 'text/plain']);
      if (h.idempotency !== undefined) out.push(['idempotency-key', h.idempotency]);
      if (h.ifMatch !== undefined) out.push(['if-match', h.ifMatch]);
      return [...out, ...h.extra];
    });
}

/** A request to `route` that carries the full key and names only granted workspaces (or their decisions). */
function grantedRequest(route: RouteDefinition, w: FuzzWorld): fc.Arbitrary<FuzzRequest> {
  const workspace = grantedWorkspace(w);
  const hasBody = route.method !== 'GET';
  return fc
    .record({
      path: routePath(route, w, true, workspace),
      query: route.id === 'ListDecisions' ? listQuery(w, workspace) : junkQuery,
      headers: headersFor(route, grantedAuthorization(w), hasBody),
      body: hasBody
        ? body(route, w, workspace)
        : fc.option(fc.constant(Buffer.from('{"ignored":true}')), { nil: undefined, freq: 8 }),
    })
    .map(routeRequest(route, true));
}

/** The generated parts of a request to `route` as one FuzzRequest. */
const routeRequest =
  (route: RouteDefinition, granted: boolean) =>
  (r: { path: string; query: string; headers: FuzzRequest['headers']; body?: Buffer }) =>
    request({
      target: route.id,
      method: route.method,
      path: r.path + r.query,
      headers: r.headers,
      body: r.body,
      granted,
    });

/** A request to `route` refused somewhere before or at authorization: no or a bad key, a foreign or hostile workspace. */
function refusedRequest(route: RouteDefinition, w: FuzzWorld): fc.Arbitrary<FuzzRequest> {
  const hasBody = route.method !== 'GET';
  const workspace = fc.oneof(hostileWorkspace(w, 260 * KiB), grantedWorkspace(w));
  const pathWorkspace = fc.oneof(hostileWorkspace(w, 2_000), grantedWorkspace(w));
  return fc
    .record({
      path: routePath(route, w, false, pathWorkspace),
      query:
        route.id === 'ListDecisions'
          ? listQuery(w, fc.oneof(hostileWorkspace(w, 3_000), grantedWorkspace(w)))
          : junkQuery,
      headers: headersFor(
        route,
        fc.oneof({ weight: 1, arbitrary: grantedAuthorization(w) }, { weight: 3, arbitrary: refusedAuthorization(w) }),
        hasBody,
      ),
      body: hasBody
        ? body(route, w, workspace)
        : fc.option(
            hostileJson.map((v) => Buffer.from(json(v))),
            { nil: undefined, freq: 4 },
          ),
    })
    .map(routeRequest(route, false));
}

function strayRequest(w: FuzzWorld): fc.Arbitrary<FuzzRequest> {
  const auth = fc.oneof(grantedAuthorization(w), refusedAuthorization(w));
  const unknown = fc.record({
    method: fc.constantFrom(...METHODS),
    path: unknownPath,
    headers: headersFor(undefined, auth, true),
    body: fc.option(
      hostileJson.map((v) => Buffer.from(json(v))),
      { nil: undefined },
    ),
  });
  const wrongMethod = fc.constantFrom(...ROUTES).chain((route) =>
    fc.record({
      method: fc.constantFrom(
        ...METHODS.filter((m) => !ROUTES.some((other) => other.path === route.path && other.method === m)),
      ),
      path: routePath(route, w, false, fc.oneof(grantedWorkspace(w), hostileWorkspace(w, 500))),
      headers: headersFor(undefined, auth, true),
      body: fc.option(body(route, w, grantedWorkspace(w)), { nil: undefined }),
    }),
  );
  return fc.oneof(
    unknown.map((r) => request({ target: 'unknown path', ...r, body: r.body ?? undefined, granted: false })),
    wrongMethod.map((r) => request({ target: 'wrong method', ...r, body: r.body ?? undefined, granted: false })),
  );
}

/** Any request of the fuzz: 11 in 20 granted ones spread over every route, the rest refused or stray. */
export function fuzzRequest(w: FuzzWorld): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(
    { weight: 11, arbitrary: fc.oneof(...ROUTES.map((route) => grantedRequest(route, w))) },
    { weight: 6, arbitrary: fc.oneof(...ROUTES.map((route) => refusedRequest(route, w))) },
    { weight: 3, arbitrary: strayRequest(w) },
  );
}
