// A list's subscribers as a CSV file: RFC 4180 (CRLF, every field quoted, quotes doubled), UTF-8
// with a byte-order mark so spreadsheet apps read accents right, and cells a spreadsheet would run
// as a formula neutralised — the rules of the site's other exports. Its header row is one this
// tool's import reads back (email, name). The rows are every one that matches the table's search
// and filter, read in chunks (api/get-all-subscribers.ts), never just the page on screen.
import type { Subscriber } from './newsletter-types';

const CSV_BOM = '\uFEFF';
const CRLF = '\r\n';
const HEADERS = [
  'email',
  'name',
  'status',
  'source',
  'added (UTC)',
  'confirmed (UTC)',
  'unsubscribed (UTC)',
  'bounced (UTC)',
  'consent statement',
] as const;

// A formula start at the start of the text or of a `;`- or `,`-separated part of it, behind any
// quotes (Excel in `;` locales splits a line on `;`).
const FORMULA_START = /(^|[;,])("*)(?=[=+\-@\t\r])/g;

function csvField(value: string): string {
  return `"${value.replace(FORMULA_START, "$1$2'").replace(/"/g, '""')}"`;
}

const utc = (at: string | null) => (at ? new Date(at).toISOString() : '');

export function subscribersToCsv(rows: readonly Subscriber[]): string {
  const lines = [HEADERS.map(csvField).join(',')];
  for (const row of rows)
    lines.push(
      [
        row.email,
        row.name ?? '',
        row.status,
        row.source,
        utc(row.created_at),
        utc(row.confirmed_at),
        utc(row.unsubscribed_at),
        utc(row.bounced_at),
        row.consent_statement ?? '',
      ]
        .map(csvField)
        .join(','),
    );
  return CSV_BOM + lines.join(CRLF) + CRLF;
}

/** The export's file name: the list's name as a slug, and the day (UTC). */
export function subscribersFileName(listName: string, now = new Date()): string {
  const slug =
    listName
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'list';
  return `${slug}-subscribers-${now.toISOString().slice(0, 10)}.csv`;
}
