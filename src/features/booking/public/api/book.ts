// POST booking/book: asks for a slot. Every answer the page can act on comes back as an outcome;
// only what nothing can be made of is thrown.
import { useMutation } from '@tanstack/react-query';
import { supabase } from '../../../../lib/supabase';
import { isBookedBooking, type BookedBooking } from '../booking-types';
import { nextStarts, readFailure } from '../function-answer';

interface BookInput {
  slug: string;
  start: string;
  name: string;
  email: string;
  note?: string;
  timeZone: string;
  /** The honeypot: empty from people. */
  website: string;
  captchaToken?: string;
}

export type BookOutcome =
  | { kind: 'booked'; booking: BookedBooking; visitorMailed: boolean }
  | { kind: 'slot_taken'; next: string[] }
  | { kind: 'invalid'; field: string; message: string }
  | { kind: 'captcha'; message: string }
  | { kind: 'rate_limited'; retryAfter: number | null; account: boolean }
  | { kind: 'not_found' }
  /** The owner's CAPTCHA keys are wrong: retrying does not help until they fix them. */
  | { kind: 'misconfigured'; message: string }
  | { kind: 'unavailable'; retryAfter: number | null };

async function book(input: BookInput): Promise<BookOutcome> {
  const { note, captchaToken, ...rest } = input;
  const body = {
    ...rest,
    ...(note ? { note } : {}),
    ...(captchaToken ? { captchaToken } : {}),
  };
  const { data, error } = await supabase.functions.invoke('booking/book', { body });
  if (!error) {
    const answer = data as { booking?: unknown; visitorMailed?: unknown } | null;
    if (answer && isBookedBooking(answer.booking))
      return {
        kind: 'booked',
        booking: answer.booking,
        visitorMailed: answer.visitorMailed !== false,
      };
    return { kind: 'unavailable', retryAfter: null };
  }
  const failure = await readFailure(error);
  const { status, body: answer, retryAfter } = failure;
  const message = typeof answer.error === 'string' ? answer.error : '';
  switch (status) {
    case 404:
      return { kind: 'not_found' };
    case 409:
      return { kind: 'slot_taken', next: nextStarts(answer) };
    case 422:
      return {
        kind: 'invalid',
        field: typeof answer.field === 'string' ? answer.field : '',
        message,
      };
    case 403:
      return { kind: 'captcha', message };
    case 429:
      return { kind: 'rate_limited', retryAfter, account: answer.code === 'account_limit' };
    case 500:
      if (answer.code === 'captcha_misconfigured') return { kind: 'misconfigured', message };
      return { kind: 'unavailable', retryAfter };
    default:
      return { kind: 'unavailable', retryAfter };
  }
}

export function useBook() {
  return useMutation({ mutationFn: book });
}
