// A booking as the dashboard reads it, the lists' orders and which list a booking belongs in.
import type { Tables } from '../../lib/database';
import type { BookingsFilter, BookingsWhen } from './api/query-keys';

export const BOOKING_COLUMNS =
  'id, booking_form_id, starts_at, ends_at, name, email, note, visitor_time_zone, status, cancelled_at, cancelled_by, cancel_reason, created_at';

export type Booking = Pick<
  Tables<'bookings'>,
  | 'id'
  | 'booking_form_id'
  | 'starts_at'
  | 'ends_at'
  | 'name'
  | 'email'
  | 'note'
  | 'visitor_time_zone'
  | 'status'
  | 'cancelled_at'
  | 'cancelled_by'
  | 'cancel_reason'
  | 'created_at'
>;

/** Past bookings are read this many at a time, newest first. */
export const PAST_PAGE_SIZE = 50;

/** The most rows the REST API answers per request: upcoming bookings are read in such chunks. */
export const READ_CHUNK_SIZE = 1000;

/** Whether a booking is still to come (or under way) at `now`: it has not ended. */
export function isUpcoming(booking: Pick<Booking, 'ends_at'>, now = Date.now()): boolean {
  return Date.parse(booking.ends_at) > now;
}

/** Soonest first, then by id: the upcoming list's order. */
export function compareSoonestFirst(a: Booking, b: Booking): number {
  // As instants: a REST answer and a Realtime payload may print one timestamp differently.
  const byTime = Date.parse(a.starts_at) - Date.parse(b.starts_at);
  if (byTime) return byTime;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Latest first, then by id descending: the past list's order. */
export function compareLatestFirst(a: Booking, b: Booking): number {
  return -compareSoonestFirst(a, b);
}

/** Whether a booking belongs in the list a filter describes. */
export function inList(filter: BookingsFilter, booking: Booking, now = Date.now()): boolean {
  if (filter.formId && booking.booking_form_id !== filter.formId) return false;
  const when: BookingsWhen = isUpcoming(booking, now) ? 'upcoming' : 'past';
  return when === filter.when;
}

/** A confirmed booking still to come: what the forms' "upcoming" counts count. */
export function isUpcomingConfirmed(booking: Booking, now = Date.now()): boolean {
  return booking.status === 'confirmed' && isUpcoming(booking, now);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}(:\d{2})?)$/;

/** Where the next page of past bookings starts: strictly before this booking. */
export interface PastCursor {
  starts_at: string;
  id: string;
}

/**
 * The PostgREST `or=` filter for "strictly before this cursor" in (starts_at desc, id desc)
 * order. Both values are checked first: neither a timestamp nor a uuid can hold the logic tree's
 * reserved characters, so they need no quoting.
 */
export function beforeCursor(cursor: PastCursor): string {
  if (!TIMESTAMP.test(cursor.starts_at) || !UUID.test(cursor.id))
    throw new Error('Invalid page cursor.');
  const { starts_at: at, id } = cursor;
  return `starts_at.lt.${at},and(starts_at.eq.${at},id.lt.${id})`;
}
