// Bookings as a CSV file: one row per booking with its times (UTC, and local in the form's time
// zone), form, visitor, note and status. RFC 4180 (CRLF, every field quoted, quotes doubled),
// UTF-8 with a byte-order mark so spreadsheet apps read accents right, and cells a spreadsheet
// would run as a formula neutralised — the rules of the inbox's export, for the same spreadsheets.
import { localStamp } from './booking-time';
import type { Booking } from './bookings';

export const CSV_BOM = '\uFEFF';
const CRLF = '\r\n';
const HEADERS = [
  'Start (UTC)',
  'End (UTC)',
  'Local start',
  'Local end',
  'Time zone',
  'Form',
  'Name',
  'Email',
  'Note',
  'Status',
  'Cancelled by',
  'Cancel reason',
  'Visitor time zone',
  'Booked at (UTC)',
] as const;

// A formula start (`=`, `+`, `-`, `@`, a tab or a carriage return) at the start of the text or
// of a `;`- or `,`-separated part of it, behind any quotes: Excel in locales whose list separator
// is `;` splits a line on `;`, not `,`, so a part after either can become a cell of its own.
const FORMULA_START = /(^|[;,])("*)(?=[=+\-@\t\r])/g;

/** A cell safe to open in a spreadsheet: each part that starts like a formula gets a leading `'`. */
export function neutralizeFormula(text: string): string {
  return text.replace(FORMULA_START, "$1$2'");
}

/** One RFC 4180 field, always quoted (quotes doubled), neutralised first. */
export function csvField(value: string): string {
  return `"${neutralizeFormula(value).replace(/"/g, '""')}"`;
}

const csvLine = (values: readonly string[]) => values.map(csvField).join(',');

/** An ISO 8601 UTC timestamp; the text as it came when it is not a date. */
function utc(at: string): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? at : date.toISOString();
}

export interface BookingCsvForm {
  name: string;
  time_zone: string;
}

/** The whole file's text, BOM first; `form` gives a booking's form (undefined: deleted). */
export function bookingsToCsv(
  bookings: readonly Booking[],
  form: (formId: string) => BookingCsvForm | undefined,
): string {
  const lines = [csvLine(HEADERS)];
  for (const booking of bookings) {
    const owner = form(booking.booking_form_id);
    const zone = owner?.time_zone ?? 'UTC';
    lines.push(
      csvLine([
        utc(booking.starts_at),
        utc(booking.ends_at),
        localStamp(booking.starts_at, zone),
        localStamp(booking.ends_at, zone),
        zone,
        owner?.name ?? '',
        booking.name,
        booking.email,
        booking.note,
        booking.status,
        booking.cancelled_by ?? '',
        booking.cancel_reason ?? '',
        booking.visitor_time_zone,
        utc(booking.created_at),
      ]),
    );
  }
  return CSV_BOM + lines.join(CRLF) + CRLF;
}
