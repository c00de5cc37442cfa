// Issue 33, finding 8: `error.details` lists at most 100 entries, in document order, each `field` a JSON path into
// the body, the message counts the rest, and a refusal is never larger than 64 KiB (docs/partners.md, "Errors"). A
// 960 KB batch of 60,000 `{"__proto__":1}` used to answer a 3.48 MB 400 with 60,000 details named "__proto__".
import { MAX_ITEM_ERROR_BYTES } from '../../lambdas/contract/errors';
import { useApiWithKey } from '../support/local-api';
import { call, expectError } from '../support/http';

jest.setTimeout(120_000);

const MAX_DETAILS = 100;
const MAX_REFUSAL_BYTES = 64 * 1024;

const t = useApiWithKey('details-bounded', ['ws_a']);

const post = (path: string, rawBody: string) =>
  call(t.api.baseUrl, 'POST', path, { key: t.key, rawBody, headers: { 'content-type': 'application/json' } });

it("answers a batch of 60,000 prototype keys with the envelope's problem alone, under 64 KiB", async () => {
  // The keys sit inside the signals, so they are the signals' own problems; an envelope of 60,000 signals is refused
  // before any signal is checked (docs/partners.md, "Analyzing in batches").
  const rawBody = `{"signals":[${Array(60_000).fill('{"__proto__":1}').join(',')}]}`;
  expect(rawBody.length).toBeGreaterThan(950_000);
  const reply = await post('/signals/analyze-batch', rawBody);
  expectError(reply, 400, 'VALIDATION_ERROR');
  expect(Buffer.byteLength(reply.text)).toBeLessThanOrEqual(MAX_REFUSAL_BYTES);
  expect(reply.json.error.details.map((d: { field: string }) => d.field)).toEqual(['signals']);
});

it('answers 45,000 prototype keys in 100 signals with JSON paths within 2 KiB and a count per signal', async () => {
  const signal = `{${Array(450)
    .fill(0)
    .map((_, i) => `"k${i}":{"__proto__":1}`)
    .join(',')}}`;
  const rawBody = `{"signals":[${Array(100).fill(signal).join(',')}]}`;
  expect(rawBody.length).toBeGreaterThan(950_000);
  const reply = await post('/signals/analyze-batch', rawBody);
  expect(reply.status).toBe(200);
  expect(reply.json.data).toHaveLength(100);
  for (const [index, item] of reply.json.data.entries()) {
    expect(item.error.code).toBe('VALIDATION_ERROR');
    const fields = item.error.details.map((d: { field: string }) => d.field);
    // An item's error lists what fits in MAX_ITEM_ERROR_BYTES: 100 items of 100 details made answers past Lambda's
    // 6 MB (test/security/item-error-size.test.ts).
    expect(fields.length).toBeGreaterThan(10);
    expect(fields.length).toBeLessThan(MAX_DETAILS);
    expect(Buffer.byteLength(JSON.stringify(item.error))).toBeLessThanOrEqual(MAX_ITEM_ERROR_BYTES);
    // In document order: each key, then the prototype key it holds.
    expect(fields.slice(0, 2)).toEqual([`signals[${index}].k0`, `signals[${index}].k0.__proto__`]);
    // 450 prototype keys, the 450 keys holding them (not fields of a signal), workspace_id, source and any text missing.
    expect(item.error.message).toContain(`It has 903 problems; details lists the first ${fields.length}.`);
  }
});

it('answers a policy with 400 problems with the first 100, in document order, and their count', async () => {
  const keywords = Array.from({ length: 200 }, () => ({ phrase: '', weight: 99 }));
  const reply = await call(t.api.baseUrl, 'PUT', '/workspaces/ws_a/policy', { key: t.key, body: { keywords } });
  expectError(reply, 400, 'VALIDATION_ERROR');
  expect(Buffer.byteLength(reply.text)).toBeLessThanOrEqual(MAX_REFUSAL_BYTES);
  const fields = reply.json.error.details.map((d: { field: string }) => d.field);
  expect(fields).toHaveLength(MAX_DETAILS);
  expect(fields.slice(0, 4)).toEqual([
    'keywords[0].phrase',
    'keywords[0].weight',
    'keywords[1].phrase',
    'keywords[1].weight',
  ]);
  expect(reply.json.error.message).toContain('400 problems');
});

it('keeps a refusal under 64 KiB when the paths themselves are huge', async () => {
  // Each prototype key sits under a key of 300 control characters, each written `\u0001` in the path: 120 paths of
  // 1,800 characters and more, past 64 KiB together unless clipped.
  const long = JSON.stringify('\u0001'.repeat(300));
  const rawBody = `{"workspace_id":"ws_a","source":"email","subject":"x","metadata":{${Array.from(
    { length: 120 },
    (_, i) => `"m${i}":{${long}:{"__proto__":1}}`,
  ).join(',')}}}`;
  const reply = await post('/signals/analyze', rawBody);
  expectError(reply, 400, 'VALIDATION_ERROR');
  expect(Buffer.byteLength(reply.text)).toBeLessThanOrEqual(MAX_REFUSAL_BYTES);
  expect(reply.json.error.details.length).toBeGreaterThan(1);
  // In document order: metadata's own problem, then the prototype keys it holds.
  expect(reply.json.error.details[0].field).toBe('metadata');
  const first: string = reply.json.error.details[1].field;
  expect(first.startsWith('metadata.m0["\\u0001')).toBe(true);
  expect(first.length).toBeLessThanOrEqual(200); // clipped, with an ellipsis
  // 120 prototype keys, and metadata over its 16 KiB.
  expect(reply.json.error.message).toMatch(/It has 121 problems; details lists the first \d+\./);
});

it('gives a prototype key inside one signal of a batch to that signal alone', async () => {
  const rawBody = JSON.stringify({
    signals: [
      { workspace_id: 'ws_a', source: 'email', subject: 'ok' },
      { workspace_id: 'ws_a', source: 'email', subject: 'x', metadata: { a: 1 } },
    ],
  }).replace('"a":1', '"constructor":{"prototype":1}');
  const reply = await post('/signals/analyze-batch', rawBody);
  expect(reply.status).toBe(200);
  expect(reply.json.data[0].decision.workspace_id).toBe('ws_a');
  expect(reply.json.data[1].error.details).toEqual([
    { field: 'signals[1].metadata.constructor', message: 'this key is not allowed' },
  ]);
});

it('gives a prototype key inside one example of an import to that example alone', async () => {
  const example = { signal: { source: 'email', subject: 'Customs hold' }, labels: { category: 'customs' } };
  const rawBody = JSON.stringify({ examples: [example, { ...example, labels: { category: 'x' } }] }).replace(
    '"category":"x"',
    '"category":"customs","__proto__":{}',
  );
  const reply = await post('/workspaces/ws_a/examples', rawBody);
  expect(reply.status).toBe(200);
  expect(reply.json.learned).toBe(1);
  expect(reply.json.data).toEqual([
    { index: 0, status: 'learned' },
    {
      index: 1,
      error: expect.objectContaining({
        code: 'VALIDATION_ERROR',
        details: [{ field: 'examples[1].labels.__proto__', message: 'this key is not allowed' }],
      }),
    },
  ]);
});

it('replays a batch whose prototype key was dropped only for the same body, not for the body without it', async () => {
  const signal = { workspace_id: 'ws_a', source: 'email', subject: 'Invoice overdue', metadata: { a: 1 } };
  // A good second signal: a batch whose every item is refused stores no record to replay.
  const good = { workspace_id: 'ws_a', source: 'email', subject: 'Checkout is down' };
  const clean = JSON.stringify({ signals: [signal, good] });
  const withKey = clean.replace('"a":1', '"a":1,"__proto__":{}');
  const send = (rawBody: string) =>
    call(t.api.baseUrl, 'POST', '/signals/analyze-batch', {
      key: t.key,
      rawBody,
      headers: { 'content-type': 'application/json', 'idempotency-key': 'dropped-key-1' },
    });
  const first = await send(withKey);
  expect(first.json.data[0].error.details[0].field).toBe('signals[0].metadata.__proto__');
  expect((await send(withKey)).headers.get('idempotent-replayed')).toBe('true');
  expectError(await send(clean), 409, 'IDEMPOTENCY_CONFLICT');
});

it('names nested prototype keys by their JSON path', async () => {
  const reply = await post(
    '/signals/analyze',
    '{"workspace_id":"ws_a","source":"email","subject":"x","metadata":{"a.b":[{"__proto__":1}],"c":{"constructor":{"prototype":{}}}}}',
  );
  expectError(reply, 400, 'VALIDATION_ERROR');
  expect(reply.json.error.details.map((d: { field: string }) => d.field)).toEqual([
    'metadata["a.b"][0].__proto__',
    'metadata.c.constructor',
  ]);
});
