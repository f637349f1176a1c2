// Reads the bookings still to come (not ended yet), soonest first: of one form, or of every form
// of the owner (RLS: only their own). All of them, in chunks of the most the REST API answers per
// request, so the forms' counts are whole.
import { useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import { BOOKING_COLUMNS, READ_CHUNK_SIZE, type Booking } from '../bookings';
import { bookingKeys } from './query-keys';

async function getUpcomingBookings(formId: string | null): Promise<Booking[]> {
  const now = new Date().toISOString();
  const all: Booking[] = [];
  for (;;) {
    let query = supabase.from('bookings').select(BOOKING_COLUMNS).gt('ends_at', now);
    if (formId) query = query.eq('booking_form_id', formId);
    const { data, error } = await query
      .order('starts_at', { ascending: true })
      .order('id', { ascending: true })
      .range(all.length, all.length + READ_CHUNK_SIZE - 1);
    if (error) throw error;
    all.push(...(data ?? []));
    if ((data ?? []).length < READ_CHUNK_SIZE) return all;
  }
}

export function useUpcomingBookings(formId: string | null) {
  return useQuery({
    queryKey: bookingKeys.bookings({ formId, when: 'upcoming' }),
    queryFn: () => getUpcomingBookings(formId),
  });
}
