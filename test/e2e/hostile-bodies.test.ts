// Hostile request bodies over the real HTTP path (see test/support/hostile.ts): bodies that are not (valid) JSON,
// deep nesting, odd numbers, `__proto__` and other prototype keys, control characters, size limits, duplicate keys
// and wrong types. Every answer must be a contract answer.
//
// What the service answers today where more than one answer would be defensible (HOSTILE_VERBOSE=1 prints them):
// - `__proto__` anywhere, or `constructor` holding a `prototype`: the body is parsed without those keys and refused
//   with 400 VALIDATION_ERROR, details [{field: "metadata.__proto__" | "constructor", ...}] (the key's JSON path), after
//   the workspace grant check as the contract orders it. Other prototype-ish keys are plain data.
// - a body that is not valid UTF-8 anywhere: 400 INVALID_JSON (it was decoded lossily, U+FFFD, and scored). A UTF-8
//   BOM before the JSON is ignored.
// - duplicate keys: the last one wins, for the grant check and validation alike.
import { randomUUID } from 'node:crypto';
import { SOURCES } from '../../lambdas/domain/signal';
import { SIGNAL_FIELDS } from '../../lambdas/http/signal-schema';
import {
  ANALYZE,
  CONTROL_CHARS,
  KiB,
  codeOf,
  depthOf,
  expectPrototypeUntouched,
  fieldsOf,
  nested,
  note,
  objectText,
  signalText,
  useHostileApi,
  validEntries,
  validSignal,
} from '../support/hostile';

jest.setTimeout(120_000);

// Afterwards, in useHostileApi's afterAll (after every test, in any order): Object.prototype is untouched, a normal
// request still works, and every 200 decision of this file reads back with GET, exactly as analyze returned it.
// The control-character cases alone answer hundreds of 200s.
const api = useHostileApi('hostile-bodies', { decisions: 101 });

describe('bodies that are not (valid) JSON', () => {
  const json = (text: string | Buffer, headers?: Record<string, string>) => api.postJson(text, headers);
  const expect400 = async (name: string, text: string, code: string) => {
    const reply = api.expectContractAnswer(await json(text), name);
    expect({ status: reply.status, code: codeOf(reply) }).toEqual({ status: 400, code });
  };

  it.each([
    ['empty', ''],
    ['whitespace', ' \n\t '],
    ['NaN', '{"workspace_id":"ws_a","source":"email","subject":"x","metadata":{"amount":NaN}}'],
    ['Infinity', '{"workspace_id":"ws_a","source":"email","subject":"x","metadata":{"amount":Infinity}}'],
    ['a raw NUL inside a string', '{"workspace_id":"ws_a","source":"email","subject":"a\u0000b"}'],
    ['a raw newline inside a string', '{"workspace_id":"ws_a","source":"email","subject":"a\nb"}'],
    ['single quotes', "{'workspace_id':'ws_a'}"],
    ['a trailing comma', '{"workspace_id":"ws_a","source":"email","subject":"x",}'],
    ['a comment', '{"workspace_id":"ws_a"/* c */,"source":"email","subject":"x"}'],
    ['two documents', '{"workspace_id":"ws_a","source":"email","subject":"x"}{}'],
    ['a bad escape', '{"workspace_id":"ws_a","source":"email","subject":"\\x41"}'],
    ['truncated', '{"workspace_id":"ws_a","source":"em'],
    ['bare words', 'undefined'],
    ['hex number', '{"workspace_id":"ws_a","source":"email","subject":"x","metadata":{"amount":0x10}}'],
    ['leading zeros', '{"workspace_id":"ws_a","source":"email","subject":"x","metadata":{"amount":007}}'],
  ])('%s: 400 INVALID_JSON', (name, text) => expect400(name, text, 'INVALID_JSON'));

  it.each([
    ['null', 'null'],
    ['an array', '[]'],
    ['an array of a valid signal', `[${JSON.stringify(validSignal())}]`],
    ['a string', '"x"'],
    ['a number', '123'],
    ['a boolean', 'true'],
    ['an empty object', '{}'],
  ])('a body of %s is valid JSON but not a signal: 400 VALIDATION_ERROR', (name, text) =>
    expect400(name, text, 'VALIDATION_ERROR'),
  );

  const prefix = Buffer.from('{"workspace_id":"ws_a","source":"email","subject":"');
  const suffix = Buffer.from('"}');
  it.each([
    ['a lone 0xFF', [0xff]],
    ['a lone continuation byte', [0x80]],
    ['an overlong "/"', [0xc0, 0xaf]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
    ['a truncated 3-byte sequence', [0xe2, 0x82]],
    ['a 5-byte sequence', [0xf8, 0x88, 0x80, 0x80, 0x80]],
    ['above U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
    ['latin-1 é', [0xe9]],
  ])('invalid UTF-8 (%s) inside a string: 400 INVALID_JSON, nothing scored', async (name, bytes) => {
    const reply = api.expectContractAnswer(await json(Buffer.concat([prefix, Buffer.from(bytes), suffix])), name);
    note(`invalid UTF-8 ${name}`, reply);
    // The local server (like API Gateway) passes a body that is not UTF-8 in base64; decoded lossily (U+FFFD), the
    // signal was scored on text the partner never sent.
    expect({ status: reply.status, code: codeOf(reply) }).toEqual({ status: 400, code: 'INVALID_JSON' });
  });

  it('invalid UTF-8 in a key or in workspace_id: 400 INVALID_JSON, before the workspace check', async () => {
    const inKey = Buffer.concat([
      Buffer.from('{"workspace_id":"ws_a","source":"email","subject":"x","'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('":1}'),
    ]);
    expect(codeOf(api.expectContractAnswer(await json(inKey), 'invalid UTF-8 key'))).toBe('INVALID_JSON');
    const inWorkspace = Buffer.concat([
      Buffer.from('{"workspace_id":"ws_'),
      Buffer.from([0xc3]),
      Buffer.from('","source":"email","subject":"x"}'),
    ]);
    // The body is not JSON, so it names no workspace: parsing comes before the workspace check.
    expect(codeOf(api.expectContractAnswer(await json(inWorkspace), 'invalid UTF-8 workspace'))).toBe('INVALID_JSON');
  });

  it('a whole body in UTF-16 claimed as charset=utf-16: a contract 400', async () => {
    const utf16 = Buffer.from(`\ufeff${JSON.stringify(validSignal())}`, 'utf16le');
    const reply = api.expectContractAnswer(
      await json(utf16, { 'content-type': 'application/json; charset=utf-16' }),
      'utf-16',
    );
    expect(reply.status).toBe(400);
  });

  // RFC 8259 lets a parser ignore a BOM; some Windows tools write one.
  it('a UTF-8 byte-order mark before the JSON is ignored: the signal is analyzed, and replays without it', async () => {
    const text = JSON.stringify(validSignal());
    const key = `bom-${randomUUID()}`;
    const bom = api.expectContractAnswer(
      await json(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]), { 'idempotency-key': key }),
      'BOM',
    );
    expect(bom.status).toBe(200);
    const plain = api.expectContractAnswer(await json(text, { 'idempotency-key': key }), 'no BOM');
    expect(plain.status).toBe(200);
    expect(plain.json.decision_id).toBe(bom.json.decision_id);
    // Only one, at the start: a second one is not JSON.
    const twice = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf]), Buffer.from(text)]);
    expect(codeOf(api.expectContractAnswer(await json(twice), 'two BOMs'))).toBe('INVALID_JSON');
  });
});

describe('deep nesting', () => {
  it.each([
    ['10,000 levels of [', () => nested('[', ']', 10_000, '')],
    ['10,000 levels of {', () => nested('{"a":', '}', 10_000)],
    ['10,000 levels of [ and { mixed', () => nested('[{"a":', '}]', 5_000)],
    ['120,000 levels of [ (just under 256 KiB)', () => nested('[', ']', 120_000, '')],
    ['10,000 levels as metadata', () => signalText({ metadata: nested('{"a":', '}', 10_000) })],
    ['10,000 levels as subject', () => signalText({ subject: nested('[', ']', 10_000, '') })],
    [
      '10,000 levels as workspace_id of a foreign workspace',
      () => signalText({ workspace_id: nested('[', ']', 10_000, '"ws_c"') }),
    ],
  ])('%s: a 400, never 5xx', async (name, text) => {
    const reply = api.expectContractAnswer(await api.postJson(text()), name);
    note(name, reply);
    expect(reply.status).toBe(400);
    expect(['INVALID_JSON', 'VALIDATION_ERROR']).toContain(codeOf(reply));
  });

  it('metadata nested exactly 5 deep is accepted, 6 deep is refused naming metadata', async () => {
    const five = { a: { b: { c: { d: { e: 'x' } } } } }; // metadata itself is depth 1
    expect(depthOf(five)).toBe(5);
    expect(
      api.expectContractAnswer(await api.send('POST', ANALYZE, { key: api.key, json: validSignal({ metadata: five }) }))
        .status,
    ).toBe(200);
    const six = { a: { b: { c: { d: { e: ['x'] } } } } };
    expect(depthOf(six)).toBe(6);
    const reply = api.expectContractAnswer(
      await api.send('POST', ANALYZE, { key: api.key, json: validSignal({ metadata: six }) }),
    );
    expect(reply.status).toBe(400);
    expect(fieldsOf(reply)).toContain('metadata');
  });
});

describe('numbers', () => {
  const numbers = [
    '1e400',
    '-1e400',
    '1e-400',
    '-0',
    '123456789012345678901234567890',
    '-123456789012345678901234567890',
    '0.1e1',
    '9007199254740993',
    '1E+2',
  ];
  it.each(numbers)(
    '%s in metadata (amount, deal_value, due_at, severity, vip, tags, customer_tier): 200',
    async (n) => {
      const metadata = `{"amount":${n},"deal_value":${n},"due_at":${n},"severity":${n},"vip":${n},"tags":[${n}],"customer_tier":${n},"x":{"y":[${n}]}}`;
      for (const source of SOURCES) {
        const text = `{"workspace_id":"ws_a","source":"${source}","subject":"Renewal of our contract","metadata":${metadata}}`;
        const reply = api.expectContractAnswer(await api.postJson(text), n);
        expect(reply.status).toBe(200);
        expect(Number.isInteger(reply.json.score)).toBe(true);
      }
    },
  );

  it.each(numbers)('%s in every top-level field: 400 VALIDATION_ERROR naming the field', async (n) => {
    for (const field of ['workspace_id', 'source', 'subject', 'body', 'sender', 'received_at', 'metadata']) {
      const entries = validEntries().map(([k, v]): [string, string] => [k, k === field ? n : v]);
      const reply = api.expectContractAnswer(await api.postJson(objectText(entries)), `${field}=${n}`);
      expect({ status: reply.status, code: codeOf(reply) }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
      expect(fieldsOf(reply)).toContain(field);
    }
  });

  it('"NaN", "Infinity" and huge numbers as text in metadata: 200', async () => {
    const metadata = {
      amount: 'NaN',
      deal_value: 'Infinity',
      due_at: 'NaN',
      severity: 'NaN',
      x: '1e400',
      y: '-0',
      z: '99999999999999999999999999999999999999',
    };
    expect(
      api.expectContractAnswer(
        await api.send('POST', ANALYZE, { key: api.key, json: validSignal({ source: 'crm_event', metadata }) }),
      ).status,
    ).toBe(200);
  });
});

describe('__proto__, constructor and prototype keys', () => {
  const polluting: [string, string][] = [
    ['__proto__ at top level', `{"__proto__":{"polluted":"yes"},"workspace_id":"ws_a","source":"email","subject":"x"}`],
    ['__proto__ as the only key', `{"__proto__":{"polluted":"yes"}}`],
    ['__proto__ as null', `{"workspace_id":"ws_a","source":"email","subject":"x","__proto__":null}`],
    [
      'constructor.prototype at top level',
      `{"constructor":{"prototype":{"polluted":"yes"}},"workspace_id":"ws_a","source":"email","subject":"x"}`,
    ],
    [
      '__proto__ in metadata',
      `{"workspace_id":"ws_a","source":"email","subject":"x","metadata":{"__proto__":{"polluted":"yes"}}}`,
    ],
    [
      '__proto__ deep in metadata',
      `{"workspace_id":"ws_a","source":"email","subject":"x","metadata":{"a":[{"b":{"__proto__":{"polluted":"yes"}}}]}}`,
    ],
    [
      'constructor.prototype in metadata',
      `{"workspace_id":"ws_a","source":"email","subject":"x","metadata":{"constructor":{"prototype":{"polluted":"yes"}}}}`,
    ],
    [
      '__proto__ escaped as \\u005f\\u005fproto\\u005f\\u005f',
      `{"workspace_id":"ws_a","source":"email","subject":"x","\\u005f\\u005fproto\\u005f\\u005f":{"polluted":"yes"}}`,
    ],
    [
      'constructor escaped as \\u0063onstructor, in metadata',
      `{"workspace_id":"ws_a","source":"email","subject":"x","metadata":{"\\u0063onstructor":{"prototype":{"polluted":"yes"}}}}`,
    ],
  ];
  it.each(polluting)(
    '%s: 400 VALIDATION_ERROR naming the key, Object.prototype untouched, next request fine',
    async (name, text) => {
      const reply = api.expectContractAnswer(await api.postJson(text), name);
      note(name, reply);
      if (process.env.HOSTILE_VERBOSE) process.stdout.write(`[hostile]   ${reply.text}\n`);
      expect({ status: reply.status, code: codeOf(reply) }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
      expect(fieldsOf(reply).some((f) => /(^|\.)(__proto__|constructor)$/.test(f))).toBe(true);
      expectPrototypeUntouched();
      await api.expectNormalRequestWorks();
    },
  );

  it('lists a prototype key where the body holds it, among its other problems, in a signal and a batch item', async () => {
    // docs/partners.md, "Errors": details in the order they appear in the body.
    const text = '{"workspace_id":"ws_a","source":"nope","__proto__":{"polluted":"yes"},"subject":5}';
    const single = api.expectContractAnswer(await api.postJson(text), 'one signal');
    expect({ status: single.status, code: codeOf(single) }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
    expect(fieldsOf(single)).toEqual(['source', '__proto__', 'subject']);
    const batch = await api.send('POST', '/api/v1/signals/analyze-batch', {
      key: api.key,
      body: `{"signals":[${JSON.stringify(validSignal())},${text}]}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(batch.status).toBe(200);
    expect(batch.json.data[1].error.details.map((d: { field: string }) => d.field)).toEqual([
      'signals[1].source',
      'signals[1].__proto__',
      'signals[1].subject',
    ]);
    expectPrototypeUntouched();
  });

  it.each([
    ['__proto__', `{"workspace_id":"ws_c","source":"email","subject":"x","__proto__":{"polluted":"yes"}}`],
    [
      'constructor.prototype',
      `{"constructor":{"prototype":{"polluted":"yes"}},"workspace_id":"ws_c","source":"email"}`,
    ],
  ])(
    '%s with a workspace the key has no grant for: 403 WORKSPACE_NOT_ALLOWED first, as the contract orders',
    async (name, text) => {
      const reply = api.expectContractAnswer(await api.postJson(text), name);
      expect({ status: reply.status, code: codeOf(reply) }).toEqual({ status: 403, code: 'WORKSPACE_NOT_ALLOWED' });
      expectPrototypeUntouched();
    },
  );

  it.each([
    [
      'constructor (a string) at top level',
      `{"constructor":"x","workspace_id":"ws_a","source":"email","subject":"x"}`,
      'constructor',
    ],
    [
      'prototype at top level',
      `{"prototype":{"polluted":"yes"},"workspace_id":"ws_a","source":"email","subject":"x"}`,
      'prototype',
    ],
    [
      'hasOwnProperty at top level',
      `{"hasOwnProperty":1,"workspace_id":"ws_a","source":"email","subject":"x"}`,
      'hasOwnProperty',
    ],
    ['toString at top level', `{"toString":"x","workspace_id":"ws_a","source":"email","subject":"x"}`, 'toString'],
  ])('%s: an unknown field, 400 naming it', async (name, text, field) => {
    const reply = api.expectContractAnswer(await api.postJson(text), name);
    expect({ status: reply.status, code: codeOf(reply) }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
    expect(fieldsOf(reply)).toContain(field);
    expectPrototypeUntouched();
  });

  it('constructor, prototype, hasOwnProperty, toString and valueOf as metadata keys are plain data: 200', async () => {
    const metadata = {
      constructor: 'x',
      prototype: { polluted: 'yes' },
      hasOwnProperty: 1,
      toString: 'y',
      valueOf: null,
      customer_tier: { toString: 1 },
      tags: { length: 5 },
    };
    expect(
      api.expectContractAnswer(await api.send('POST', ANALYZE, { key: api.key, json: validSignal({ metadata }) }))
        .status,
    ).toBe(200);
    expectPrototypeUntouched();
    await api.expectNormalRequestWorks();
  });

  it('source and workspace_id naming Object.prototype members are refused', async () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      const reply = api.expectContractAnswer(
        await api.send('POST', ANALYZE, { key: api.key, json: validSignal({ source: name }) }),
        `source=${name}`,
      );
      expect(fieldsOf(reply)).toContain('source');
      // A workspace named like a prototype member has no grant (the grant list is an array, not an object).
      const ws = api.expectContractAnswer(
        await api.send('POST', ANALYZE, { key: api.key, json: validSignal({ workspace_id: name.replace(/_/g, 'x') }) }),
      );
      expect(codeOf(ws)).toBe('WORKSPACE_NOT_ALLOWED');
    }
    expectPrototypeUntouched();
  });
});

describe('control characters, NUL and odd code points in every string field', () => {
  const fields = [
    ...SIGNAL_FIELDS.filter((field) => field !== 'metadata'),
    'metadata key',
    'metadata value',
    'Idempotency-Key',
  ];
  it.each(fields)('%s', async (field) => {
    for (const c of CONTROL_CHARS) {
      for (const where of ['start', 'middle', 'end', 'alone'] as const) {
        const put = (s: string) =>
          where === 'start' ? c + s : where === 'end' ? s + c : where === 'alone' ? c : s.slice(0, 2) + c + s.slice(2);
        let body: Record<string, unknown> = validSignal();
        const headers: Record<string, string> = {};
        if (field === 'metadata key') body = validSignal({ metadata: { [put('customer_tier')]: 'enterprise' } });
        else if (field === 'metadata value')
          body = validSignal({ metadata: { customer_tier: put('enterprise'), tags: [put('urgent')] } });
        else if (field === 'Idempotency-Key') {
          // node:http refuses to send controls in a header; those go over a raw socket below.
          if (!/^[\t\x20-\x7e\x80-\xff]*$/.test(put('idem-key'))) continue;
          headers['idempotency-key'] = put(`idem-${randomUUID()}`);
        } else body = validSignal({ [field]: put(String(validSignal()[field])) });
        const reply = api.expectContractAnswer(
          await api.send('POST', ANALYZE, { key: api.key, json: body, headers }),
          `${field} ${JSON.stringify(c)} ${where}`,
        );
        expect([200, 400, 403]).toContain(reply.status);
      }
    }
  });

  it('a subject of nothing but whitespace and controls is blank (no metadata): 400 naming body', async () => {
    const reply = api.expectContractAnswer(
      await api.send('POST', ANALYZE, {
        key: api.key,
        json: { workspace_id: 'ws_a', source: 'task', subject: ' \t\n\u00a0\u2028 ', body: '\r\n' },
      }),
    );
    expect(reply.status).toBe(400);
    expect(fieldsOf(reply)).toContain('body');
  });
});

describe('size limits', () => {
  const analyze = (text: string) => api.postJson(text);
  /** A signal whose serialized size is exactly `bytes`, padded in `field` with `unit`. */
  function sized(bytes: number, field: 'subject' | 'body' | 'sender' | 'metadata', unit = 'x'): string {
    const make = (n: number) =>
      JSON.stringify(
        field === 'metadata'
          ? validSignal({ metadata: { note: unit.repeat(n) } })
          : validSignal({ [field]: unit.repeat(n) }),
      );
    const base = Buffer.byteLength(make(0));
    const n = Math.floor((bytes - base) / Buffer.byteLength(unit));
    const text = make(n);
    return text + ' '.repeat(bytes - Buffer.byteLength(text));
  }
  const under = 250 * KiB;
  const over = 256 * KiB + 1;

  it.each(['subject', 'body', 'sender', 'metadata'] as const)(
    'a 250 KiB %s (body just under 256 KiB): 400 VALIDATION_ERROR naming it',
    async (field) => {
      const reply = api.expectContractAnswer(await analyze(sized(under, field)), field);
      expect({ status: reply.status, code: codeOf(reply) }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
      expect(fieldsOf(reply)).toContain(field);
    },
  );

  it.each(['subject', 'body', 'sender', 'metadata'] as const)(
    'a %s pushing the body just over 256 KiB: 413 PAYLOAD_TOO_LARGE',
    async (field) => {
      const reply = api.expectContractAnswer(await analyze(sized(over, field)), field);
      expect({ status: reply.status, code: codeOf(reply) }).toEqual({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
    },
  );

  it('exactly 256 KiB with a 200,000-character body is accepted; multi-byte characters count as bytes', async () => {
    const text = JSON.stringify(validSignal({ body: 'x'.repeat(200_000) }));
    const padded = text + ' '.repeat(256 * KiB - Buffer.byteLength(text));
    expect(Buffer.byteLength(padded)).toBe(256 * KiB);
    expect(api.expectContractAnswer(await analyze(padded)).status).toBe(200);
    // 140,000 "é" are within the 200,000-character rule but over 256 KiB as UTF-8.
    const wide = JSON.stringify(validSignal({ body: 'é'.repeat(140_000) }));
    expect(codeOf(api.expectContractAnswer(await analyze(wide)))).toBe('PAYLOAD_TOO_LARGE');
    // Escapes count as the bytes sent: 50,000 "\u00e9" escapes are 300,000 bytes.
    const escaped = JSON.stringify(validSignal({ body: '' })).replace(
      '"body":""',
      `"body":"${'\\u00e9'.repeat(50_000)}"`,
    );
    expect(codeOf(api.expectContractAnswer(await analyze(escaped)))).toBe('PAYLOAD_TOO_LARGE');
  });

  it('a 3 MiB body: 413 from the service (under the gateway limit), in the contract shape', async () => {
    const reply = api.expectContractAnswer(await analyze(sized(3 * 1024 * KiB, 'body')));
    expect(codeOf(reply)).toBe('PAYLOAD_TOO_LARGE');
  });

  it('over 256 KiB and not JSON, or with the wrong media type: still 413 (size comes first)', async () => {
    const junk = Buffer.alloc(300 * KiB, 0xff);
    for (const type of ['application/json', 'application/octet-stream'])
      expect(codeOf(api.expectContractAnswer(await api.postJson(junk, { 'content-type': type })))).toBe(
        'PAYLOAD_TOO_LARGE',
      );
  });
});

describe('duplicate keys', () => {
  it('the last duplicate wins, consistently for the grant check, validation and the stored decision', async () => {
    const analyze = (text: string) => api.postJson(text);
    const twoSources = `{"workspace_id":"ws_a","source":"email","source":"task","subject":"Prepare the quarterly report"}`;
    const reply = api.expectContractAnswer(await analyze(twoSources));
    expect(reply.status).toBe(200);
    expect(reply.json.source).toBe('task');
    // Only the last workspace counts: a foreign one last is refused, a granted one last is allowed.
    expect(
      codeOf(
        api.expectContractAnswer(
          await analyze(`{"workspace_id":"ws_a","workspace_id":"ws_c","source":"task","subject":"x"}`),
        ),
      ),
    ).toBe('WORKSPACE_NOT_ALLOWED');
    const granted = api.expectContractAnswer(
      await analyze(`{"workspace_id":"ws_c","workspace_id":"ws_a","source":"task","subject":"x"}`),
    );
    expect(granted.status).toBe(200);
    expect(granted.json.workspace_id).toBe('ws_a');
    // A valid value hidden by an invalid one is refused, and the reverse is accepted.
    expect(
      codeOf(
        api.expectContractAnswer(await analyze(`{"workspace_id":"ws_a","source":"task","source":"fax","subject":"x"}`)),
      ),
    ).toBe('VALIDATION_ERROR');
    expect(
      api.expectContractAnswer(
        await analyze(`{"workspace_id":"ws_a","source":"task","subject":"x","metadata":[],"metadata":{}}`),
      ).status,
    ).toBe(200);
  });
});

describe('wrong types in every field', () => {
  const wrong: [string, unknown][] = [
    ['0', 0],
    ['-1', -1],
    ['1.5', 1.5],
    ['[]', []],
    ['["x"]', ['x']],
    ['{}', {}],
    ['{"a":1}', { a: 1 }],
    ['null', null],
    ['true', true],
    ['false', false],
  ];
  const fields = ['workspace_id', 'source', 'subject', 'body', 'sender', 'received_at', 'metadata'];
  it.each(fields)('%s', async (field) => {
    for (const [label, value] of wrong) {
      if (field === 'metadata' && value !== null && typeof value === 'object' && !Array.isArray(value)) continue; // objects are metadata's type
      const reply = api.expectContractAnswer(
        await api.send('POST', ANALYZE, { key: api.key, json: validSignal({ [field]: value }) }),
        `${field}=${label}`,
      );
      expect({ status: reply.status, code: codeOf(reply) }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
      expect(fieldsOf(reply)).toContain(field);
    }
  });

  it('every field wrong at once: one detail per field', async () => {
    const body = { workspace_id: 7, source: [], subject: {}, body: true, sender: null, received_at: 1, metadata: 'x' };
    const reply = api.expectContractAnswer(await api.send('POST', ANALYZE, { key: api.key, json: body }));
    expect(codeOf(reply)).toBe('VALIDATION_ERROR');
    expect(fieldsOf(reply).sort()).toEqual(Object.keys(body).sort());
  });

  it('wrong-typed Idempotency-Key-like values never matter: headers are strings', async () => {
    for (const value of ['', ' ', 'x'.repeat(256), '[]', '{}', 'null', '\t']) {
      const reply = api.expectContractAnswer(
        await api.send('POST', ANALYZE, { key: api.key, json: validSignal(), headers: { 'idempotency-key': value } }),
        `idem=${JSON.stringify(value)}`,
      );
      expect([200, 400]).toContain(reply.status);
    }
  });
});
