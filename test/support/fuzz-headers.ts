// Headers for the fuzz test's requests (fuzz-requests.ts): media types, Idempotency-Key and If-Match values, extra and
// huge headers, and Authorization headers that name the full key or no valid key.
import fc from 'fast-check';
import { BASE62, keyChecksum } from '../../lambdas/domain/api-key';
import { type FuzzWorld, longString, PROTOTYPE_NAMES } from './fuzz-values';

/** Header values Node's client will send: latin1 without CR, LF or NUL. */
export const headerValue = (maxLength: number) =>
  fc.oneof(
    fc.string({
      unit: fc.constantFrom(...'aZ09 \t"\'<>{}[]\\/:;,=*%$@!~^`|'.split(''), '\u00e4', '\u00ff', '\u0080'),
      maxLength,
    }),
    // eslint-disable-next-line no-control-regex -- control characters are exactly what it removes
    fc.string({ unit: 'binary-ascii', maxLength }).map((s) => s.replace(/[\x00-\x08\x0a-\x1f\x7f]/g, '')),
  );

export const JSON_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json;charset=UTF-8',
];
export const OTHER_TYPES = [
  'application/json;charset=UTF-16',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/jsonx',
  'application/vnd.api+json',
  '',
  ' application/json',
  'application/json, text/plain',
  '*/*',
];

export const idempotencyKey = fc.option(
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom('fuzz-1', 'fuzz-2', 'fuzz-3', 'fuzz-4', 'fuzz 5', '*') },
    {
      weight: 4,
      arbitrary: fc
        .string({ unit: 'binary-ascii', minLength: 1, maxLength: 255 })
        .map((s) => s.replace(/[^\x21-\x7e]/g, 'k') || 'k'),
    },
    { weight: 1, arbitrary: longString(256, 4_000).map((s) => s.replace(/[^\x20-\x7e]/g, 'k')) },
    { weight: 1, arbitrary: headerValue(80) },
  ),
  { nil: undefined, freq: 3 },
);

export const ifMatch = fc.option(
  fc.oneof(
    fc.constantFrom(
      '"0"',
      '0',
      '"1"',
      '*',
      'W/"1"',
      '"-1"',
      '"1.5"',
      '"99999999999999999999999"',
      '""',
      '"abc"',
      '1, 2',
    ),
    fc.nat().map((n) => `"${n}"`),
    headerValue(40),
  ),
  {
    nil: undefined,
    freq: 2,
  },
);

const HEADER_NAMES = [
  'x-forwarded-for',
  'x-amzn-trace-id',
  'x-api-key',
  'accept',
  'accept-encoding',
  'content-encoding',
  'origin',
  'cookie',
  'user-agent',
  'x-request-id',
  'forwarded',
  'if-none-match',
  'range',
  'expect-ct',
  ...PROTOTYPE_NAMES.map((n) => n.toLowerCase()),
];
export const extraHeaders = fc.array(
  fc.tuple(fc.oneof(fc.constantFrom(...HEADER_NAMES), fc.stringMatching(/^x-[a-z0-9-]{1,20}$/)), headerValue(200)),
  { maxLength: 4 },
);
export const hugeHeader = fc
  .tuple(fc.constantFrom('x-padding', 'user-agent', 'cookie'), longString(2_000, 9_000, fc.constantFrom('a', 'b=c; ')))
  .map(([n, v]): [string, string] => [n, v]);

/** Authorization headers that name no valid key (or a valid one said wrong). */
export function refusedAuthorization(w: FuzzWorld): fc.Arbitrary<string[]> {
  const k = w.keys;
  // Well-formed keys nobody issued: they pass the checksum, so each costs the authorizer a read (then its cache).
  const unknownKey = fc
    .tuple(
      fc.constantFrom('sas_live_', 'sas_test_'),
      fc.string({ unit: fc.constantFrom(...BASE62), minLength: 32, maxLength: 32 }),
    )
    .map(([p, s]) => p + s + keyChecksum(p + s));
  const keyLike = fc
    .tuple(
      fc.constantFrom('sas_live_', 'sas_test_', 'sas_prod_', ''),
      fc.string({ unit: fc.constantFrom(...'0189AZaz'), minLength: 38, maxLength: 38 }),
    )
    .map(([p, s]) => p + s);
  return fc.oneof(
    fc.constant([] as string[]),
    fc.constantFrom(k.otherPartner, k.inactive, k.revoked, k.readOnly, k.limited).map((key) => [`Bearer ${key}`]),
    keyLike.map((key) => [`Bearer ${key}`]),
    unknownKey.map((key) => [`Bearer ${key}`]),
    fc.constant(k.full).map((key) => [`Basic ${key}`]),
    fc.constant(k.full).map((key) => [key]),
    fc.constant(k.full).map((key) => [`Bearer ${key}x`]),
    fc.constant(k.full).map((key) => [`Bearer ${key.slice(0, -1)}${key.endsWith('0') ? '1' : '0'}`]),
    fc.constant(k.full).map((key) => [`Bearer ${key}`, `Bearer ${key}`]),
    fc.constant(k.full).map((key) => [`Bearer  ${key} `]),
    headerValue(300).map((v) => [`Bearer ${v}`]),
    headerValue(100).map((v) => [v]),
    longString(1_000, 8_000, fc.constantFrom('A', 'sas_live_')).map((v) => [`Bearer ${v}`]),
  );
}

export const grantedAuthorization = (w: FuzzWorld) =>
  fc.constantFrom('Bearer', 'bearer', 'BEARER', 'BeArEr').map((scheme) => [`${scheme} ${w.keys.full}`]);
