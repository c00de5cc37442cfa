// Bodies for the fuzz test's requests (fuzz-requests.ts): each route's body near its own shape (a signal, a batch, a
// policy, a feedback, examples) with hostile values anywhere, or no shape at all.
import fc from 'fast-check';
import type { RouteDefinition } from '../../lambdas/contract/routes';
import { ACTIONS, PRIORITIES } from '../../lambdas/domain/decision';
import { SOURCES } from '../../lambdas/domain/signal';
import { KiB, objectText, validSignal } from './hostile';
import { KEY_NAMES, anyValueText, hostileJson, hostileString } from './hostile-arbitraries';
import {
  type FuzzWorld,
  arrayText,
  deepNest,
  type Entries,
  fieldValueText,
  hostileValueText,
  hostileWorkspace,
  json,
  longString,
  PROTOTYPE_NAMES,
  WORDS,
} from './fuzz-values';

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

export const entriesOf = (r: Record<string, string | undefined>): Entries =>
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
export function body(
  route: RouteDefinition,
  w: FuzzWorld,
  workspace: fc.Arbitrary<string>,
): fc.Arbitrary<Buffer | undefined> {
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
