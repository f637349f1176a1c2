// The opaque paging cursor of the entries list: the (created_at, id) of the last entry a page
// returned, base64url-encoded so clients pass it back unchanged and never build one themselves.
import { isUuid } from '../_shared/uuid.ts';
import { isoInstant } from './timestamp.ts';

export interface Cursor {
  /** The entry's created_at exactly as the database wrote it (microseconds kept). */
  createdAt: string;
  id: string;
}

/** An ISO 8601 timestamp with a zone, as Postgres writes timestamptz in JSON. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}(:?\d{2})?)$/;
/** Longer than any cursor this module writes; longer input is refused before decoding. */
const MAX_CURSOR_LENGTH = 200;

const toBase64Url = (text: string) =>
  btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

export function encodeCursor(cursor: Cursor): string {
  return toBase64Url(`v1|${cursor.createdAt}|${cursor.id}`);
}

/** The cursor written by encodeCursor, or null for anything else. */
export function decodeCursor(text: string): Cursor | null {
  if (text.length === 0 || text.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(text))
    return null;
  let decoded: string;
  try {
    decoded = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return null;
  }
  const [version, createdAt, id, ...rest] = decoded.split('|');
  if (version !== 'v1' || rest.length > 0 || !createdAt || !id) return null;
  // Only a moment Postgres holds and the API serves (timestamp.ts), so a forged or damaged
  // cursor is the client's mistake (400) rather than a failure in the database (503).
  if (!TIMESTAMP.test(createdAt) || isoInstant(createdAt) === null || !isUuid(id)) return null;
  return { createdAt, id: id.toLowerCase() };
}
