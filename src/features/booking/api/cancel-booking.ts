// Cancels a booking as its owner (RPC booking_owner_cancel): the visitor is e-mailed the
// cancellation with the owner's message, and so is the owner. The answer says whether it was
// cancelled now, already, or is gone; the lists show the cancelled row at once.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Functions } from '../../../lib/database';
import { supabase } from '../../../lib/supabase';
import { applyBookingChange } from '../booking-cache';
import { bookingKeys } from './query-keys';

type CancelOutcome = Functions<'booking_owner_cancel'>['Returns']['status'];

interface CancelInput {
  bookingId: string;
  /** Shown to the visitor in the cancellation e-mail; empty: none. */
  message: string;
}

async function cancelBooking({ bookingId, message }: CancelInput): Promise<CancelOutcome> {
  const { data, error } = await supabase.rpc('booking_owner_cancel', {
    p_booking_id: bookingId,
    p_message: message.trim(),
  });
  if (error) throw error;
  return data.status;
}

export function useCancelBooking() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: cancelBooking,
    onSuccess: (outcome, { bookingId, message }) => {
      if (outcome === 'cancelled') {
        applyBookingChange(client, {
          table: 'bookings',
          eventType: 'UPDATE',
          new: {
            id: bookingId,
            status: 'cancelled',
            cancelled_by: 'owner',
            cancel_reason: message.trim() || null,
            cancelled_at: new Date().toISOString(),
          },
          old: {},
        });
      }
    },
    onSettled: () => client.invalidateQueries({ queryKey: bookingKeys.bookingLists() }),
  });
}
