// Availability as the owner edits it and as the database stores it. The database keeps each range
// as minutes of the local day ([540, 1020] is 09:00–17:00, 1440 the end of the day); the editor
// shows them as HH:MM. A day's ranges are stored sorted, each start before its end, none
// overlapping (supabase/schemas/18-booking.sql checks the same again).
import type { BookingOverride, BookingRange } from '../../lib/database';

/** The end of a day in minutes: a range may end at 24:00. */
const DAY_MINUTES = 1440;

/** Index 0 is Monday, as the database's `weekly` array has it. */
export const WEEKDAYS = [
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
  'Sunday',
] as const;

/** A range as typed: two HH:MM texts. */
export interface RangeValues {
  start: string;
  end: string;
}

/** A date override as edited: a day off, or ranges that replace that date's weekly ones. */
export interface OverrideValues {
  /** YYYY-MM-DD, the owner's local date in the form's time zone. */
  date: string;
  dayOff: boolean;
  ranges: RangeValues[];
}

const TIME = /^(\d{1,2}):(\d{2})$/;

/** Minutes of the day for an HH:MM text (24:00 is the day's end); null when it is none. */
export function parseTime(text: string): number | null {
  const match = TIME.exec(text.trim());
  if (!match) return null;
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  if (minutes > 59 || hours > 24 || (hours === 24 && minutes > 0)) return null;
  return hours * 60 + minutes;
}

/** HH:MM for minutes of the day. */
export function formatTime(minutes: number): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

export const toRangeValues = ([start, end]: BookingRange): RangeValues => ({
  start: formatTime(start),
  end: formatTime(end),
});

/**
 * What is wrong with one range of a day, field by field; empty when nothing is. `others` are the
 * day's other ranges, to find an overlap.
 */
export function rangeProblems(
  range: RangeValues,
  others: readonly RangeValues[],
): { start?: string; end?: string } {
  const start = parseTime(range.start);
  const end = parseTime(range.end);
  const problems: { start?: string; end?: string } = {};
  if (start === null)
    problems.start = range.start.trim() ? 'Use HH:MM, e.g. 09:00.' : 'Enter a start time.';
  if (end === null)
    problems.end = range.end.trim() ? 'Use HH:MM, e.g. 17:00.' : 'Enter an end time.';
  if (problems.start || problems.end || start === null || end === null) return problems;
  if (start >= end) return { end: 'The end must be after the start.' };
  const overlap = others.find((other) => {
    const otherStart = parseTime(other.start);
    const otherEnd = parseTime(other.end);
    if (otherStart === null || otherEnd === null || otherStart >= otherEnd) return false;
    // Ranges that only touch (one ends as the next starts) do not overlap.
    return start < otherEnd && otherStart < end;
  });
  return overlap ? { start: `Overlaps ${overlap.start.trim()}–${overlap.end.trim()}.` } : {};
}

/** A day's ranges as stored: minutes, sorted by start. The values must be valid (rangeProblems). */
export function toStoredRanges(ranges: readonly RangeValues[]): BookingRange[] {
  return ranges
    .map((range): BookingRange => [parseTime(range.start) ?? 0, parseTime(range.end) ?? 0])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

/** Overrides as stored: sorted by date, a day off with no ranges. */
export function toStoredOverrides(overrides: readonly OverrideValues[]): BookingOverride[] {
  return [...overrides]
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0))
    .map((override) => ({
      date: override.date,
      ranges: override.dayOff ? [] : toStoredRanges(override.ranges),
    }));
}

export const toOverrideValues = (override: BookingOverride): OverrideValues => ({
  date: override.date,
  dayOff: override.ranges.length === 0,
  ranges: override.ranges.map(toRangeValues),
});

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether a text is a real calendar date written YYYY-MM-DD. */
export function isIsoDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === text;
}

/** The default week: Monday to Friday 09:00–17:00, the weekend off (the column's default). */
export const DEFAULT_WEEKLY: BookingRange[][] = [
  [[540, 1020]],
  [[540, 1020]],
  [[540, 1020]],
  [[540, 1020]],
  [[540, 1020]],
  [],
  [],
];

/** A new range after a day's last one: an hour later, else the morning. */
export function nextRange(ranges: readonly RangeValues[]): RangeValues {
  const ends = ranges.map((range) => parseTime(range.end)).filter((end) => end !== null);
  const last = ends.length ? Math.max(...ends) : null;
  if (last === null) return { start: '09:00', end: '17:00' };
  const start = Math.min(last + 60, DAY_MINUTES - 60);
  return { start: formatTime(start), end: formatTime(Math.min(start + 60, DAY_MINUTES)) };
}
