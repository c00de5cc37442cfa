// Hostile headers, paths and methods over the real HTTP path (see test/support/hostile.ts). Every answer must be a
// contract answer, or a bare refusal by Node's HTTP parser where the request breaks HTTP itself.
//
// What the service answers today where more than one answer would be defensible (HOSTILE_VERBOSE=1 prints them):
// - Content-Encoding is ignored: a plain body claimed as gzip is scored; a gzipped body is 400 INVALID_JSON.
// - bare CR, LF, NUL or other controls in a header, unknown methods, headers over 16 KiB: Node's HTTP parser answers
//   a bare 400/431 before the service runs (API Gateway's edge refuses such requests before the Lambdas too).
// - two Authorization headers: joined with a comma, as API Gateway does, which no key matches: 401 locally and
//   deployed alike.
import { gzipSync } from 'node:zlib';
import {
  ANALYZE,
  KiB,
  codeOf,
  expectPrototypeUntouched,
  fieldsOf,
  note,
  useHostileApi,
  validSignal,
} from '../support/hostile';

jest.setTimeout(120_000);

// Afterwards, in useHostileApi's afterAll (after every test, in any order): Object.prototype is untouched, a normal
// request still works, and every 200 decision of this file reads back with GET, exactly as analyze returned it.
// The answers the tests assert 200: 11 Content-Types, 4 in the header tests, 3 in paths and methods; 1 more from the
// normal request.
const api = useHostileApi('hostile-headers', { decisions: 19 });

describe('headers', () => {
  const body = () => JSON.stringify(validSignal());
  const auth = (k: string) => `Authorization: Bearer ${k}`;

  it('CR/LF in Idempotency-Key cannot inject a header into the answer', async () => {
    const reply = api.expectRefusedOrContract(
      await api.rawAnalyze(
        [auth(api.key), 'Content-Type: application/json', `Idempotency-Key: inj-${Date.now()}\r\nX-Injected: yes`],
        body(),
      ),
      'CRLF',
    );
    // On the wire CRLF ends the header line: this is two headers, and the answer echoes neither.
    expect(reply.headers['x-injected']).toBeUndefined();
    for (const value of Object.values(reply.headers)) expect(value).not.toMatch(/inj-|X-Injected/);
  });

  it.each([
    ['a bare CR', 'abc\rX-Injected: yes'],
    ['a bare LF', 'abc\nX-Injected: yes'],
    ['a NUL', 'abc\u0000def'],
    ['an escape', 'abc\u001bdef'],
    ['a DEL', 'abc\u007fdef'],
  ])('%s in Idempotency-Key: refused by the HTTP parser or a contract 400', async (name, value) => {
    const reply = api.expectRefusedOrContract(
      await api.rawAnalyze([auth(api.key), 'Content-Type: application/json', `Idempotency-Key: ${value}`], body()),
      name,
    );
    expect(reply.status).toBe(400);
    expect(reply.headers['x-injected']).toBeUndefined();
  });

  it('Idempotency-Key with bytes over 0x7F: 400 VALIDATION_ERROR naming Idempotency-Key', async () => {
    for (const bytes of [[0xc3, 0xa9], [0xff], [0x80, 0x81]]) {
      const head = Buffer.concat([Buffer.from('Idempotency-Key: k-'), Buffer.from(bytes)]);
      const reply = api.expectContractAnswer(
        await api.rawAnalyze([auth(api.key), 'Content-Type: application/json', head], body()),
      );
      expect(codeOf(reply)).toBe('VALIDATION_ERROR');
      expect(fieldsOf(reply)).toContain('Idempotency-Key');
    }
  });

  it('Idempotency-Key of 255 characters is fine, 256 is refused', async () => {
    const ok = api.expectContractAnswer(
      await api.send('POST', ANALYZE, {
        key: api.key,
        json: validSignal(),
        headers: { 'idempotency-key': `${Date.now()}`.padEnd(255, 'k') },
      }),
    );
    expect(ok.status).toBe(200);
    const long = api.expectContractAnswer(
      await api.send('POST', ANALYZE, {
        key: api.key,
        json: validSignal(),
        headers: { 'idempotency-key': 'k'.repeat(256) },
      }),
    );
    expect(fieldsOf(long)).toContain('Idempotency-Key');
  });

  it("very long header values: a contract answer up to Node's header limit, a bare 431 beyond it", async () => {
    for (const size of [1 * KiB, 8 * KiB, 15 * KiB]) {
      const pad = 'a'.repeat(size);
      expect(
        api.expectContractAnswer(
          await api.send('POST', ANALYZE, { key: api.key, json: validSignal(), headers: { 'x-padding': pad } }),
        ).status,
      ).toBe(200);
      expect(
        codeOf(
          api.expectContractAnswer(
            await api.send('POST', ANALYZE, { json: validSignal(), headers: { authorization: `Bearer ${pad}` } }),
          ),
        ),
      ).toBe('UNAUTHORIZED');
      expect(
        codeOf(
          api.expectContractAnswer(
            await api.send('POST', ANALYZE, { key: api.key, json: validSignal(), headers: { 'idempotency-key': pad } }),
          ),
        ),
      ).toBe('VALIDATION_ERROR');
      expect(
        codeOf(
          api.expectContractAnswer(
            await api.send('POST', ANALYZE, {
              key: api.key,
              json: validSignal(),
              headers: { 'content-type': `application/json; x=${pad}` },
            }),
          ),
        ),
      ).not.toBe('UNSUPPORTED_MEDIA_TYPE');
    }
    const huge = await api.rawAnalyze(
      [auth(api.key), 'Content-Type: application/json', `X-Padding: ${'a'.repeat(64 * KiB)}`],
      body(),
    );
    expect(api.expectRefusedOrContract(huge, 'huge header').status).toBeLessThan(500);
  });

  it('many headers', async () => {
    const headers: Record<string, string> = {};
    for (let i = 0; i < 500; i++) headers[`x-h${i}`] = String(i);
    const reply = api.expectRefusedOrContract(
      await api.send('POST', ANALYZE, { key: api.key, json: validSignal(), headers }),
      'many headers',
    );
    expect(reply.status).toBeLessThan(500);
  });

  it('two Authorization headers: 401, whichever comes first (joined with a comma, as API Gateway does)', async () => {
    const junkFirst = api.expectContractAnswer(
      await api.rawAnalyze(['Authorization: Bearer junk', auth(api.key), 'Content-Type: application/json'], body()),
    );
    note('two Authorization, junk first', junkFirst);
    expect(codeOf(junkFirst)).toBe('UNAUTHORIZED');
    const validFirst = api.expectContractAnswer(
      await api.rawAnalyze([auth(api.key), 'Authorization: Bearer junk', 'Content-Type: application/json'], body()),
    );
    note('two Authorization, valid first', validFirst);
    expect(codeOf(validFirst)).toBe('UNAUTHORIZED');
    const twoPartners = api.expectContractAnswer(
      await api.rawAnalyze([auth(api.otherKey), auth(api.key), 'Content-Type: application/json'], body()),
    );
    note('two Authorization, globex then acme', twoPartners);
    expect(codeOf(twoPartners)).toBe('UNAUTHORIZED');
  });

  it('Authorization with unicode, controls or odd spacing: 401 UNAUTHORIZED', async () => {
    const variants: (string | Buffer)[] = [
      Buffer.concat([Buffer.from('Authorization: Bearer '), Buffer.from(`${api.key}\u00a0`, 'utf8')]),
      Buffer.concat([Buffer.from('Authorization: Bearer '), Buffer.from(api.key.replace('sas_', 'ѕаѕ_'), 'utf8')]),
      Buffer.concat([Buffer.from('Authorization: '), Buffer.from('Bеarer ', 'utf8'), Buffer.from(api.key)]), // Cyrillic е
      Buffer.concat([Buffer.from('Authorization: Bearer '), Buffer.from('🔑'.repeat(20), 'utf8')]),
      Buffer.concat([
        Buffer.from('Authorization: Bearer '),
        Buffer.from([0xff, 0xfe, 0x00].slice(0, 2)),
        Buffer.from(api.key),
      ]),
      `Authorization: Bearer\t${api.key}`,
      `Authorization: Bearer ${api.key},${api.key}`,
      `Authorization: Bearer ${api.key} ${api.key}`,
      `Authorization: Bearer ${api.key.toUpperCase()}`,
      `Authorization: Bearer "${api.key}"`,
      'Authorization: Bearer',
      'Authorization:',
    ];
    for (const line of variants) {
      const reply = api.expectRefusedOrContract(
        await api.rawAnalyze([line, 'Content-Type: application/json'], body()),
        String(line),
      );
      expect(reply.status).toBe(reply.headers['x-request-id'] ? 401 : 400);
      if (reply.headers['x-request-id']) expect(reply.json.error.message).toBe('Missing or invalid API key.');
    }
  });

  it('gzip Content-Encoding claims: a contract answer whatever the body', async () => {
    const text = body();
    for (const [encoding, payload] of [
      ['gzip', Buffer.from(text)],
      ['gzip', gzipSync(text)],
      ['br', Buffer.from(text)],
      ['identity', Buffer.from(text)],
      ['gzip, gzip, gzip', gzipSync(gzipSync(text))],
      ['x-bogus', Buffer.from(text)],
    ] as [string, Buffer][]) {
      const reply = api.expectContractAnswer(
        await api.send('POST', ANALYZE, {
          key: api.key,
          body: payload,
          headers: { 'content-type': 'application/json', 'content-encoding': encoding },
        }),
        `content-encoding ${encoding}`,
      );
      note(`content-encoding ${encoding} (${payload[0] === 0x1f ? 'gzipped' : 'plain'} body)`, reply);
      expect([200, 400, 415]).toContain(reply.status);
    }
    // A gzip bomb: 300 KiB of zeros compress to a few hundred bytes and are never inflated.
    const bomb = gzipSync(Buffer.alloc(300 * KiB));
    const reply = api.expectContractAnswer(
      await api.send('POST', ANALYZE, {
        key: api.key,
        body: bomb,
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      }),
    );
    note('gzip bomb', reply);
    expect([400, 413, 415]).toContain(reply.status);
  });

  it.each([
    ['application/json', 200],
    ['APPLICATION/JSON', 200],
    ['application/json;charset=UTF-8', 200],
    ['application/json; charset=utf-8', 200],
    ['application/json; charset="utf-8"; boundary=x', 200],
    ['application/json;;', 200],
    ['application/json; charset=iso-8859-1', 200],
    ['application/json; q=0.5, text/plain', 200],
    ['application/json ; charset=utf-8', 200],
    ['application/json\t;x=y', 200],
    ['application/json, text/plain', 415],
    ['application/jsonp', 415],
    ['application/json-patch+json', 415],
    ['application/vnd.api+json', 415],
    ['text/json', 415],
    ['json', 415],
    ['application/', 415],
    ['*/*', 415],
    ['multipart/form-data; boundary=application/json', 415],
    [' application/json', 200], // leading OWS is not part of the header value
  ])('Content-Type %j: %d', async (type, status) => {
    const reply = api.expectContractAnswer(
      await api.send('POST', ANALYZE, { key: api.key, body: body(), headers: { 'content-type': type } }),
      type,
    );
    expect(reply.status).toBe(status);
    if (status === 415) expect(codeOf(reply)).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('no Content-Type, an empty one, and two of them', async () => {
    expect(codeOf(api.expectContractAnswer(await api.rawAnalyze([auth(api.key)], body())))).toBe(
      'UNSUPPORTED_MEDIA_TYPE',
    );
    expect(codeOf(api.expectContractAnswer(await api.rawAnalyze([auth(api.key), 'Content-Type:'], body())))).toBe(
      'UNSUPPORTED_MEDIA_TYPE',
    );
    const two = api.expectContractAnswer(
      await api.rawAnalyze([auth(api.key), 'Content-Type: text/plain', 'Content-Type: application/json'], body()),
    );
    note('two Content-Type, text/plain first', two);
    expect([200, 415]).toContain(two.status);
  });
});

describe('paths and methods', () => {
  it('odd decision ids and paths: a contract 404/405, never 5xx', async () => {
    const ids = [
      '%00',
      '%ff',
      '%E0%A4%A',
      '..%2f..%2fetc%2fpasswd',
      'dec_' + '0'.repeat(26),
      'dec_' + 'Z'.repeat(5000),
      '%F0%9F%94%91',
      'dec_01JD2X5R8Q4T7W9Y3K6M1N0P2S%00',
      '__proto__',
      'constructor',
    ];
    for (const id of ids) {
      const reply = api.expectContractAnswer(await api.send('GET', `/api/v1/decisions/${id}`, { key: api.key }), id);
      expect(codeOf(reply)).toBe('DECISION_NOT_FOUND');
    }
    for (const path of [
      '/api/v1/signals/analyze/',
      '/api/v1//signals/analyze',
      '/API/V1/signals/analyze',
      '/api/v1/signals/analyze%00',
      '/api/v1/signals/%2e%2e/analyze',
      `/${'a/'.repeat(2000)}`,
    ]) {
      const reply = api.expectContractAnswer(await api.send('POST', path, { key: api.key, json: validSignal() }), path);
      expect([404, 405]).toContain(reply.status);
    }
    const withQuery = api.expectContractAnswer(
      await api.send('POST', `${ANALYZE}?__proto__[polluted]=yes&constructor[prototype][polluted]=yes&a=%ff`, {
        key: api.key,
        json: validSignal(),
      }),
    );
    expect(withQuery.status).toBe(200);
    expectPrototypeUntouched();
  });

  it('odd methods: a contract 404/405 or a bare 400 from the HTTP parser', async () => {
    // HEAD has no body in its answer; CONNECT takes over the socket.
    for (const method of ['PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND', 'TRACE', 'post', 'FOO']) {
      const reply = api.expectRefusedOrContract(
        await api.sendRaw(
          [`${method} ${ANALYZE} HTTP/1.1`, `Authorization: Bearer ${api.key}`, 'Content-Type: application/json'],
          Buffer.from('{}'),
        ),
        method,
      );
      expect([400, 404, 405]).toContain(reply.status);
    }
  });

  it('header names that are Object.prototype members: a normal answer', async () => {
    const names = [
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
      'valueOf',
      'isPrototypeOf',
      '__defineGetter__',
    ];
    const reply = api.expectContractAnswer(
      await api.rawAnalyze(
        [`Authorization: Bearer ${api.key}`, 'Content-Type: application/json', ...names.map((n) => `${n}: x`)],
        JSON.stringify(validSignal()),
      ),
    );
    expect(reply.status).toBe(200);
    const get = api.expectContractAnswer(
      await api.sendRaw([
        `GET /api/v1/decisions/${reply.json.decision_id} HTTP/1.1`,
        `Authorization: Bearer ${api.key}`,
        ...names.map((n) => `${n}: x`),
      ]),
    );
    expect(get.status).toBe(200);
    const fallback = api.expectContractAnswer(
      await api.sendRaw(['GET /nope HTTP/1.1', ...names.map((n) => `${n}: x`)]),
    );
    expect(codeOf(fallback)).toBe('NOT_FOUND');
    const query = api.expectContractAnswer(
      await api.send('POST', `${ANALYZE}?__proto__=x&constructor=y&toString=z&hasOwnProperty=1&valueOf=2`, {
        key: api.key,
        json: validSignal(),
      }),
    );
    expect(query.status).toBe(200);
    expectPrototypeUntouched();
  });
});
