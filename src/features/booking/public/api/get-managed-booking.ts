// GET booking/manage/<token>: the booking a manage link is for. Reading changes nothing (mail
// scanners fetch links); null when the token is unknown or already used.
import { useQuery } from '@tanstack/react-query';
import { supabase } from '../../../../lib/supabase';
import { isManagedBooking, isManageToken, type ManagedBooking } from '../booking-types';
import { readFailure } from '../function-answer';
import { bookingPublicKeys } from './get-booking-page';

/** Thrown for a failure worth retrying (no answer, 5xx). */
class ManageUnavailableError extends Error {
  constructor(readonly status: number | null) {
    super('The booking could not be loaded.');
  }
}

async function getManagedBooking(token: string): Promise<ManagedBooking | null> {
  if (!isManageToken(token)) return null;
  const { data, error } = await supabase.functions.invoke(
    `booking/manage/${encodeURIComponent(token)}`,
    { method: 'GET' },
  );
  if (error) {
    const { status } = await readFailure(error);
    if (status === 404 || status === 400) return null;
    throw new ManageUnavailableError(status);
  }
  const booking = (data as { booking?: unknown } | null)?.booking;
  return isManagedBooking(booking) ? booking : null;
}

export function useManagedBooking(token: string) {
  return useQuery({
    queryKey: bookingPublicKeys.manage(token),
    queryFn: () => getManagedBooking(token),
    // Once read, the page keeps it: after a cancel or reschedule the token is spent, and reading
    // it again would only say so.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}
