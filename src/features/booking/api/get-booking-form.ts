// Reads one booking form by id for its page; null when there is none the owner may read (never
// created, deleted, or another owner's). The forms list, when cached, shows it at once.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import type { BookingFormRow } from '../booking-form-schema';
import { BOOKING_FORM_COLUMNS } from './get-booking-forms';
import { bookingKeys } from './query-keys';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function getBookingForm(id: string): Promise<BookingFormRow | null> {
  // Not an id at all: no form, and no request the database would refuse as malformed.
  if (!UUID.test(id)) return null;
  const { data, error } = await supabase
    .from('booking_forms')
    .select(BOOKING_FORM_COLUMNS)
    .eq('id', id)
    .maybeSingle();
  if (error) throw error;
  return data;
}

export function useBookingForm(id: string) {
  const client = useQueryClient();
  return useQuery({
    queryKey: bookingKeys.form(id),
    queryFn: () => getBookingForm(id),
    initialData: () =>
      client.getQueryData<BookingFormRow[]>(bookingKeys.forms())?.find((form) => form.id === id),
    initialDataUpdatedAt: () => client.getQueryState(bookingKeys.forms())?.dataUpdatedAt,
  });
}
