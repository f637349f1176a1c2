// Saves a booking form's settings. Its id and owner never change; a changed link takes effect at
// once (the old one stops working).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import type { BookingFormInput, BookingFormRow } from '../booking-form-schema';
import { BOOKING_FORM_COLUMNS } from './get-booking-forms';
import { bookingKeys } from './query-keys';

async function updateBookingForm({
  id,
  ...input
}: BookingFormInput & { id: string }): Promise<BookingFormRow> {
  const { data, error } = await supabase
    .from('booking_forms')
    .update(input)
    .eq('id', id)
    .select(BOOKING_FORM_COLUMNS)
    .single();
  if (error) throw error;
  return data;
}

export function useUpdateBookingForm() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateBookingForm,
    onSuccess: (form) => {
      client.setQueryData(bookingKeys.form(form.id), form);
      client.setQueryData<BookingFormRow[]>(bookingKeys.forms(), (list) =>
        list?.map((row) => (row.id === form.id ? form : row)),
      );
    },
    onSettled: () => client.invalidateQueries({ queryKey: bookingKeys.forms() }),
  });
}
