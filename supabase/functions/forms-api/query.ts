// The entries list's query parameters: `since` (a date or a timestamp with a zone), `cursor` (from
// a previous page) and `limit` (lowered to the largest page). Every problem is named per parameter.
import { API_KEYS } from '../_shared/limits.ts';
import { decodeCursor, type Cursor } from './cursor.ts';
import { isoInstant } from './timestamp.ts';

export interface EntriesQuery {
  /** ISO timestamp (UTC); entries created at or after it. */
  since: string | null;
  after: Cursor | null;
  /** The cursor as the client sent it, given back when a page is empty. */
  rawCursor: string | null;
  limit: number;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * A date (midnight UTC) or a timestamp with an explicit zone, as an ISO string; else null. Only
 * days and times that exist, and instants in the years 0001 to 9999 (UTC): see timestamp.ts.
 */
export function parseSince(text: string): string | null {
  if (text.length > 40 || !(DATE.test(text) || DATE_TIME.test(text))) return null;
  const instant = isoInstant(text);
  return instant === null ? null : new Date(instant).toISOString();
}

export function parseEntriesQuery(
  params: URLSearchParams,
): { ok: true; query: EntriesQuery } | { ok: false; fields: Record<string, string> } {
  const fields: Record<string, string> = {};
  const single = (name: string): string | null => {
    const values = params.getAll(name);
    if (values.length > 1) fields[name] = 'Give this parameter once.';
    return values[0] ?? null;
  };

  let since: string | null = null;
  const sinceText = single('since');
  if (sinceText !== null) {
    since = parseSince(sinceText);
    if (since === null)
      fields.since ??=
        'Use a date (2026-11-24) or a timestamp with a zone (2026-11-24T09:30:00Z), from 0001-01-01 to 9999-12-31 (UTC).';
  }

  let after: Cursor | null = null;
  const cursorText = single('cursor');
  if (cursorText !== null) {
    after = decodeCursor(cursorText);
    if (after === null) fields.cursor ??= 'Pass back a next_cursor from an earlier answer.';
  }

  let limit: number = API_KEYS.defaultPageSize;
  const limitText = single('limit');
  if (limitText !== null) {
    if (!/^\d{1,9}$/.test(limitText) || Number(limitText) < 1)
      fields.limit ??= `Use a whole number from 1 to ${API_KEYS.maxPageSize}.`;
    else limit = Math.min(Number(limitText), API_KEYS.maxPageSize);
  }

  if (Object.keys(fields).length > 0) return { ok: false, fields };
  return { ok: true, query: { since, after, rawCursor: after ? cursorText : null, limit } };
}
