// The booking page's calendar: free slots (UTC starts) grouped into the visitor's local days, the
// month grid those days are picked from, and the UTC range of a month to ask booking_slots for.
import { addDays, dayOf, formatTime, utcBounds, zoneAbbreviation, type DayKey } from './zoned-time';

/** A calendar month, 'YYYY-MM'. */
export type MonthKey = string;

/** booking_slots refuses a range longer than this. */
export const MAX_SLOT_RANGE_DAYS = 62;

/** Slot starts grouped by the day they fall on in `zone`, each day's starts in order. */
export function groupSlotsByDay(slots: readonly string[], zone: string): Map<DayKey, string[]> {
  const days = new Map<DayKey, string[]>();
  const sorted = [...slots].sort((a, b) => Date.parse(a) - Date.parse(b));
  for (const slot of sorted) {
    const day = dayOf(slot, zone);
    const list = days.get(day);
    if (list) list.push(slot);
    else days.set(day, [slot]);
  }
  return days;
}

/**
 * The labels of a day's slot buttons: the local time, and where the clocks go back and a time
 * comes twice, the zone's offset too ('1:30 AM EDT', '1:30 AM EST').
 */
export function slotLabels(slots: readonly string[], zone: string): string[] {
  const times = slots.map((slot) => formatTime(slot, zone));
  return times.map((time, i) =>
    times.indexOf(time) !== times.lastIndexOf(time)
      ? `${time} ${zoneAbbreviation(slots[i], zone)}`
      : time,
  );
}

export function monthOf(day: DayKey): MonthKey {
  return day.slice(0, 7);
}

export function addMonths(month: MonthKey, months: number): MonthKey {
  const [year, index] = month.split('-').map(Number);
  const date = new Date(Date.UTC(year, index - 1 + months, 1));
  return date.toISOString().slice(0, 7);
}

/** The first day of a month, and of the month after it. */
function monthDays(month: MonthKey): { first: DayKey; next: DayKey } {
  return { first: `${month}-01`, next: `${addMonths(month, 1)}-01` };
}

/** Monday = 0 … Sunday = 6 (a date's weekday is the same in every zone). */
export function weekdayOf(day: DayKey): number {
  return (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;
}

/**
 * The month as weeks from Monday to Sunday: each cell a day of the month, or null before the
 * first and after the last.
 */
export function monthGrid(month: MonthKey): (DayKey | null)[][] {
  const { first, next } = monthDays(month);
  const cells: (DayKey | null)[] = Array.from({ length: weekdayOf(first) }, () => null);
  for (let day = first; day < next; day = addDays(day, 1)) cells.push(day);
  while (cells.length % 7) cells.push(null);
  const weeks: (DayKey | null)[][] = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
}

/**
 * The UTC range to ask booking_slots for so that a month's local days are covered, from `today`
 * on (earlier days have no free slots). null when the whole month is past.
 */
export function monthRange(
  month: MonthKey,
  today: DayKey,
  zone: string,
): { from: string; to: string } | null {
  const { first, next } = monthDays(month);
  const from = first > today ? first : today;
  if (from >= next) return null;
  return utcBounds(from, next, zone);
}

/** The last local day on which the page may have slots: today plus the form's horizon. */
export function lastBookableDay(today: DayKey, maxDaysAhead: number): DayKey {
  // One day more: the horizon counts from now in the owner's zone, which may be ahead of ours.
  return addDays(today, maxDaysAhead + 1);
}
