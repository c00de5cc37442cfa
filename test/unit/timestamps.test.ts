// RFC 3339 in and out: what a partner may send (received_at, list filters, key expiry) and how the service writes it.
import { parseInstant, parseRfc3339, toUtcString } from '../../lambdas/domain/timestamps';

it('reads RFC 3339 timestamps with Z or an offset, in either case, fractions truncated to milliseconds', () => {
  expect(parseRfc3339('2026-11-21T09:30:00Z')).toBe(Date.UTC(2026, 10, 21, 9, 30));
  expect(parseRfc3339('2026-11-21t09:30:00z')).toBe(Date.UTC(2026, 10, 21, 9, 30));
  expect(parseRfc3339('2026-01-01T00:30:00+01:00')).toBe(Date.UTC(2025, 11, 31, 23, 30));
  expect(parseRfc3339('2026-01-01T23:30:00-01:30')).toBe(Date.UTC(2026, 0, 2, 1, 0));
  expect(parseRfc3339('2026-11-21T09:30:00.1Z')).toBe(Date.UTC(2026, 10, 21, 9, 30, 0, 100));
  expect(parseRfc3339('2026-11-21T09:30:00.123999999Z')).toBe(Date.UTC(2026, 10, 21, 9, 30, 0, 123));
  expect(parseRfc3339('0050-06-01T00:00:00Z')).toBe(Date.parse('0050-06-01T00:00:00Z'));
});

it('keeps leap days and refuses what is not a calendar date and time', () => {
  expect(parseRfc3339('2024-02-29T12:00:00Z')).toBe(Date.UTC(2024, 1, 29, 12));
  expect(parseRfc3339('2000-02-29T12:00:00Z')).toBe(Date.UTC(2000, 1, 29, 12));
  for (const text of [
    '2100-02-29T12:00:00Z',
    '2026-02-30T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-00-10T00:00:00Z',
    '2026-04-31T00:00:00Z',
    '2026-11-21T24:00:00Z',
    '2026-11-21T09:60:00Z',
    '2026-11-21T09:30:60Z',
    '2026-11-21T09:30:00+24:00',
    '2026-11-21T09:30:00+01:60',
    '2026-11-21T09:30:00',
    '2026-11-21 09:30:00Z',
    '2026-11-21',
    '2026-11-21T09:30:00.1234567890Z',
    'yesterday',
  ]) {
    expect([text, parseRfc3339(text)]).toEqual([text, undefined]);
  }
});

it('writes UTC: whole seconds without ".000", milliseconds otherwise, expanded years beyond 0000-9999', () => {
  expect(toUtcString(Date.UTC(2026, 10, 21, 9, 30))).toBe('2026-11-21T09:30:00Z');
  expect(toUtcString(Date.UTC(2026, 10, 21, 9, 30, 0, 250))).toBe('2026-11-21T09:30:00.250Z');
  expect(toUtcString(-1)).toBe('1969-12-31T23:59:59.999Z');
  expect(toUtcString(Date.parse('9999-12-31T23:59:59-01:00'))).toBe('+010000-01-01T00:59:59Z');
  expect(parseInstant('not a time')).toBeNaN();
});
