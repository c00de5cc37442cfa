// fast-check properties of hostile requests over the real HTTP path (see test/support/hostile.ts): any JSON, any
// bytes, any keys and values, any header bytes. Every answer must be a contract answer, and where the input decides
// the answer (a `__proto__` key: 400 VALIDATION_ERROR; a workspace without a grant: 403; valid text: 200), the right one.
// HOSTILE_RUNS sets the runs per property (default 150).
import fc from 'fast-check';
import { SOURCES } from '../../lambdas/domain/signal';
import {
  KiB,
  codeOf,
  depthOf,
  expectPrototypeUntouched,
  objectText,
  parseJson,
  useHostileApi,
  validEntries,
  validSignal,
} from '../support/hostile';
import { KEY_NAMES, anyValueText, hasForbiddenKey, hostileJson, hostileString } from '../support/hostile-arbitraries';

jest.setTimeout(120_000);

/** Metadata keys the scorer reads. */
const SCORER_METADATA_KEYS = [
  'customer_tier',
  'vip',
  'tags',
  'due_at',
  'amount',
  'deal_value',
  'severity',
  'vip_senders',
] as const;

const PROPERTY_RUNS = Number(process.env.HOSTILE_RUNS ?? 150);

// Afterwards, in useHostileApi's afterAll (after every test, in any order): Object.prototype is untouched, a normal
// request still works, and every 200 decision of this file reads back with GET, exactly as analyze returned it.
// The always-200 text property alone answers PROPERTY_RUNS distinct decisions.
const api = useHostileApi('hostile-properties', { decisions: PROPERTY_RUNS });

describe('properties (fast-check)', () => {
  const post = (text: string | Buffer, headers?: Record<string, string>) => api.postJson(text, headers);

  it('any JSON value as the body: a contract answer', async () => {
    await fc.assert(
      fc.asyncProperty(hostileJson, async (value) => {
        api.expectContractAnswer(await post(JSON.stringify(value)), JSON.stringify(value).slice(0, 200));
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });

  it('any bytes as the body: a contract answer', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uint8Array({ maxLength: 300 }),
          fc.string({ unit: 'binary', maxLength: 300 }).map((s) => new Uint8Array(Buffer.from(s))),
        ),
        async (bytes) => {
          const reply = api.expectContractAnswer(
            await post(Buffer.from(bytes)),
            Buffer.from(bytes).toString('hex').slice(0, 200),
          );
          expect(reply.status).toBeGreaterThanOrEqual(200);
        },
      ),
      { numRuns: PROPERTY_RUNS },
    );
  });

  it('any object, with any keys (duplicates, __proto__, constructor) and any values, built as JSON text: a contract answer', async () => {
    const entry = fc.tuple(fc.oneof(fc.constantFrom(...KEY_NAMES), hostileString(20)), anyValueText);
    await fc.assert(
      fc.asyncProperty(fc.array(entry, { maxLength: 10 }), fc.boolean(), async (entries, withValid) => {
        const all: [string, string][] = withValid ? [...validEntries(), ...entries] : entries;
        const text = objectText(all);
        api.expectContractAnswer(await post(text), text.slice(0, 300));
      }),
      { numRuns: PROPERTY_RUNS },
    );
    expectPrototypeUntouched();
  });

  it('each field replaced by anything (or left out), with an Idempotency-Key sometimes: a contract answer, and the right one', async () => {
    const field = <T>(valid: fc.Arbitrary<T>) =>
      fc.option(
        fc.oneof({ weight: 3, arbitrary: valid.map((v) => JSON.stringify(v)) }, { weight: 1, arbitrary: anyValueText }),
        { nil: undefined },
      );
    const signalArb = fc.record({
      workspace_id: field(fc.constantFrom('ws_a', 'ws_b', 'ws_c', 'ws_zz')),
      source: field(fc.constantFrom(...SOURCES)),
      subject: field(hostileString(200)),
      body: field(hostileString(500)),
      sender: field(
        fc.oneof(
          fc.emailAddress(),
          hostileString(40),
          hostileString(10).map((n) => `${n} <a@b.co>`),
        ),
      ),
      received_at: field(
        fc.oneof(
          fc
            .date({ min: new Date('1970-01-01'), max: new Date('2030-01-01'), noInvalidDate: true })
            .map((d) => d.toISOString()),
          hostileString(30),
          fc.constantFrom(
            '2026-02-30T00:00:00Z',
            '2026-01-01T24:00:00Z',
            '2026-01-01T00:00:00+24:00',
            '9999-12-31T23:59:59Z',
            '0000-01-01T00:00:00Z',
            '2026-01-01t00:00:00z',
          ),
        ),
      ),
      metadata: field(
        fc.dictionary(fc.oneof(fc.constantFrom(...SCORER_METADATA_KEYS), hostileString(10)), hostileJson, {
          maxKeys: 6,
        }),
      ),
    });
    const idem = fc.option(
      fc.oneof(
        fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 40 }).filter((s) => /^[\t\x20-\x7e]+$/.test(s)),
        fc.uuid(),
      ),
      { nil: undefined },
    );
    await fc.assert(
      fc.asyncProperty(signalArb, idem, async (signal, idemKey) => {
        const entries = Object.entries(signal).filter((e): e is [string, string] => e[1] !== undefined);
        const text = objectText(entries);
        const reply = api.expectContractAnswer(
          await post(text, idemKey === undefined ? {} : { 'idempotency-key': idemKey }),
          `${text.slice(0, 300)} idem=${idemKey}`,
        );
        const parsed = parseJson(text) as Record<string, unknown>;
        // fast-check slips "__proto__" and "constructor" into its strings: the JSON parser refuses those first.
        if (hasForbiddenKey(parsed)) expect(codeOf(reply)).toBe('VALIDATION_ERROR');
        else if (parsed.workspace_id === 'ws_c' || parsed.workspace_id === 'ws_zz')
          expect(codeOf(reply)).toBe('WORKSPACE_NOT_ALLOWED');
        if (reply.status === 200) {
          expect(reply.json.workspace_id).toBe(parsed.workspace_id);
          expect(reply.json.source).toBe(parsed.source);
        }
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });

  it('any text in subject, body and sender of a valid signal (non-email source): always scored, 200', async () => {
    // Something to read: a character other than whitespace, control and format characters (signal-schema.ts).
    const nonBlank = hostileString(300).filter((s) => /[^\s\p{Cc}\p{Cf}]/u.test(s) && s.length <= 1000);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...SOURCES.filter((s) => s !== 'email')),
        nonBlank,
        hostileString(2000),
        fc.option(hostileString(80), { nil: undefined }),
        async (source, subject, bodyText, sender) => {
          const signal = {
            workspace_id: 'ws_b',
            source,
            subject,
            body: bodyText,
            ...(sender === undefined ? {} : { sender }),
          };
          const reply = api.expectContractAnswer(
            await post(JSON.stringify(signal)),
            JSON.stringify(signal).slice(0, 300),
          );
          expect(reply.status).toBe(200);
          expect(Number.isInteger(reply.json.score) && reply.json.score >= 0 && reply.json.score <= 100).toBe(true);
        },
      ),
      { numRuns: PROPERTY_RUNS },
    );
  });

  it('any metadata within the limits (scorer keys with any values) on a valid signal: always scored, 200', async () => {
    const scorerKey = fc.constantFrom(...SCORER_METADATA_KEYS, 'priority', 'plan');
    const value = fc.oneof(
      hostileJson,
      hostileString(40),
      fc.array(hostileString(20), { maxLength: 8 }),
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      fc.double(),
      fc.integer(),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.oneof(scorerKey, hostileString(12)), value, { minKeys: 1, maxKeys: 8 }),
        fc.constantFrom(...SOURCES),
        async (metadata, source) => {
          const text = JSON.stringify({ workspace_id: 'ws_a', source, metadata });
          const parsed = JSON.parse(text) as { metadata: Record<string, unknown> };
          const reply = api.expectContractAnswer(await post(text), text.slice(0, 300));
          const forbidden = hasForbiddenKey(parsed.metadata);
          const tooBig = Buffer.byteLength(JSON.stringify(parsed.metadata)) > 16 * KiB;
          const tooDeep = depthOf(parsed.metadata) > 5;
          if (!forbidden && !tooBig && !tooDeep && Object.keys(parsed.metadata).length > 0)
            expect(reply.status).toBe(200);
          if (forbidden) expect(codeOf(reply)).toBe('VALIDATION_ERROR');
        },
      ),
      { numRuns: PROPERTY_RUNS },
    );
    expectPrototypeUntouched();
  });

  it('any Idempotency-Key and Authorization bytes over a raw socket: refused by HTTP or a contract answer', async () => {
    const headerBytes = fc.uint8Array({ minLength: 0, maxLength: 60 });
    await fc.assert(
      fc.asyncProperty(headerBytes, headerBytes, fc.boolean(), async (idem, authBytes, validKey) => {
        const head = [
          validKey
            ? `Authorization: Bearer ${api.key}`
            : Buffer.concat([Buffer.from('Authorization: Bearer '), Buffer.from(authBytes)]),
          'Content-Type: application/json',
          Buffer.concat([Buffer.from('Idempotency-Key: '), Buffer.from(idem)]),
        ];
        const reply = api.expectRefusedOrContract(
          await api.rawAnalyze(head, JSON.stringify(validSignal())),
          `idem=${Buffer.from(idem).toString('hex')} auth=${Buffer.from(authBytes).toString('hex')}`,
          true,
        );
        expect(reply.status).toBeLessThan(500);
      }),
      { numRuns: Math.min(PROPERTY_RUNS, 150) },
    );
  });
});
