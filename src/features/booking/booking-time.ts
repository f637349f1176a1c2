// When a booking is, in words: the day and the start and end times in a time zone
// ("Tue, Dec 1, 2026, 9:00 – 9:30 AM"), the zone's short name, and file-friendly stamps.

function formatter(timeZone: string | undefined, options: Intl.DateTimeFormatOptions) {
  try {
    return new Intl.DateTimeFormat('en-US', { ...options, timeZone });
  } catch {
    // A zone this browser does not know: its own zone rather than nothing.
    return new Intl.DateTimeFormat('en-US', options);
  }
}

// Newer ICU puts a narrow no-break space before AM/PM and thin spaces around the range's dash; plain
// spaces read (and match) the same.
const plain = (text: string) => text.replace(/[\u202f\u00a0\u2009]/g, ' ');

/** "Tue, Dec 1, 2026, 9:00 – 9:30 AM" in `timeZone` (the reader's own when undefined). */
export function formatBookingTime(startsAt: string, endsAt: string, timeZone?: string): string {
  const start = new Date(startsAt);
  const end = new Date(endsAt);
  if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) return '';
  const format = formatter(timeZone, {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });
  return plain(format.formatRange(start, end));
}

/** The zone's short name at an instant ("CET", "GMT+1"). */
export function zoneName(at: string, timeZone?: string): string {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return '';
  const part = formatter(timeZone, { timeZoneName: 'short' })
    .formatToParts(date)
    .find((p) => p.type === 'timeZoneName');
  return part?.value ?? '';
}

/** "2026-12-01 09:00" in `timeZone`: a spreadsheet reads it as a date and time. */
export function localStamp(at: string, timeZone: string): string {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return '';
  const parts = Object.fromEntries(
    formatter(timeZone, {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

/** `YYYY-MM-DD` of a date in the reader's time zone, for an export's file name. */
export function dateStamp(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
