// How many confirmed bookings of the signed-in owner are still to come (not ended), across their
// booking forms: a head count, no rows read.
import { useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';

export const dashboardKeys = {
  upcomingBookings: () => ['dashboard', 'upcoming-bookings'] as const,
};

async function getUpcomingBookingsCount(): Promise<number> {
  const { count, error } = await supabase
    .from('bookings')
    .select('id', { count: 'exact', head: true })
    .eq('status', 'confirmed')
    .gt('ends_at', new Date().toISOString());
  if (error) throw error;
  return count ?? 0;
}

export function useUpcomingBookingsCount() {
  return useQuery({
    queryKey: dashboardKeys.upcomingBookings(),
    queryFn: getUpcomingBookingsCount,
  });
}
