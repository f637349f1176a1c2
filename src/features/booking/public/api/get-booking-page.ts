// booking_page(p_slug): the public part of a booking form; null when no form has the slug.
import { useQuery } from '@tanstack/react-query';
import { supabase } from '../../../../lib/supabase';
import { isPublicBookingForm, isSlug, type PublicBookingForm } from '../booking-types';

export const bookingPublicKeys = {
  all: ['booking-public'] as const,
  page: (slug: string) => ['booking-public', 'page', slug] as const,
  /** Every range's slots: what a booking, a reschedule or a refusal makes stale. */
  allSlots: ['booking-public', 'slots'] as const,
  slots: (slug: string, from: string, to: string) =>
    ['booking-public', 'slots', slug, from, to] as const,
  manage: (token: string) => ['booking-public', 'manage', token] as const,
};

async function getBookingPage(slug: string): Promise<PublicBookingForm | null> {
  // A malformed slug names no form: no request needed to say so.
  if (!isSlug(slug)) return null;
  const { data, error } = await supabase.rpc('booking_page', { p_slug: slug });
  if (error) throw error;
  const page: unknown = data;
  return isPublicBookingForm(page) ? page : null;
}

export function useBookingPage(slug: string) {
  return useQuery({
    queryKey: bookingPublicKeys.page(slug),
    queryFn: () => getBookingPage(slug),
    staleTime: 5 * 60_000,
  });
}
