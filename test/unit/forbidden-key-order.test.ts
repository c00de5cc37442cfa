// Keys dropped from a body before validation (`__proto__`, `constructor.prototype`) are listed where the body held
// them among its other problems: details come in the order they appear in the body (docs/partners.md, "Errors").
import { generateApiKey } from '../../lambdas/domain/api-key';
import { dropForbiddenKeys, fieldPlacer } from '../../lambdas/domain/json-walk';
import { type ErrorDetail, validInput } from '../../lambdas/http/errors';
import type { ApiRequest } from '../../lambdas/http/api-handler';
import { takeListBody } from '../../lambdas/http/list-body';
import { validateSignal } from '../../lambdas/http/signal-schema';
import { validatePolicy } from '../../lambdas/http/policy-schema';
import { BATCH_BODY } from '../../lambdas/analyze-batch/batch-envelope';
import { IMPORT_BODY } from '../../lambdas/http/import-envelope';
import { validateExample } from '../../lambdas/import-examples/import-examples';

const now = Date.parse('2026-11-26T00:00:00Z');

/** The body parsed and its forbidden keys dropped, as the pipeline hands it to a route. */
function parsed(text: string) {
  const body: unknown = JSON.parse(text);
  return { body, forbiddenKeys: dropForbiddenKeys(body) };
}

/** The fields of the VALIDATION_ERROR validInput throws. */
function refusedFields(check: (body: unknown) => Parameters<typeof validInput>[0], text: string, header?: ErrorDetail) {
  const { body, forbiddenKeys } = parsed(text);
  try {
    validInput(check(body), header, forbiddenKeys, body);
  } catch (err) {
    return (err as { details: ErrorDetail[] }).details.map((d) => d.field);
  }
  throw new Error('validInput took the body');
}

const signal = (body: unknown) => validateSignal(body, now);

describe('dropForbiddenKeys', () => {
  it("records each dropped key's place among the kept keys, half a step before the next one", () => {
    const { body, forbiddenKeys } = parsed(
      '{"a":1,"__proto__":{},"b":{"constructor":{"prototype":1},"c":[{"__proto__":1}]},"constructor":{"prototype":2}}',
    );
    expect(body).toEqual({ a: 1, b: { c: [{}] } });
    expect(forbiddenKeys).toEqual([
      { field: '__proto__', place: [0.5] },
      { field: 'b.constructor', place: [1, -0.5] },
      { field: 'b.c[0].__proto__', place: [1, 0, 0, -0.5] },
      { field: 'constructor', place: [1.5] },
    ]);
  });

  it('gives no place past the first paths: those keys are never listed', () => {
    expect(dropForbiddenKeys(JSON.parse('{"__proto__":1,"x":{"__proto__":1}}'), 1)).toEqual([
      { field: '__proto__', place: [-0.5] },
      { field: '__proto__' },
    ]);
  });
});

describe('fieldPlacer', () => {
  const body = { a: [1, { 'x.y': 2, [generateApiKey()]: 3 }], b: 'text' };

  it.each([
    ['(body)', []],
    ['a', [0]],
    ['a[1]', [0, 1]],
    ['a[1]["x.y"]', [0, 1, 0]],
    ['a[1]["<API key>"]', [0, 1, 1]],
    ['b', [1]],
    ['b.c', [1]],
    ['z', [2]],
    ['a[1].z', [0, 1, 2]],
  ])('places %s at %j (a key the body lacks: after those it holds)', (field, place) => {
    expect(fieldPlacer(body)(field)).toEqual(place);
  });
});

describe('a single body', () => {
  it('lists a dropped key between the problems around it, the header last', () => {
    expect(
      refusedFields(signal, '{"source":"nope","__proto__":{},"subject":5}', {
        field: 'Idempotency-Key',
        message: 'x',
      }),
    ).toEqual(['source', '__proto__', 'subject', 'workspace_id', 'Idempotency-Key']);
  });

  it('lists a nested dropped key after the field holding it, and before the fields the body lacks', () => {
    expect(refusedFields(validatePolicy, '{"keywords":[{"phrase":"","__proto__":{},"weight":99}]}')).toEqual([
      'keywords[0].phrase',
      'keywords[0].__proto__',
      'keywords[0].weight',
    ]);
    expect(refusedFields(signal, '{"zz":{"__proto__":1},"constructor":{"prototype":1}}')).toEqual([
      'zz',
      'zz.__proto__',
      'constructor',
      'workspace_id',
      'source',
      'body',
    ]);
  });

  it('lists the first 100 problems in document order when dropped keys are many', () => {
    const text = `{${Array.from({ length: 120 }, (_, i) => `"a${i}":{"__proto__":1}`).join(',')}}`;
    const fields = refusedFields(signal, text);
    expect(fields).toHaveLength(243);
    expect(fields.slice(0, 100)).toEqual(Array.from({ length: 50 }, (_, i) => [`a${i}`, `a${i}.__proto__`]).flat());
  });
});

describe('a list body', () => {
  const request = (text: string) => {
    const { body, forbiddenKeys } = parsed(text);
    return { event: { body, headers: {} }, forbiddenKeys, consumeRateLimit: async () => {} } as unknown as ApiRequest;
  };
  const fieldsOf = (checked: { ok: boolean; details?: ErrorDetail[] }) => checked.details?.map((d) => d.field);

  it("lists the envelope's dropped keys among its problems", async () => {
    const refused = await takeListBody(BATCH_BODY, request('{"extra":1,"__proto__":{},"signals":"x"}')).catch(
      (err: { details: ErrorDetail[] }) => err.details.map((d) => d.field),
    );
    expect(refused).toEqual(['extra', '__proto__', 'signals']);
  });

  it("lists a batch item's dropped key among that item's problems", async () => {
    const item = '{"source":"nope","__proto__":{},"subject":5}';
    const body = request(`{"signals":[${item},${item}]}`);
    const list = await takeListBody(BATCH_BODY, body);
    expect(fieldsOf(list.checkItem(1, signal(list.items[1])))).toEqual([
      'signals[1].source',
      'signals[1].__proto__',
      'signals[1].subject',
      'signals[1].workspace_id',
    ]);
  });

  it("lists an example's dropped keys among that example's problems", async () => {
    const example = '{"signal":{"source":"fax","constructor":{"prototype":1}},"zzz":1,"__proto__":{}}';
    const list = await takeListBody(IMPORT_BODY, request(`{"examples":[${example}]}`));
    expect(fieldsOf(list.checkItem(0, validateExample(list.items[0], 'ws', now)))).toEqual([
      'examples[0].signal.source',
      'examples[0].signal.constructor',
      'examples[0].signal.body',
      'examples[0].zzz',
      'examples[0].__proto__',
      'examples[0].labels',
    ]);
  });
});
