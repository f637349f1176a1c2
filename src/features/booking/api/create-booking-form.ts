// Creates a booking form; its owner is the caller (the column's default, auth.uid()). A link
// another owner already has is refused with 23505 (the editor says "This link is taken").
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import type { BookingFormInput, BookingFormRow } from '../booking-form-schema';
import { BOOKING_FORM_COLUMNS } from './get-booking-forms';
import { bookingKeys } from './query-keys';

async function createBookingForm(input: BookingFormInput): Promise<BookingFormRow> {
  const { data, error } = await supabase
    .from('booking_forms')
    .insert(input)
    .select(BOOKING_FORM_COLUMNS)
    .single();
  if (error) throw error;
  return data;
}

export function useCreateBookingForm() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createBookingForm,
    onSuccess: (form) => {
      // Its page opens next and shows it without reading it again.
      client.setQueryData(bookingKeys.form(form.id), form);
      client.setQueryData<BookingFormRow[]>(bookingKeys.forms(), (list) =>
        list ? [...list.filter((row) => row.id !== form.id), form] : list,
      );
    },
    onSettled: () => client.invalidateQueries({ queryKey: bookingKeys.forms() }),
  });
}
