// Wall-clock arithmetic in a named IANA time zone, with nothing but Intl: which calendar day an
// instant falls on there, and the instant a calendar day starts. Slots are stored and computed in
// UTC; the visitor picks a day in their own zone, and a day there may last 23 or 25 hours.

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** A calendar date, 'YYYY-MM-DD'. */
export type DayKey = string;

const partsFormats = new Map<string, Intl.DateTimeFormat>();

function partsFormat(zone: string): Intl.DateTimeFormat {
  let format = partsFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    partsFormats.set(zone, format);
  }
  return format;
}

/** The wall clock in `zone` at `ms`, read as if it were UTC (ms since the epoch). */
function wallClock(ms: number, zone: string): number {
  const parts: Record<string, number> = {};
  for (const part of partsFormat(zone).formatToParts(new Date(ms)))
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return Date.UTC(
    parts.year,
    parts.month - 1,
    parts.day,
    parts.hour % 24,
    parts.minute,
    parts.second,
  );
}

/** The zone's offset from UTC at an instant, in ms (Berlin in winter: +3 600 000). */
export function offsetAt(ms: number, zone: string): number {
  const whole = Math.floor(ms / 1000) * 1000;
  return wallClock(whole, zone) - whole;
}

/** Whether the browser's Intl knows this zone. */
export function isKnownZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The visitor's zone as the browser reports it (UTC when it reports none). */
export function browserZone(): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone && isKnownZone(zone) ? zone : 'UTC';
}

/** The zones to choose from: the browser's list, with `current` in it whatever the browser says. */
export function zoneChoices(current: string): string[] {
  const supported =
    typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const zones = new Set(supported);
  zones.add('UTC');
  zones.add(current);
  return [...zones].sort((a, b) => a.localeCompare(b));
}

/** The calendar day an instant falls on in `zone`. */
export function dayOf(instant: Date | string | number, zone: string): DayKey {
  const ms = new Date(instant).getTime();
  return new Date(wallClock(ms, zone)).toISOString().slice(0, 10);
}

/** The day `days` after (or before) a calendar date. */
export function addDays(day: DayKey, days: number): DayKey {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The first instant of a calendar day in `zone`: local midnight, or, where the clocks jump over
 * midnight, the instant they jump.
 */
export function startOfDay(day: DayKey, zone: string): Date {
  const local = Date.parse(`${day}T00:00:00Z`);
  // At most one offset change within a day either side: midnight is one of these two readings.
  const offsets = new Set([
    offsetAt(local - 14 * HOUR_MS, zone),
    offsetAt(local + 14 * HOUR_MS, zone),
  ]);
  const exact = [...offsets]
    .map((offset) => local - offset)
    .filter((ms) => wallClock(ms, zone) === local);
  if (exact.length) return new Date(Math.min(...exact));
  // Midnight does not exist that day: the day starts where the clocks jump past it.
  let low = local - 14 * HOUR_MS - 12 * HOUR_MS;
  let high = local + 14 * HOUR_MS;
  while (high - low > 1000) {
    const middle = Math.floor((low + high) / 2000) * 1000;
    if (dayOf(middle, zone) >= day) high = middle;
    else low = middle;
  }
  return new Date(high);
}

/** The UTC instants bounding the local days [from, to) in `zone`, as ISO strings. */
export function utcBounds(from: DayKey, to: DayKey, zone: string): { from: string; to: string } {
  return {
    from: startOfDay(from, zone).toISOString(),
    to: startOfDay(to, zone).toISOString(),
  };
}

// ---- Formatting: always in a named zone, never the browser's by default ------------------------

const formats = new Map<string, Intl.DateTimeFormat>();

function format(zone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${zone}|${JSON.stringify(options)}`;
  let cached = formats.get(key);
  if (!cached) {
    cached = new Intl.DateTimeFormat('en-US', { ...options, timeZone: zone });
    formats.set(key, cached);
  }
  return cached;
}

/** A zone as people read it: 'America/New York'. */
export function zoneLabel(zone: string): string {
  return zone.replace(/_/g, ' ');
}

/** The zone's short name or offset at an instant ('EST', 'GMT+1'). */
export function zoneAbbreviation(instant: Date | string, zone: string): string {
  return (
    format(zone, { timeZoneName: 'short' })
      .formatToParts(new Date(instant))
      .find((part) => part.type === 'timeZoneName')?.value ?? zone
  );
}

/** A time of day in `zone`: '9:30 AM'. */
export function formatTime(instant: Date | string, zone: string): string {
  return format(zone, { hour: 'numeric', minute: '2-digit' }).format(new Date(instant));
}

/** A date in `zone`: 'Tuesday, December 1, 2026'. */
export function formatDate(instant: Date | string, zone: string): string {
  return format(zone, { dateStyle: 'full' }).format(new Date(instant));
}

/** A calendar day itself (no zone involved): 'Tuesday, December 1, 2026'. */
export function formatDay(day: DayKey): string {
  return format('UTC', { dateStyle: 'full' }).format(new Date(`${day}T12:00:00Z`));
}

/** A month: 'December 2026'. */
export function formatMonth(month: string): string {
  return format('UTC', { month: 'long', year: 'numeric' }).format(
    new Date(`${month}-15T12:00:00Z`),
  );
}

/**
 * A booking's time in `zone`, the zone named: 'Tuesday, December 1, 2026, 9:00 AM – 9:30 AM
 * (Europe/Berlin, GMT+1)'. An end on another day gets its own date.
 */
export function formatSpan(start: string, end: string, zone: string): string {
  const sameDay = dayOf(start, zone) === dayOf(end, zone);
  const tail = sameDay
    ? formatTime(end, zone)
    : `${formatDate(end, zone)}, ${formatTime(end, zone)}`;
  return `${formatDate(start, zone)}, ${formatTime(start, zone)} – ${tail} (${zoneLabel(zone)}, ${zoneAbbreviation(start, zone)})`;
}
