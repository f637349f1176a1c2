// How a booking's change reaches the cached lists: a new booking, a cancellation (by the visitor
// on their manage page, or by the owner in another tab) or a reschedule is merged into every
// cached list whose form and time it matches, in the list's order; a booking that moved to
// another list (rescheduled into the past, say) leaves the one it was in, and a deleted one
// leaves every list. The same rules serve this tab's own cancellations and Realtime's reports.
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import { mergeIntoList, mergeIntoPages, type RowChange } from '../../lib/merge-change';
import { filterOfKey, bookingKeys, type BookingsFilter } from './api/query-keys';
import { compareLatestFirst, compareSoonestFirst, inList, type Booking } from './bookings';

/** Whether a merged row has what a list shows (an update of a row not cached carries only part). */
function complete(row: Booking): boolean {
  return (
    typeof row.starts_at === 'string' &&
    typeof row.ends_at === 'string' &&
    typeof row.booking_form_id === 'string' &&
    typeof row.status === 'string'
  );
}

function rulesFor(filter: BookingsFilter, now: number) {
  return {
    include: (row: Booking) => complete(row) && inList(filter, row, now),
    compare: filter.when === 'upcoming' ? compareSoonestFirst : compareLatestFirst,
  };
}

/** Applies one change of a `bookings` row to every cached list of bookings. */
export function applyBookingChange(client: QueryClient, change: RowChange): void {
  const now = Date.now();
  for (const query of client.getQueryCache().findAll({ queryKey: bookingKeys.bookingLists() })) {
    const filter = filterOfKey(query.queryKey);
    if (!filter) continue;
    const rules = rulesFor(filter, now);
    if (filter.when === 'upcoming') {
      client.setQueryData<Booking[]>(query.queryKey, (rows) =>
        mergeIntoList<Booking>(rows, change, rules),
      );
    } else {
      client.setQueryData<InfiniteData<Booking[], unknown>>(query.queryKey, (data) =>
        mergeIntoPages<Booking>(data, change, rules),
      );
    }
  }
}
