// booking_slots(p_slug, p_from, p_to): the free slot starts (UTC) in a range of at most 62 days.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { supabase } from '../../../../lib/supabase';
import { bookingPublicKeys } from './get-booking-page';

export interface SlotRange {
  from: string;
  to: string;
}

async function getBookingSlots(slug: string, { from, to }: SlotRange): Promise<string[]> {
  const { data, error } = await supabase.rpc('booking_slots', {
    p_slug: slug,
    p_from: from,
    p_to: to,
  });
  if (error) throw error;
  const answer: unknown = data;
  const slots = (answer as { slots?: unknown } | null)?.slots;
  return Array.isArray(slots)
    ? slots.filter((s): s is string => typeof s === 'string' && !Number.isNaN(Date.parse(s)))
    : [];
}

/** The free slots of a range; null range (a month already past): none, and no request. */
export function useBookingSlots(slug: string, range: SlotRange | null) {
  return useQuery({
    queryKey: bookingPublicKeys.slots(slug, range?.from ?? '', range?.to ?? ''),
    queryFn: () => (range ? getBookingSlots(slug, range) : Promise.resolve([])),
    // Slots go as others book: fresh for a minute, and read again when the visitor comes back.
    staleTime: 60_000,
    refetchOnWindowFocus: true,
    // Keep the last month's days on screen while the next month loads (no flash of empty grid).
    placeholderData: keepPreviousData,
  });
}
