// What the subscribers table asks the REST API for, kept free of React and supabase-js: the page
// size, the search as a PostgREST logic tree, the keyset the export walks the list by, and the
// "Showing 51–100 of 1,234" line.
import type { Subscriber, SubscriberStatus } from './newsletter-types';

/** Rows of the subscribers table on one page. */
export const SUBSCRIBERS_PAGE_SIZE = 50;

/** One page of a list's subscribers as the table asks for it (page 0 is the newest rows). */
export interface SubscriberPageQuery {
  /** Matched against the e-mail and the name, any case. Empty: everyone. */
  search: string;
  /** Empty: every status. */
  status: SubscriberStatus | '';
  page: number;
}

/** One page of rows and how many match on every page. */
export interface SubscriberPage {
  rows: Subscriber[];
  total: number;
}

/**
 * A LIKE pattern that contains the term: LIKE's own `\`, `%` and `_` escaped so they match
 * themselves. PostgREST turns every `*` of a like value into `%` (its URL-friendly wildcard), even
 * an escaped one, so no pattern it passes on can hold a literal `*`: the `*` of a term becomes
 * `_`, one character of any kind, which still matches it.
 */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (char) => `\\${char}`).replace(/\*/g, '_')}%`;
}

/**
 * A value inside a PostgREST logic tree (`or=(…)`), double-quoted: there `,` `(` `)` end a value
 * and `.` `:` may be read as syntax, while between quotes only `"` and `\` need a backslash.
 */
export function logicTreeValue(value: string): string {
  return `"${value.replace(/[\\"]/g, (char) => `\\${char}`)}"`;
}

/**
 * The `or=` filter of a search (e-mail or name contains the term, any case), or null for an empty
 * one. The LIKE escapes are made first, then the quoting, so a `\` of the pattern reaches
 * PostgreSQL as the escape it is.
 */
export function subscriberSearchFilter(search: string): string | null {
  const term = search.trim();
  if (!term) return null;
  const value = logicTreeValue(containsPattern(term));
  return `email.ilike.${value},name.ilike.${value}`;
}

/**
 * The `or=` filter for "after this row" in the table's order (created_at desc, id desc): what the
 * export reads next. A keyset, not an offset, so signups arriving during an export neither repeat
 * nor push rows past it.
 */
export function olderThanFilter(row: { created_at: string; id: string }): string {
  const at = logicTreeValue(row.created_at);
  const id = logicTreeValue(row.id);
  return `created_at.lt.${at},and(created_at.eq.${at},id.lt.${id})`;
}

const countFormat = new Intl.NumberFormat('en-US');

/** The rows a page shows, 1-based, for "Showing 51–100 of 1,234"; null when there are none. */
function pageSpan(
  page: number,
  rowsShown: number,
  total: number,
): { first: number; last: number } | null {
  if (rowsShown === 0 || total === 0) return null;
  const first = page * SUBSCRIBERS_PAGE_SIZE + 1;
  return { first, last: Math.min(first + rowsShown - 1, Math.max(total, first)) };
}

/** "Showing 51–100 of 1,234 subscribers" (or "matching subscribers" under a search or filter). */
export function showingText(
  page: number,
  rowsShown: number,
  total: number,
  filtered: boolean,
): string {
  const noun = `${filtered ? 'matching ' : ''}${total === 1 ? 'subscriber' : 'subscribers'}`;
  const span = pageSpan(page, rowsShown, total);
  if (!span) return filtered ? 'No matching subscribers' : 'No subscribers';
  return `Showing ${countFormat.format(span.first)}–${countFormat.format(span.last)} of ${countFormat.format(total)} ${noun}`;
}

/** The last page that holds rows when there are `total` of them (0 when there are none). */
export function lastPage(total: number): number {
  return Math.max(0, Math.ceil(total / SUBSCRIBERS_PAGE_SIZE) - 1);
}
