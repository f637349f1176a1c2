// Reads the bookings that are over, latest first, a page at a time (keyset: strictly before the
// last row read): of one form, or of every form of the owner.
import { useInfiniteQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import {
  BOOKING_COLUMNS,
  beforeCursor,
  PAST_PAGE_SIZE,
  type Booking,
  type PastCursor,
} from '../bookings';
import { bookingKeys } from './query-keys';

async function getPastBookings(
  formId: string | null,
  cursor: PastCursor | null,
  signal: AbortSignal,
): Promise<Booking[]> {
  let query = supabase
    .from('bookings')
    .select(BOOKING_COLUMNS)
    .lte('ends_at', new Date().toISOString());
  if (formId) query = query.eq('booking_form_id', formId);
  if (cursor) query = query.or(beforeCursor(cursor));
  const { data, error } = await query
    .order('starts_at', { ascending: false })
    .order('id', { ascending: false })
    .limit(PAST_PAGE_SIZE)
    .abortSignal(signal);
  if (error) throw error;
  return data ?? [];
}

export function usePastBookings(formId: string | null) {
  return useInfiniteQuery({
    queryKey: bookingKeys.bookings({ formId, when: 'past' }),
    queryFn: ({ pageParam, signal }) => getPastBookings(formId, pageParam, signal),
    initialPageParam: null as PastCursor | null,
    getNextPageParam: (page): PastCursor | undefined => {
      const last = page.at(-1);
      return page.length === PAST_PAGE_SIZE && last
        ? { starts_at: last.starts_at, id: last.id }
        : undefined;
    },
  });
}
