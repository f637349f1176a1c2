// Dates on messages, in the spec's medium format ("Nov 24, 2026, 2:47 PM"), and the date stamp of
// an export's file name.

const MEDIUM = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** The medium date and time of a timestamp, in the reader's time zone; '' if it is not a date. */
export function formatMessageDate(timestamp: string, format: Intl.DateTimeFormat = MEDIUM): string {
  const date = new Date(timestamp);
  if (Number.isNaN(date.getTime())) return '';
  // Newer ICU puts a narrow no-break space before AM/PM; a plain space reads (and matches) the same.
  return format.format(date).replace(/[\u202f\u00a0]/g, ' ');
}

/** `YYYY-MM-DD` of a date in the reader's time zone. */
export function dateStamp(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
