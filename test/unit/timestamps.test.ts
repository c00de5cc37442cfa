// RFC 3339 by calendar arithmetic, held to the built-ins it replaces: Date.parse for reading, toISOString for writing.
import fc from 'fast-check';
import { isoString, parseInstant, parseRfc3339, toUtcString } from '../../lambdas/domain/timestamps';

const two = (n: number) => String(n).padStart(2, '0');
// Every field over its whole written range, impossible values included (month 13, Feb 30, 24:00, offset +24:00).
const timestamp = fc
  .record({
    year: fc.integer({ min: 0, max: 9999 }),
    month: fc.integer({ min: 0, max: 13 }),
    day: fc.integer({ min: 0, max: 32 }),
    hour: fc.integer({ min: 0, max: 24 }),
    minute: fc.integer({ min: 0, max: 60 }),
    second: fc.integer({ min: 0, max: 60 }),
    fraction: fc.option(fc.stringMatching(/^\d{1,9}$/), { nil: undefined }),
    zone: fc.oneof(
      fc.constantFrom('Z', 'z'),
      fc.tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 24 }), fc.integer({ min: 0, max: 60 })).map(([s, h, m]) => `${s}${two(h)}:${two(m)}`),
    ),
    t: fc.constantFrom('T', 't'),
  })
  .map(({ year, month, day, hour, minute, second, fraction, zone, t }) =>
    `${String(year).padStart(4, '0')}-${two(month)}-${two(day)}${t}${two(hour)}:${two(minute)}:${two(second)}${fraction === undefined ? '' : `.${fraction}`}${zone}`,
  );

/** What the built-ins say: a real calendar date and time (Date.UTC round trip), then Date.parse. */
function builtIn(text: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|[+-](\d{2}):(\d{2}))$/.exec(text.toUpperCase());
  if (!m) return undefined;
  const [year, month, day, hour, minute, second, oh, om] = m.slice(1).map((x) => (x === undefined ? 0 : Number(x)));
  const probe = new Date(0);
  probe.setUTCFullYear(year, month - 1, day);
  if (probe.getUTCFullYear() !== year || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) return undefined;
  if (hour > 23 || minute > 59 || second > 59 || oh > 23 || om > 59) return undefined;
  const ms = Date.parse(text.toUpperCase());
  return Number.isNaN(ms) ? undefined : ms;
}

it('reads every timestamp as Date.parse does, and refuses what is not a calendar date and time', () => {
  fc.assert(fc.property(timestamp, (text) => parseRfc3339(text) === builtIn(text)), { numRuns: 20_000 });
});

it('parseInstant is Date.parse, whatever the text', () => {
  const text = fc.oneof(timestamp, fc.string(), timestamp.map((t) => t.replace('T', ' ')), timestamp.map((t) => t.slice(0, 10)));
  fc.assert(fc.property(text, (t) => Object.is(parseInstant(t), Date.parse(t))), { numRuns: 20_000 });
});

it('writes every instant of years 0000 to 9999 as toISOString does (toUtcString: whole seconds without ".000")', () => {
  const instant = fc.integer({ min: new Date('0000-01-01T00:00:00Z').getTime(), max: new Date('9999-12-31T23:59:59.999Z').getTime() });
  fc.assert(
    fc.property(fc.oneof(instant, instant.map((ms) => ms - (ms % 1000))), (ms) => {
      const iso = new Date(ms).toISOString();
      return isoString(ms) === iso && toUtcString(ms) === (iso.endsWith('.000Z') ? `${iso.slice(0, -5)}Z` : iso);
    }),
    { numRuns: 20_000 },
  );
});

it('keeps the edges: leap days, offsets across midnight and years, the expanded years beyond 0000-9999', () => {
  expect(parseRfc3339('2024-02-29T12:00:00Z')).toBe(Date.parse('2024-02-29T12:00:00Z'));
  expect(parseRfc3339('2100-02-29T12:00:00Z')).toBeUndefined();
  expect(parseRfc3339('2000-02-29T12:00:00Z')).toBe(Date.parse('2000-02-29T12:00:00Z'));
  expect(parseRfc3339('2026-01-01T00:30:00+01:00')).toBe(Date.parse('2025-12-31T23:30:00Z'));
  expect(parseRfc3339('2026-11-21T09:30:00.123999999Z')).toBe(Date.parse('2026-11-21T09:30:00.123Z'));
  expect(toUtcString(Date.parse('0000-01-01T00:30:00+01:00'))).toBe('-000001-12-31T23:30:00Z');
  expect(toUtcString(Date.parse('9999-12-31T23:59:59-01:00'))).toBe('+010000-01-01T00:59:59Z');
  expect(toUtcString(Date.parse('2026-11-21T09:30:00.25Z'))).toBe('2026-11-21T09:30:00.250Z');
  expect(toUtcString(-1)).toBe('1969-12-31T23:59:59.999Z');
  expect(isoString(0)).toBe('1970-01-01T00:00:00.000Z');
  expect(() => isoString(Number.NaN)).toThrow(RangeError);
});
