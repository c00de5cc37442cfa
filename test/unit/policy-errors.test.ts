// A refused policy names every problem in one answer, each at its own JSON path, saying what the field must be
// (docs/partners.md, "Errors" and "Workspace policy"): a partner fixes the body once, not once per problem.
import { generateApiKey } from '../../lambdas/domain/api-key';
import { validatePolicy } from '../../lambdas/http/policy-schema';

const DECREASING =
  'must be strictly decreasing (critical > high > medium) once missing ones take their defaults 80, 60, 35';
const NOT_BOTH = 'a category may get its queue from routing or from its entry in categories, not both';

/** The details a partner gets for this body (validatePolicy's, in the order the answer lists them). */
function detailsOf(body: unknown) {
  const result = validatePolicy(body);
  if (result.ok) throw new Error('the policy was taken');
  return result.details;
}

describe('the problems across fields come with the problems of single fields', () => {
  it('thresholds that are not decreasing, beside a bad VIP sender', () => {
    expect(detailsOf({ thresholds: { high: 90 }, vip_senders: ['nope'] })).toEqual([
      { field: 'thresholds', message: DECREASING },
      { field: 'vip_senders[0]', message: 'must be an address (ann@acme.com) or a domain (@acme.com)' },
    ]);
  });

  it('a queue from routing and from categories, beside a bad learning', () => {
    expect(
      detailsOf({ categories: [{ name: 'vat', queue: 'tax' }], routing: { vat: 'tax2' }, learning: 'yes' }),
    ).toEqual([
      { field: 'routing', message: NOT_BOTH },
      { field: 'learning', message: 'must be true or false' },
    ]);
  });

  it('each, beside problems elsewhere in the fields they read', () => {
    expect(
      detailsOf({
        categories: [
          { name: 'vat', queue: 'tax', description: 'x'.repeat(201) },
          { name: 'hr', colour: 'red' },
        ],
        routing: { vat: 'tax2', billing: 7 },
        thresholds: { high: 90, low: 10 },
      }),
    ).toEqual([
      { field: 'categories[0].description', message: 'must be at most 200 characters' },
      { field: 'categories[1].colour', message: 'is not a field of a category' },
      { field: 'routing', message: NOT_BOTH },
      { field: 'routing.billing', message: 'must be a queue name' },
      { field: 'thresholds', message: DECREASING },
      { field: 'thresholds.low', message: 'is not a threshold' },
    ]);
  });

  it('an API key in the policy, beside a bad field and in its place: the fixed retry meets no second refusal', () => {
    const key = generateApiKey();
    expect(detailsOf({ learning: 'yes', keywords: [{ phrase: `use ${key}`, weight: 1 }], extra: 1 })).toEqual([
      { field: 'learning', message: 'must be true or false' },
      { field: 'keywords[0].phrase', message: 'must not hold an API key' },
      { field: 'extra', message: 'is not a field of a policy' },
    ]);
    // Part of a key gives the whole key away (its checksum is public): refused alike, in any case.
    for (const part of [key.slice(0, -1), key.toUpperCase()])
      expect(detailsOf({ categories: [{ name: 'vat', description: `ask ${part}` }] })).toEqual([
        { field: 'categories[0].description', message: 'must not hold an API key' },
      ]);
  });

  it('a body nested 200,000 levels deep is refused for its shape, not walked to its bottom for an API key', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(detailsOf({ keywords: deep })).toEqual([
      { field: 'keywords[0]', message: 'must be an object {phrase, weight, category?, queue?}' },
    ]);
  });

  it('not when a field they read is itself wrong', () => {
    expect(detailsOf({ thresholds: { high: 'x' }, categories: [null], routing: { vat: 'q' } })).toEqual([
      { field: 'thresholds.high', message: 'must be an integer' },
      { field: 'categories[0]', message: 'must be an object {name, queue?, description?}' },
    ]);
    expect(detailsOf({ categories: [{ name: 'vat', queue: 'tax' }], routing: ['vat'] })).toEqual([
      { field: 'routing', message: 'must be a JSON object' },
    ]);
  });
});

describe('routing', () => {
  it('names a bad key and a bad value, each at its own path', () => {
    expect(detailsOf({ routing: { ok_cat: 'q', 'Bad Key': 'q', billing: 7, sales: 'Sales Team' } })).toEqual([
      {
        field: 'routing["Bad Key"]',
        message: 'is not a category name: a routing key must match ^[a-z][a-z0-9_]{0,63}$',
      },
      { field: 'routing.billing', message: 'must be a queue name' },
      { field: 'routing.sales', message: 'must match ^[a-z][a-z0-9_]{0,63}$' },
    ]);
  });

  it('names a bad key once, when its value is bad too', () => {
    expect(detailsOf({ routing: { 'Bad Key': null } })).toEqual([
      {
        field: 'routing["Bad Key"]',
        message: 'is not a category name: a routing key must match ^[a-z][a-z0-9_]{0,63}$',
      },
    ]);
  });

  it('takes any category name as a key, `constructor` included, and refuses a bad queue for it', () => {
    expect(validatePolicy({ routing: { constructor: 'builders', prototype: 'q' } })).toEqual({
      ok: true,
      policy: { routing: { constructor: 'builders', prototype: 'q' } },
    });
    expect(detailsOf({ routing: { constructor: 'Not A Queue' } })).toEqual([
      { field: 'routing.constructor', message: 'must match ^[a-z][a-z0-9_]{0,63}$' },
    ]);
  });

  it('is an object of at most 200 categories', () => {
    expect(detailsOf({ routing: ['q'] })).toEqual([{ field: 'routing', message: 'must be a JSON object' }]);
    expect(detailsOf({ routing: 'q' })).toEqual([{ field: 'routing', message: 'must be a JSON object' }]);
    const many = Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`c${i}`, 'q']));
    expect(detailsOf({ routing: many })).toEqual([{ field: 'routing', message: 'must map at most 200 categories' }]);
  });
});

describe('a value of the wrong type is told what it must be', () => {
  it.each([
    [{ thresholds: 5 }, 'thresholds', 'must be an object with critical, high and/or medium'],
    [{ response_minutes: 'x' }, 'response_minutes', 'must be an object with critical, high, medium and/or low'],
    [{ keywords: [5] }, 'keywords[0]', 'must be an object {phrase, weight, category?, queue?}'],
    [{ categories: [null] }, 'categories[0]', 'must be an object {name, queue?, description?}'],
    [{ keywords: 'x' }, 'keywords', 'must be an array of keywords'],
    [{ vip_senders: 'a@b.example' }, 'vip_senders', 'must be an array of addresses and domains'],
    // An array is no object: `"thresholds": []` was stored as `{}`, and `[90]` named `thresholds.0`.
    [{ thresholds: [] }, 'thresholds', 'must be an object with critical, high and/or medium'],
    [{ thresholds: [90] }, 'thresholds', 'must be an object with critical, high and/or medium'],
    [{ response_minutes: [] }, 'response_minutes', 'must be an object with critical, high, medium and/or low'],
    [{ keywords: [[]] }, 'keywords[0]', 'must be an object {phrase, weight, category?, queue?}'],
    [{ categories: [['vat']] }, 'categories[0]', 'must be an object {name, queue?, description?}'],
  ])('%j', (body, field, message) => {
    expect(detailsOf(body)).toEqual([{ field, message }]);
  });

  it('while a key the object does not take is still named as such', () => {
    expect(
      detailsOf({
        keywords: [{ phrase: 'x', weight: 1, colour: 'red' }],
        categories: [{ name: 'vat', colour: 'red' }],
        thresholds: { low: 10, lowest: 5 },
        response_minutes: { urgent: 5 },
      }),
    ).toEqual([
      { field: 'keywords[0].colour', message: 'is not a field of a keyword' },
      { field: 'categories[0].colour', message: 'is not a field of a category' },
      { field: 'thresholds.low', message: 'is not a threshold' },
      { field: 'thresholds.lowest', message: 'is not a threshold' },
      { field: 'response_minutes.urgent', message: 'is not a priority' },
    ]);
  });
});

describe('a keyword', () => {
  const INVISIBLE = 'must hold a visible character, not only soft hyphens or zero-width characters';
  it.each([['\u00AD'], ['\u200B\u2060'], [' \uFEFF\u00AD '], ['\u200D'], ['\u200C\u200D']])(
    'of nothing but invisible characters is refused: %j',
    (phrase) => {
      expect(detailsOf({ keywords: [{ phrase, weight: 5 }] })).toEqual([
        { field: 'keywords[0].phrase', message: INVISIBLE },
      ]);
    },
  );

  it('with an invisible character inside a word is taken, as written', () => {
    expect(validatePolicy({ keywords: [{ phrase: 'Kün\u00ADdigung', weight: 5 }] })).toEqual({
      ok: true,
      policy: { keywords: [{ phrase: 'Kün\u00ADdigung', weight: 5 }] },
    });
  });
});

describe('a sender list', () => {
  const NOT_A_SENDER = 'must be an address (ann@acme.com) or a domain (@acme.com)';
  it('takes a domain in Unicode, as written', () => {
    const senders = ['@münchen.de', 'ann@bücher.example', '@stadt.MÜNCHEN.de', '@xn--mnchen-3ya.de', 'ann@acme。com'];
    expect(validatePolicy({ vip_senders: senders })).toEqual({ ok: true, policy: { vip_senders: senders } });
  });

  it.each([
    // No valid IDN: domainToASCII refuses it.
    ['@xn--a.münchen.de'],
    // Its ASCII form has a label of more than 63 characters.
    [`@${'ü'.repeat(60)}.de`],
    ['@münchen'],
    // The same in an address.
    ['ann@xn--a.münchen.de'],
    [`ann@${'ü'.repeat(60)}.de`],
  ])('refuses a domain in Unicode that is no valid domain name: %j', (sender) => {
    expect(detailsOf({ vip_senders: [sender] })).toEqual([{ field: 'vip_senders[0]', message: NOT_A_SENDER }]);
  });
});
