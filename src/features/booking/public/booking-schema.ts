// The visitor's details, checked as the database checks them (bookings: name 1–100 characters,
// e-mail at most 254, note at most 2000), so most mistakes are told before a request.
import * as yup from 'yup';
import { BOOKING } from '../../../../supabase/functions/_shared/limits';

export const BOOKING_LIMITS = {
  name: BOOKING.maxNameLength,
  email: BOOKING.maxEmailLength,
  note: BOOKING.maxNoteLength,
  reason: BOOKING.maxReasonLength,
} as const;

export const bookingDetailsSchema = yup.object({
  name: yup
    .string()
    .trim()
    .required('Enter your name.')
    .max(BOOKING_LIMITS.name, `Your name can be at most ${BOOKING_LIMITS.name} characters.`),
  email: yup
    .string()
    .trim()
    .required('Enter your e-mail address.')
    .email('Enter a valid e-mail address, like name@example.com.')
    .max(BOOKING_LIMITS.email, 'That e-mail address is too long.'),
  note: yup
    .string()
    .max(BOOKING_LIMITS.note, `The note can be at most ${BOOKING_LIMITS.note} characters.`),
  /** The honeypot: people never see it. */
  website: yup.string(),
});

export type BookingDetails = yup.InferType<typeof bookingDetailsSchema>;
