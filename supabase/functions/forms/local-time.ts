// A moment in the reader's own time zone, with the zone always named: "Fri, 2 Jan 2026, 04:04:05
// (Europe/Berlin, UTC+01:00)". A zone that is missing or that this runtime does not know gives the
// time in UTC, saying so. Pure: the same output under Deno and Node (both carry full ICU data).

export interface LocalTime {
  /** Date and time in the zone, e.g. "Fri, 2 Jan 2026, 04:04:05". */
  when: string;
  /** The zone as shown, e.g. "Europe/Berlin, UTC+01:00" or "UTC". */
  zone: string;
  /** Both together: "Fri, 2 Jan 2026, 04:04:05 (Europe/Berlin, UTC+01:00)". */
  text: string;
  /** The zone actually used ("UTC" after a fall-back). */
  timeZone: string;
}

/**
 * One formatter per zone, kept: building one costs about 0.2 ms, using it a hundredth of that, and
 * every notification needs one. Zones are a few hundred names; an unknown one throws and is not
 * kept.
 */
const formats = new Map<string, Intl.DateTimeFormat>();
const MAX_KEPT_FORMATS = 1_000;

function formatIn(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (format) return format;
  format = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'longOffset',
  });
  if (formats.size >= MAX_KEPT_FORMATS) formats.clear();
  formats.set(timeZone, format);
  return format;
}

function partsIn(at: Date, timeZone: string): Record<string, string> {
  const parts: Record<string, string> = {};
  for (const part of formatIn(timeZone).formatToParts(at)) parts[part.type] = part.value;
  return parts;
}

/**
 * The last second shown per zone: posts arriving together share it, and formatting a moment
 * costs more than all the rest of a notification's text.
 */
const lastShown = new Map<string, { second: number; shown: LocalTime }>();

/** `at` in `timeZone` (an IANA name), or in UTC when the zone is null or unknown. */
export function localTime(at: Date, timeZone: string | null | undefined): LocalTime {
  const key = timeZone ?? '';
  const second = Math.floor(at.getTime() / 1000);
  const last = lastShown.get(key);
  if (last && last.second === second) return last.shown;
  const shown = formatLocalTime(at, timeZone);
  if (lastShown.size >= MAX_KEPT_FORMATS) lastShown.clear();
  lastShown.set(key, { second, shown });
  return shown;
}

function formatLocalTime(at: Date, timeZone: string | null | undefined): LocalTime {
  let zone = timeZone && timeZone !== 'UTC' ? timeZone : 'UTC';
  let parts: Record<string, string>;
  try {
    parts = partsIn(at, zone);
  } catch {
    // RangeError: a zone name this runtime's time zone data does not hold.
    zone = 'UTC';
    parts = partsIn(at, zone);
  }
  const when = `${parts.weekday}, ${parts.day} ${parts.month} ${parts.year}, ${parts.hour}:${parts.minute}:${parts.second}`;
  // "GMT+01:00", or "GMT" for an offset of zero.
  // (Some ICU versions write the minus sign as U+2212.)
  const offset = (parts.timeZoneName ?? 'GMT').replace(/^GMT/, 'UTC').replace('\u2212', '-');
  const shownZone = zone === 'UTC' ? 'UTC' : `${zone}, ${offset === 'UTC' ? 'UTC+00:00' : offset}`;
  return { when, zone: shownZone, text: `${when} (${shownZone})`, timeZone: zone };
}
