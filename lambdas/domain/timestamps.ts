// RFC 3339 timestamps in and out, on Date's own parser and printer.

// Offset or Z required; the calendar (no month 13, no Feb 30) is checked apart.
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-](\d{2}):(\d{2}))$/;

/** Whether the day exists (no month 13, no February 30): Date.parse rolls such a day over into the next month. */
export function isCalendarDate(year: number, month: number, day: number): boolean {
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0 to 99 as 1900 to 1999.
  const calendar = new Date(0);
  calendar.setUTCFullYear(year, month - 1, day);
  return calendar.getUTCFullYear() === year && calendar.getUTCMonth() === month - 1 && calendar.getUTCDate() === day;
}

/** Epoch ms of an RFC 3339 timestamp (fractions truncated to ms), or undefined when it is not one (month 13, Feb 30). */
export function parseRfc3339(value: string): number | undefined {
  const m = RFC3339.exec(value);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  const [offsetHours, offsetMinutes] = [m[9], m[10]].map((x) => (x === undefined ? 0 : Number(x)));
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return undefined;
  if (!isCalendarDate(year, month, day)) return undefined;
  const fraction = (m[7] ?? '').slice(0, 4);
  return Date.parse(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${fraction}${m[8].toUpperCase()}`);
}

/**
 * Why a value is not a timestamp parseRfc3339 reads: the RFC 3339 form, or, when it has that form, the date or time
 * that does not exist (February 30, 25:00, a leap second), which "with Z or an offset" would misname.
 */
export function rfc3339Problem(value: string): string {
  return RFC3339.test(value)
    ? 'is not a date and time that exists (a month, day, hour, minute, second or offset out of range)'
    : 'must be an RFC 3339 timestamp with Z or an offset';
}

/** Epoch ms of any timestamp Date understands, NaN for anything else. */
export function parseInstant(text: string): number {
  return Date.parse(text);
}

/** API Gateway's longest integration timeout: no request is handled longer than this after its receipt. */
export const RECEIPT_SKEW_MS = 30_000;

/**
 * When the service received a request (docs/partners.md: a request's rate limit window, a signal's default
 * `received_at`): the gateway's receipt time (requestContext.timeEpoch), not when its handler ran, after a cold start
 * or a batch's body; `nowMs` when the receipt time is missing or further from it than a request can wait in the
 * gateway (RECEIPT_SKEW_MS).
 */
export function receiptTime(receivedMs: unknown, nowMs: number): number {
  return typeof receivedMs === 'number' && Math.abs(nowMs - receivedMs) <= RECEIPT_SKEW_MS ? receivedMs : nowMs;
}

/** UTC rendering: whole seconds stay whole (`...:00Z`), fractions keep milliseconds. */
export function toUtcString(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.endsWith('.000Z') ? `${iso.slice(0, -5)}Z` : iso;
}
