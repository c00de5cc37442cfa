// Issue 33, finding 8: `error.details` lists at most 100 entries, in document order, each `field` a JSON path into
// the body, the message counts the rest, and a refusal is never larger than 64 KiB (docs/partners.md, "Errors"). A
// 960 KB batch of 60,000 `{"__proto__":1}` used to answer a 3.48 MB 400 with 60,000 details named "__proto__".
import { useApiWithKey } from '../support/local-api';
import { call, expectError } from '../support/http';

jest.setTimeout(120_000);

const MAX_DETAILS = 100;
const MAX_REFUSAL_BYTES = 64 * 1024;

const t = useApiWithKey('details-bounded', ['ws_a']);

const post = (path: string, rawBody: string) =>
  call(t.api.baseUrl, 'POST', path, { key: t.key, rawBody, headers: { 'content-type': 'application/json' } });

it('answers a batch of 60,000 prototype keys with 100 JSON paths, a count, and under 64 KiB', async () => {
  const rawBody = `{"signals":[${Array(60_000).fill('{"__proto__":1}').join(',')}]}`;
  expect(rawBody.length).toBeGreaterThan(950_000);
  const reply = await post('/signals/analyze-batch', rawBody);
  expectError(reply, 400, 'VALIDATION_ERROR');
  expect(Buffer.byteLength(reply.text)).toBeLessThanOrEqual(MAX_REFUSAL_BYTES);
  const fields = reply.json.error.details.map((d: { field: string }) => d.field);
  expect(fields).toHaveLength(MAX_DETAILS);
  expect(fields.slice(0, 3)).toEqual(['signals[0].__proto__', 'signals[1].__proto__', 'signals[2].__proto__']);
  expect(fields[99]).toBe('signals[99].__proto__');
  // 60,000 keys and the envelope's own problem (over 100 signals).
  expect(reply.json.error.message).toContain('60001 problems');
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
  // Each prototype key sits under a key of 300 control characters, each written `\u0001` in the path: 150 paths of
  // 1,800 characters and more, past 64 KiB together unless clipped.
  const long = JSON.stringify('\u0001'.repeat(300));
  const rawBody = `{"signals":[${Array(150).fill(`{${long}:{"__proto__":1}}`).join(',')}]}`;
  const reply = await post('/signals/analyze-batch', rawBody);
  expectError(reply, 400, 'VALIDATION_ERROR');
  expect(Buffer.byteLength(reply.text)).toBeLessThanOrEqual(MAX_REFUSAL_BYTES);
  expect(reply.json.error.details.length).toBeGreaterThan(0);
  const first: string = reply.json.error.details[0].field;
  expect(first.startsWith('signals[0]["\\u0001')).toBe(true);
  expect(first.length).toBeLessThanOrEqual(200); // clipped, with an ellipsis
  expect(reply.json.error.message).toMatch(/It has 151 problems; details lists the first \d+\./);
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
