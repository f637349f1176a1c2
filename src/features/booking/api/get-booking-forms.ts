// Reads the owner's booking forms (RLS: only their own), oldest first.
import { useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import type { BookingFormRow } from '../booking-form-schema';
import { bookingKeys } from './query-keys';

export const BOOKING_FORM_COLUMNS =
  'id, user_id, slug, name, description, location, duration_minutes, time_zone, weekly, overrides, buffer_before_minutes, buffer_after_minutes, min_notice_minutes, max_days_ahead, daily_max, ask_note, captcha_provider, captcha_site_key, created_at, updated_at';

async function getBookingForms(): Promise<BookingFormRow[]> {
  const { data, error } = await supabase
    .from('booking_forms')
    .select(BOOKING_FORM_COLUMNS)
    .order('created_at', { ascending: true })
    .order('id', { ascending: true });
  if (error) throw error;
  return data ?? [];
}

export function useBookingForms() {
  return useQuery({ queryKey: bookingKeys.forms(), queryFn: getBookingForms });
}
