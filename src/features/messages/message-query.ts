// Pure pieces of the inbox's queries: the columns read, how a URL becomes a list filter, the
// keyset cursor and its PostgREST filter, the search pattern, the order of a list and whether a
// row belongs in a list. The fetchers in api/ and the realtime merge share them, so a live row
// lands in exactly the lists a fetch would have put it in.
import { ENTRY_FILE_COLUMNS } from '../../config/uploads';
import type { Cursor, MessageFilter, MessageView } from './types';

/** Rows per page of the inbox. */
export const PAGE_SIZE = 50;
/** Rows per request when exporting; the REST API's `max_rows` (supabase/config.toml) is 1000. */
export const EXPORT_CHUNK_SIZE = 1000;
/** Longest search term sent to the server. */
export const MAX_SEARCH_LENGTH = 200;

/**
 * The columns a message is read with: explicit (never `search_text`, which only serves the
 * search), the form's name, the notification e-mail's delivery and the files. `email_deliveries.entry_id`
 * is unique, but PostgREST may still answer the embed as an array (see toMessage).
 */
export const MESSAGE_COLUMNS =
  'id, form_id, name, email, message, data, field_order, is_spam, read_at, created_at, ' +
  'notification_skipped, source_page, source_referrer, ' +
  'form:forms(name), delivery:email_deliveries(status, attempts, last_error, next_attempt_at, sent_at), ' +
  `files:entry_files(${ENTRY_FILE_COLUMNS})`;

/**
 * The columns of a list: with "has files", the files' embed is an inner join, so only messages
 * with at least one file are answered (each still with all of its files: nothing filters them).
 */
export function messageColumnsFor(filter: Pick<MessageFilter, 'files'>): string {
  return filter.files
    ? MESSAGE_COLUMNS.replace('files:entry_files(', 'files:entry_files!inner(')
    : MESSAGE_COLUMNS;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// What PostgREST prints for a timestamptz: ISO 8601 with an offset, maybe fractional seconds.
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}(:\d{2})?)$/;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

export function isTimestamp(value: unknown): value is string {
  return typeof value === 'string' && TIMESTAMP.test(value);
}

/** The list filter a URL's search params describe; anything malformed means "no filter". */
export function filterFromParams(params: URLSearchParams): MessageFilter {
  const form = params.get('form');
  const view: MessageView = params.get('view') === 'spam' ? 'spam' : 'inbox';
  const q = (params.get('q') ?? '').trim().slice(0, MAX_SEARCH_LENGTH);
  const files = params.get('files') === '1';
  return { formId: isUuid(form) ? form.toLowerCase() : null, view, q, files };
}

/** The keyset position after a row: the next page holds rows strictly older than it. */
export function cursorOf(row: { created_at: string; id: string }): Cursor {
  return { created_at: row.created_at, id: row.id };
}

/**
 * The PostgREST `or=` filter for "strictly before this cursor" in (created_at desc, id desc)
 * order. Both values are checked first: neither a timestamp nor a uuid can hold the logic tree's
 * reserved characters (`,` `(` `)` `"`), so they need no quoting.
 */
export function keysetFilter(cursor: Cursor): string {
  if (!isTimestamp(cursor.created_at) || !isUuid(cursor.id)) {
    throw new Error('Invalid page cursor.');
  }
  const { created_at: at, id } = cursor;
  return `created_at.lt.${at},and(created_at.eq.${at},id.lt.${id})`;
}

/**
 * The `ilike` pattern for a search term: lower-cased (search_text is), with LIKE's own `\`, `%`
 * and `_` escaped so they match themselves. The pattern is sent as a plain `column=ilike.value`
 * parameter (supabase-js URL-encodes it), where PostgREST reads the whole value literally, so
 * `,` `(` `)` need no quoting there; they would only inside an `or=` tree, which search never uses.
 */
export function searchPattern(term: string): string {
  const escaped = term
    .trim()
    .toLowerCase()
    .replace(/[\\%_]/g, (char) => `\\${char}`);
  return `%${escaped}%`;
}

/** How much of the custom fields the search reads (as the entries trigger bounds them). */
const SEARCHED_FIELDS = { perValue: 500, total: 4000 } as const;

/** The custom fields' values as the search reads them: each cut, then all of them cut. */
function searchedValues(data: unknown): string {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return '';
  const values = Object.values(data as Record<string, unknown>).flatMap((value) =>
    Array.isArray(value) ? value : [value],
  );
  return values
    .map((value) =>
      (typeof value === 'string' ? value : (JSON.stringify(value) ?? '')).slice(
        0,
        SEARCHED_FIELDS.perValue,
      ),
    )
    .join(' ')
    .slice(0, SEARCHED_FIELDS.total);
}

/**
 * What the server searches in: the `search_text` the entries trigger keeps (name, e-mail,
 * message and the custom fields' values), or the same computed from the row when it has none.
 */
export function searchTextOf(row: {
  name?: unknown;
  email?: unknown;
  message?: unknown;
  data?: unknown;
  search_text?: unknown;
}): string {
  if (typeof row.search_text === 'string') return row.search_text;
  const part = (value: unknown) => (typeof value === 'string' ? value : '');
  return `${part(row.name)} ${part(row.email)} ${part(row.message)} ${searchedValues(row.data)}`.toLowerCase();
}

/** Whether a row (a message or a Realtime payload) belongs in the list of `filter`. */
export function matchesFilter(
  row: {
    is_spam?: unknown;
    form_id?: unknown;
    name?: unknown;
    email?: unknown;
    message?: unknown;
    data?: unknown;
    search_text?: unknown;
    files?: unknown;
  },
  filter: MessageFilter,
): boolean {
  if ((row.is_spam === true) !== (filter.view === 'spam')) return false;
  if (filter.formId && row.form_id !== filter.formId) return false;
  // A Realtime payload carries no files: such a row joins a "has files" list once read back.
  if (filter.files && !(Array.isArray(row.files) && row.files.length > 0)) return false;
  const term = filter.q.trim().toLowerCase();
  return term === '' || searchTextOf(row).includes(term);
}

/** A timestamp as microseconds since the epoch, exact for what Postgres prints. */
function micros(timestamp: string): number {
  const fraction = /\.(\d+)/.exec(timestamp)?.[1] ?? '';
  const milliseconds = Date.parse(timestamp);
  // Date.parse keeps milliseconds; digits 4–6 of the fraction are the rest.
  return Math.floor(milliseconds / 1000) * 1_000_000 + Number(fraction.padEnd(6, '0').slice(0, 6));
}

/** List order: newest first, then by id descending, as the server orders (and pages) them. */
export function compareNewestFirst(
  a: { created_at: string; id: string },
  b: { created_at: string; id: string },
): number {
  const byTime = micros(b.created_at) - micros(a.created_at);
  if (byTime !== 0) return byTime;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}
