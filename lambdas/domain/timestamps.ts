// RFC 3339 timestamps in and out, by calendar arithmetic: Date.parse and toISOString give the same answers but cost
// about 8 us each on a request whose caches are cold, and an analyze request used five of them.
// test/unit/timestamps.test.ts holds these to the built-ins.

// Offset or Z required; calendar ranges are checked separately.
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const DAY_MS = 86_400_000;

const isLeapYear = (y: number) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);

/** Days from 1970-01-01 to a date of the proleptic Gregorian calendar (month 1 to 12). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** Parses an RFC 3339 timestamp into epoch ms (fractions truncated to ms, as Date.parse does), or undefined when it is not one (month 13, Feb 30). */
export function parseRfc3339(value: string): number | undefined {
  const m = RFC3339.exec(value);
  if (!m) return undefined;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = Number(m[6]);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  if (day > (month === 2 && isLeapYear(year) ? 29 : MONTH_DAYS[month - 1])) return undefined;
  let offsetMinutes = 0;
  if (m[8] !== undefined) {
    const offsetHours = Number(m[9]);
    const offsetMins = Number(m[10]);
    if (offsetHours > 23 || offsetMins > 59) return undefined;
    offsetMinutes = (m[8] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMins);
  }
  const millis = m[7] === undefined ? 0 : Number(m[7].length >= 3 ? m[7].slice(0, 3) : m[7].padEnd(3, '0'));
  return daysFromCivil(year, month, day) * DAY_MS + ((hour * 60 + minute - offsetMinutes) * 60 + second) * 1000 + millis;
}

/** Date.parse, exactly (NaN included), with RFC 3339 text read arithmetically. */
export function parseInstant(text: string): number {
  return parseRfc3339(text) ?? Date.parse(text);
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** UTC rendering: whole seconds stay whole (`...:00Z`), fractions keep milliseconds. */
export function toUtcString(ms: number): string {
  const iso = isoString(ms);
  return iso.endsWith('.000Z') ? `${iso.slice(0, -5)}Z` : iso;
}

/** new Date(ms).toISOString(), exactly (a RangeError for an invalid time included). */
export function isoString(ms: number): string {
  if (!Number.isInteger(ms)) return new Date(ms).toISOString();
  const days = Math.floor(ms / DAY_MS);
  // Civil date from days since 1970-01-01 (the inverse of daysFromCivil).
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  // Years outside 0000-9999 have toISOString's expanded form.
  if (!(year >= 0 && year <= 9999)) return new Date(ms).toISOString();
  const inDay = ms - days * DAY_MS;
  const seconds = Math.floor(inDay / 1000);
  const time = `${pad(Math.floor(seconds / 3600), 2)}:${pad(Math.floor(seconds / 60) % 60, 2)}:${pad(seconds % 60, 2)}`;
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${time}.${pad(inDay % 1000, 3)}Z`;
}
