// Deletes a booking form; its bookings go with it (foreign keys cascade) and its link stops
// working at once.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import type { BookingFormRow } from '../booking-form-schema';
import { bookingKeys } from './query-keys';

async function deleteBookingForm(id: string): Promise<void> {
  // A form already gone (deleted in another tab) is the outcome asked for, not an error.
  const { error } = await supabase.from('booking_forms').delete().eq('id', id);
  if (error) throw error;
}

export function useDeleteBookingForm() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteBookingForm,
    onSuccess: (_data, id) => {
      client.setQueryData<BookingFormRow[]>(bookingKeys.forms(), (list) =>
        list?.filter((row) => row.id !== id),
      );
    },
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: bookingKeys.forms() }),
        client.invalidateQueries({ queryKey: bookingKeys.bookingLists() }),
      ]),
  });
}
