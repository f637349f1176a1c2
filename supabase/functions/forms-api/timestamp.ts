// The moments the read API takes in `since` and in a cursor: ISO 8601 whose day and time exist
// (no February 31st, no hour 24, zones up to ±15:59) and whose instant, in UTC, lies in the years
// 0001 to 9999. Postgres's timestamptz has no year 0 and fails on a day that does not exist, and
// no entry is dated outside those years: such a parameter is the client's mistake (400), never a
// storage failure to retry (503).

/** The first moment served: 0001-01-01T00:00:00Z. */
export const EARLIEST_INSTANT = Date.parse('0001-01-01T00:00:00Z');
/** The last moment served, to the millisecond: 9999-12-31T23:59:59.999Z. */
export const LATEST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|([+-])(\d{2})(?::?(\d{2}))?))?$/i;

const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

function daysIn(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * The instant (milliseconds since 1970, sub-milliseconds dropped) of a date (`2026-11-24`,
 * midnight UTC) or of a date-time with a zone (`2026-11-24T09:30:00.123456+02:00`), or null when
 * the text is neither, names a day or time that does not exist, or falls outside 0001–9999 UTC.
 * The callers check their own stricter grammar first.
 */
export function isoInstant(text: string): number | null {
  const m = ISO.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, fraction, zone, sign, zh, zm] = m;
  // A time needs its zone: without one the moment depends on the server's.
  if (h !== undefined && zone === undefined) return null;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h ?? 0);
  const minute = Number(mi ?? 0);
  const second = Number(s ?? 0);
  const zoneHours = Number(zh ?? 0);
  const zoneMinutes = Number(zm ?? 0);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59 || zoneHours > 15 || zoneMinutes > 59) return null;

  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, takes years 0–99 as they are (not as 1900–1999).
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, Number((fraction ?? '').padEnd(3, '0').slice(0, 3)));
  const offset = (sign === '-' ? -1 : 1) * (zoneHours * 60 + zoneMinutes) * 60_000;
  const instant = date.getTime() - offset;
  return instant >= EARLIEST_INSTANT && instant <= LATEST_INSTANT ? instant : null;
}
