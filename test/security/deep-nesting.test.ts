// Issue 21, finding 4: deep nesting never gives a 5xx (docs/operations.md, "Worst-case work per request"). With an
// Idempotency-Key the batch route used to canonicalize the whole body recursively before judging its items, so a body
// of nested arrays overflowed the stack (500). Every place that walks a body must stop early or walk without recursion.
import { canonicalJson } from '../../lambdas/application/analyze-signal';
import { useApiWithKey } from '../support/local-api';
import { call, expectError } from '../support/http';
import { nested, signalText } from '../support/hostile';

jest.setTimeout(120_000);

const t = useApiWithKey('sec-deep', ['ws_a']);

const good = '{"workspace_id":"ws_a","source":"email","subject":"Checkout is down"}';
const batchRaw = (text: string, headers: Record<string, string> = {}) =>
  call(t.api.baseUrl, 'POST', '/signals/analyze-batch', {
    key: t.key,
    rawBody: text,
    headers: { 'content-type': 'application/json', ...headers },
  });

const items: [string, () => string][] = [
  ['an item of 200,000 nested arrays (400 KB)', () => nested('[', ']', 200_000, '')],
  ['an item whose metadata nests 100,000 objects', () => signalText({ metadata: nested('{"a":', '}', 100_000) })],
  ['an item whose subject nests 200,000 arrays', () => signalText({ subject: nested('[', ']', 200_000, '') })],
  [
    'an item of a foreign workspace with a deep field',
    () => signalText({ workspace_id: '"ws_z"', extra: nested('[', ']', 200_000, '') }),
  ],
  [
    'a deep item with a \\u escape (the prototype-key parser)',
    () => signalText({ workspace_id: '"ws_\\u0061"', metadata: nested('[', ']', 200_000, '') }),
  ],
];

describe.each([
  ['with an Idempotency-Key', true],
  ['without one', false],
])('a batch %s', (_name, withKey) => {
  it.each(items)('%s: 200, that item VALIDATION_ERROR, the good item decided', async (what, item) => {
    const headers: Record<string, string> = withKey ? { 'Idempotency-Key': `deep-${what}` } : {};
    const reply = await batchRaw(`{"signals":[${good},${item()}]}`, headers);
    expect({ status: reply.status, text: reply.status === 200 ? '' : reply.text }).toEqual({ status: 200, text: '' });
    const kinds = reply.json.data.map((i: any) => (i.decision ? 'decision' : i.error.code));
    expect(kinds[0]).toBe('decision');
    expect(['VALIDATION_ERROR', 'WORKSPACE_NOT_ALLOWED']).toContain(kinds[1]);
    if (withKey) {
      // The replay answers the same (so the hash of the deep body is stable).
      const again = await batchRaw(`{"signals":[${good},${item()}]}`, headers);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.json).toEqual(reply.json);
    }
  });
});

it("a deep envelope field with an Idempotency-Key is the envelope's 400, not a 500", async () => {
  const reply = await batchRaw(`{"signals":[${good}],"x":${nested('[', ']', 200_000, '')}}`, {
    'Idempotency-Key': 'deep-envelope',
  });
  expectError(reply, 400, 'VALIDATION_ERROR');
});

it.each([
  [
    'analyze, deep metadata with a \\u escape',
    signalText({ workspace_id: '"ws_\\u0061"', metadata: nested('{"a":', '}', 40_000) }),
  ],
  ['analyze, deep unknown field with an Idempotency-Key', signalText({ extra: nested('[', ']', 120_000, '') })],
])('%s: 400 VALIDATION_ERROR', async (_what, text) => {
  const reply = await call(t.api.baseUrl, 'POST', '/signals/analyze', {
    key: t.key,
    rawBody: text,
    headers: { 'content-type': 'application/json', 'Idempotency-Key': 'deep-analyze' },
  });
  expectError(reply, 400, 'VALIDATION_ERROR');
});

it('canonical JSON walks any depth without recursion, and writes what it always wrote', () => {
  let value: unknown = 1;
  for (let i = 0; i < 300_000; i++) value = i % 2 ? [value] : { b: value };
  const text = canonicalJson(value);
  expect(text.length).toBeGreaterThan(300_000);
  expect(canonicalJson({ b: [1, 'x', null, { d: true, c: 2.5 }], a: {} })).toBe(
    '{"a":{},"b":[1,"x",null,{"c":2.5,"d":true}]}',
  );
  expect(canonicalJson('\u2028"')).toBe(JSON.stringify('\u2028"'));
  expect(canonicalJson([])).toBe('[]');
});
