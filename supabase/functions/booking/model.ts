// The booking function's domain types: what a visitor asks (a booking, or a change through the
// manage link), and what storage answers. The handler, the store and the tests use these. Bookings
// travel as the database's RPCs describe them (snake_case keys), unchanged to the visitor's page.
import type { CaptchaProvider, CaptchaVerdict } from '../_shared/captcha.ts';

/**
 * A booking as booking_request() and booking_reschedule_by_token() describe it (the database adds
 * the page's slug and duration and the booking's status, passed on as they come).
 */
export interface BookedBooking {
  id: string;
  starts_at: string;
  ends_at: string;
  name: string;
  /** The owner's zone. */
  time_zone: string;
  visitor_time_zone: string;
  booking_form_name: string;
  location: string;
  slug?: string;
  duration_minutes?: number;
  status?: 'confirmed' | 'cancelled';
}

/** What booking_manage() tells the holder of an unused manage link. */
export interface ManagedBooking {
  id: string;
  slug: string;
  booking_form_name: string;
  location: string;
  duration_minutes: number;
  time_zone: string;
  visitor_time_zone: string;
  starts_at: string;
  ends_at: string;
  name: string;
  status: 'confirmed' | 'cancelled';
}

/** The part of booking_page() the function needs before booking. */
export interface BookingPage {
  id: string;
  slug: string;
  name: string;
  location: string;
  duration_minutes: number;
  time_zone: string;
  captcha_provider: CaptchaProvider | null;
}

/** The fields a visitor's answer names when refused as invalid (the database's own words). */
export type InvalidField = 'name' | 'email' | 'note' | 'start' | 'time_zone' | 'reason';

/** One booking request, as booking_request() takes it. */
export interface BookInput {
  slug: string;
  /** ISO 8601 instant (UTC, with Z). */
  start: string;
  name: string;
  email: string;
  note: string;
  visitorTimeZone: string;
  /** The client's salted hash (_shared/client-hash.ts), never its address. */
  client: string;
  /** `${SITE_URL}/book/manage?token=`: the manage link is this and the token. */
  linkPrefix: string;
}

export type BookResult =
  | { status: 'booked'; booking: BookedBooking; visitorMailed: boolean }
  | { status: 'not_found' }
  | { status: 'invalid'; field: InvalidField; message: string }
  | { status: 'slot_taken'; next: string[] }
  | { status: 'account_limit'; retryAfter: number };

/**
 * booking_take_attempt(): the client's request counted against its allowance on the page owner's
 * pages, or refused past it; not_found when no page has the slug.
 */
export type AttemptResult =
  { status: 'ok' } | { status: 'not_found' } | { status: 'rate_limited'; retryAfter: number };

export type CancelResult = 'cancelled' | 'not_found' | 'already_cancelled' | 'past';

export type RescheduleResult =
  | { status: 'rescheduled'; booking: BookedBooking }
  | { status: 'not_found' }
  | { status: 'past' }
  | { status: 'already_cancelled' }
  | { status: 'invalid'; field: InvalidField; message: string }
  | { status: 'slot_taken'; next: string[] };

/** A booking page's CAPTCHA check for one token (the page's secret, the provider's answer). */
export interface CaptchaCheckInput {
  bookingFormId: string;
  provider: CaptchaProvider;
  token: string | null;
  /** The client's address as the function trusts it. */
  remoteIp: string | null;
}

export type CaptchaCheck = (input: CaptchaCheckInput) => Promise<CaptchaVerdict>;
