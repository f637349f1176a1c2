// POST booking/manage/<token>/reschedule {start}: moves the booking; spends the token (the new
// confirmation e-mail carries a new link).
import { useMutation } from '@tanstack/react-query';
import { supabase } from '../../../../lib/supabase';
import { isBookedBooking, type BookedBooking } from '../booking-types';
import { nextStarts, readFailure } from '../function-answer';

export type RescheduleOutcome =
  | { kind: 'rescheduled'; booking: BookedBooking }
  | { kind: 'slot_taken'; next: string[] }
  | { kind: 'invalid'; message: string }
  | { kind: 'past' }
  | { kind: 'already_cancelled' }
  | { kind: 'gone' }
  | { kind: 'rate_limited'; retryAfter: number | null }
  | { kind: 'unavailable' };

async function rescheduleBooking({
  token,
  start,
}: {
  token: string;
  start: string;
}): Promise<RescheduleOutcome> {
  const { data, error } = await supabase.functions.invoke(
    `booking/manage/${encodeURIComponent(token)}/reschedule`,
    { body: { start } },
  );
  if (!error) {
    const booking = (data as { booking?: unknown } | null)?.booking;
    return isBookedBooking(booking) ? { kind: 'rescheduled', booking } : { kind: 'unavailable' };
  }
  const { status, body, retryAfter } = await readFailure(error);
  if (status === 404) return { kind: 'gone' };
  if (status === 409 && body.code === 'past') return { kind: 'past' };
  if (status === 409 && body.code === 'already_cancelled') return { kind: 'already_cancelled' };
  if (status === 409) return { kind: 'slot_taken', next: nextStarts(body) };
  if (status === 422)
    return { kind: 'invalid', message: typeof body.error === 'string' ? body.error : '' };
  if (status === 429) return { kind: 'rate_limited', retryAfter };
  return { kind: 'unavailable' };
}

export function useRescheduleBooking() {
  return useMutation({ mutationFn: rescheduleBooking });
}
