// fast-check arbitraries of hostile input, shared by test/e2e/hostile-properties.test.ts and the fuzz test of every
// route (test/e2e/fuzz-routes.test.ts): strings with anything in them, any JSON, numbers JSON.stringify never writes.
import fc from 'fast-check';
import { SIGNAL_FIELDS } from '../../lambdas/http/signal-schema';
import { CONTROL_CHARS } from './hostile';

/** Strings with anything in them: every code point, lone surrogates, controls, and the scorer's own words. One
 * arbitrary per length: building one costs fast-check about 0.1 s (it maps every code point once). */
export const hostileString = (maxLength = 60): fc.Arbitrary<string> => {
  let arbitrary = hostileStrings.get(maxLength);
  if (!arbitrary) hostileStrings.set(maxLength, (arbitrary = buildHostileString(maxLength)));
  return arbitrary;
};
const hostileStrings = new Map<number, fc.Arbitrary<string>>();

const buildHostileString = (maxLength: number): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string({ unit: 'binary', maxLength }),
    fc.string({ unit: fc.constantFrom(...CONTROL_CHARS, 'a', ' ', '@', '<', '>', '"', '\\'), maxLength }),
    fc.string({ unit: 'grapheme', maxLength }),
    fc
      .array(
        fc.constantFrom(
          'outage',
          'urgent',
          'down',
          'refund',
          'lawsuit',
          'unsubscribe',
          'invoice',
          'security',
          'breach',
          'vip',
          'P1',
          'sev1',
          '!!!',
          'ASAP',
          'cancel',
          'http://x.example',
        ),
        { maxLength: 20 },
      )
      .map((w) => w.join(' ')),
  );

export const hostileJson = fc.jsonValue({ maxDepth: 4, stringUnit: 'binary' });

/** A text-level number, beyond what JSON.stringify would ever write. */
export const hostileNumberText = fc.oneof(
  fc.constantFrom(
    '1e400',
    '-1e400',
    '-0',
    '1e-400',
    '123456789012345678901234567890',
    '0.000000000000000000000001',
    '9007199254740993',
  ),
  fc.double().map((d) => (Number.isFinite(d) ? JSON.stringify(d) : '0')),
  fc.bigInt().map(String),
);

/** Any value in any field position, as JSON text. */
export const anyValueText = fc.oneof(
  hostileJson.map((v) => JSON.stringify(v)),
  hostileString(80).map((s) => JSON.stringify(s)),
  hostileNumberText,
);

/** What middy's parser refuses: a `__proto__` key, or a `constructor` key whose value has a `prototype` key. */
export function hasForbiddenKey(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  for (const [k, v] of Object.entries(value)) {
    if (k === '__proto__') return true;
    if (k === 'constructor' && v !== null && typeof v === 'object' && Object.hasOwn(v, 'prototype')) return true;
    if (hasForbiddenKey(v)) return true;
  }
  return false;
}

export const KEY_NAMES = [...SIGNAL_FIELDS, '__proto__', 'constructor', 'prototype', '', ' ', 'toString'];
