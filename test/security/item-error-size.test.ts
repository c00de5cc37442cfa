// The largest answer a batch or an import can give (docs/partners.md, "Errors"): 100 items, each with up to 100 details
// whose field is clipped at 200 characters, in a body of at most 1 MiB. Unbounded, it was a 6.2 MB answer: past
// Lambda's 6 MB response limit (a 5xx on AWS) and, with an Idempotency-Key, past DynamoDB's 400 KB item for its
// idempotency record (a 500 everywhere). Each item's error is now at most MAX_ITEM_ERROR_BYTES beyond its first
// detail, its message saying how many problems there were; the answer replays byte for byte, and another body with
// the key is 409.
//
// Two worst cases: the longest details (each item's 100 details share one key of 190 CJK characters, 3 bytes each),
// and the least alike (10,000 distinct keys of 99 random printable characters fill the 1 MiB body). A batch's last
// signal is good: a batch whose every item is refused stores no record (docs/partners.md, "Analyzing in batches").
import { MAX_ITEM_ERROR_BYTES } from '../../lambdas/contract/errors';
import { decisionItemsStartingWith } from '../support/dynamodb';
import { type Reply, call, expectError } from '../support/http';
import { useApiWithKey } from '../support/local-api';

jest.setTimeout(240_000);

const t = useApiWithKey('item-error-size', ['ws_a']);

const ITEM_LIMIT_BYTES = 400 * 1024;
const MAX_BODY_BYTES = 1024 * 1024;

const GOOD_SIGNAL = '{"workspace_id":"ws_a","source":"email","subject":"Invoice 4471 is overdue"}';

/** A seeded generator (mulberry32): the same bodies on every run. */
function random(seed: number): (n: number) => number {
  let a = seed;
  return (n) => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return Math.floor((((x ^ (x >>> 14)) >>> 0) / 4294967296) * n);
  };
}

/** Printable ASCII but `"` and `\`, which a JSON key would have to escape. */
const PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i))
  .filter((c) => c !== '"' && c !== '\\')
  .join('');

function texts(seed: number) {
  const next = random(seed);
  return {
    /** `n` CJK characters (3 bytes each in UTF-8). */
    cjk: (n: number) => Array.from({ length: n }, () => String.fromCharCode(0x4e00 + next(20_000))).join(''),
    printable: (n: number) => Array.from({ length: n }, () => PRINTABLE[next(PRINTABLE.length)]).join(''),
  };
}

/** 100 prototype keys under one key of 190 CJK characters: 100 details, each clipped at 200 characters. */
const longPaths = (cjk: string) =>
  `${JSON.stringify(cjk)}:{${Array.from({ length: 100 }, (_, j) => `"a${j}":{"__proto__":1}`).join(',')}}`;

/** 100 unknown keys of `length` random printable characters: 100 details, none like another. */
const randomKeys = (printable: (n: number) => string, length: number) =>
  Array.from({ length: 100 }, () => `"${printable(length)}":1`).join(',');

const bodies = {
  batchLongest: (seed: number, subject = 'x') => {
    const { cjk } = texts(seed);
    const signals = Array.from(
      { length: 99 },
      () => `{"workspace_id":"ws_a","source":"email","subject":${JSON.stringify(subject)},${longPaths(cjk(190))}}`,
    );
    return `{"signals":[${[...signals, GOOD_SIGNAL].join(',')}]}`;
  },
  batchRandom: (seed: number) => {
    const { printable } = texts(seed);
    const signals = Array.from({ length: 99 }, () => `{${randomKeys(printable, 99)}}`);
    return `{"signals":[${[...signals, GOOD_SIGNAL].join(',')}]}`;
  },
  importLongest: (seed: number, subject = 'x') => {
    const { cjk } = texts(seed);
    const examples = Array.from(
      { length: 100 },
      () =>
        `{"labels":{"category":"x"},"signal":{"source":"email","subject":${JSON.stringify(subject)},${longPaths(cjk(190))}}}`,
    );
    return `{"examples":[${examples.join(',')}]}`;
  },
  importRandom: (seed: number) => {
    const { printable } = texts(seed);
    return `{"examples":[${Array.from({ length: 100 }, () => `{"signal":{${randomKeys(printable, 97)}}}`).join(',')}]}`;
  },
};

const send = (path: string, rawBody: string, idempotencyKey?: string) =>
  call(t.api.baseUrl, 'POST', path, {
    key: t.key,
    rawBody,
    headers: {
      'content-type': 'application/json',
      ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }),
    },
  });

/** DynamoDB's size of an item (attribute names and values, docs: "Item size and format"), close enough to compare. */
function itemBytes(value: unknown): number {
  if (value === null || typeof value === 'boolean') return 1;
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (typeof value === 'number') return 21;
  if (value instanceof Uint8Array) return value.byteLength;
  if (Array.isArray(value)) return 3 + value.reduce((sum: number, v) => sum + 1 + itemBytes(v), 0);
  return (
    3 +
    Object.entries(value as Record<string, unknown>).reduce(
      (sum, [name, v]) => sum + 1 + Buffer.byteLength(name) + itemBytes(v),
      0,
    )
  );
}

/** Every item but a batch's good last is refused, its error within the bound and its message counting the 100 and
 * more problems it had. */
function expectBounded(reply: Reply, bodyBytes: number, refused = 100) {
  expect(reply.status).toBe(200);
  expect(bodyBytes).toBeLessThanOrEqual(MAX_BODY_BYTES);
  expect(reply.json.data).toHaveLength(100);
  const errors = reply.json.data.filter((item: { error?: unknown }) => item.error);
  expect(errors).toHaveLength(refused);
  for (const item of errors) {
    const { error } = item;
    expect(error.details.length).toBeGreaterThanOrEqual(1);
    expect(error.details.length).toBeLessThan(100);
    expect(error.message).toMatch(
      new RegExp(`It has 1\\d\\d problems; details lists the first ${error.details.length}\\.$`),
    );
    expect(Buffer.byteLength(JSON.stringify(error))).toBeLessThanOrEqual(MAX_ITEM_ERROR_BYTES);
  }
  // Far from Lambda's 6 MB response limit.
  expect(Buffer.byteLength(reply.text)).toBeLessThan(ITEM_LIMIT_BYTES);
}

async function expectReplayAndConflict(path: string, rawBody: string, otherBody: string, key: string, first: Reply) {
  const again = await send(path, rawBody, key);
  expect(again.status).toBe(200);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  expect(again.text).toBe(first.text);
  const other = await send(path, otherBody, key);
  expectError(other, 409, 'IDEMPOTENCY_CONFLICT');
  // Every item it stored fits one DynamoDB item with room to spare.
  for (const item of await decisionItemsStartingWith(t.api.tables, 'idem#'))
    expect(itemBytes(item)).toBeLessThan(0.75 * ITEM_LIMIT_BYTES);
}

describe('a batch with an Idempotency-Key', () => {
  const path = '/signals/analyze-batch';

  it('the longest details: bounded, replayed byte for byte, another body refused', async () => {
    const rawBody = bodies.batchLongest(1);
    const first = await send(path, rawBody, 'batch-longest');
    expectBounded(first, Buffer.byteLength(rawBody), 99);
    await expectReplayAndConflict(path, rawBody, bodies.batchLongest(1, 'y'), 'batch-longest', first);
  });

  it('the details least alike: bounded, replayed byte for byte, another body refused', async () => {
    const rawBody = bodies.batchRandom(2);
    const first = await send(path, rawBody, 'batch-random');
    expectBounded(first, Buffer.byteLength(rawBody), 99);
    await expectReplayAndConflict(path, rawBody, bodies.batchRandom(3), 'batch-random', first);
  });
});

describe('an import with an Idempotency-Key', () => {
  const path = '/workspaces/ws_a/examples';

  it('the longest details: bounded, replayed byte for byte, another body refused', async () => {
    const rawBody = bodies.importLongest(4);
    const first = await send(path, rawBody, 'import-longest');
    expectBounded(first, Buffer.byteLength(rawBody));
    expect(first.json.learned).toBe(0);
    expect(first.text).toBe((await send(path, rawBody)).text);
    await expectReplayAndConflict(path, rawBody, bodies.importLongest(4, 'y'), 'import-longest', first);
  });

  it('the details least alike: bounded, replayed byte for byte, another body refused', async () => {
    const rawBody = bodies.importRandom(5);
    const first = await send(path, rawBody, 'import-random');
    expectBounded(first, Buffer.byteLength(rawBody));
    await expectReplayAndConflict(path, rawBody, bodies.importRandom(6), 'import-random', first);
  });
});
